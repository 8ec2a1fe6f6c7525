package dev.fulcrum.discovery;

import dev.fulcrum.engine.BackendSpec;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Where backends come from besides the static list: asked again every refresh, on the discovery thread. A source
 * that is told of changes (a watch) also asks for a refresh itself through the callback {@link #start} gives it.
 */
interface DiscoverySource extends AutoCloseable {
    /**
     * The backends this source names right now, each with a stable id; null when it has no answer yet (a watched
     * source before its first read), which changes nothing. An exception keeps the last good set.
     */
    List<BackendSpec> resolve() throws IOException;

    String label();

    /**
     * Entries the last {@link #resolve} left out, each by its name in the source (an etcd key) with why; the rest of
     * the answer still applies. Empty for a source that refuses its whole answer instead.
     */
    default Map<String, String> refused() {
        return Map.of();
    }

    /**
     * Called once, before the first refresh; {@code changed} asks for a refresh on the discovery thread, from any
     * thread, as often as the source likes (requests made while one is pending are one refresh).
     */
    default void start(Runnable changed) {
    }

    /** Stops whatever the source runs (a watch); its last answer stays. */
    @Override
    default void close() {
    }
}
