package dev.fulcrum.admin;

import dev.fulcrum.engine.Engine;
import java.util.List;
import java.util.Map;

/**
 * What the admin API needs from the running application beyond the engine: the config on disk and in
 * memory, the demo backends, and where the proxy listens. The app implements it; tests may too.
 */
public interface AdminRuntime {
    Engine engine();

    /** The proxy's base URL, e.g. {@code http://127.0.0.1:8080}. */
    String proxyUrl();

    /** The running config as a JSON-serialisable value (round-trips through {@code --check-config}). */
    Object config();

    /**
     * Validates a whole config and applies it atomically.
     * @return the problems (each {@code <json path>: <what> (got: <value>)}); empty when applied
     */
    List<String> applyConfig(String json);

    /**
     * Changes a demo backend live; any of the values may be null (unchanged).
     * @throws dev.fulcrum.engine.EngineException 404 for an unknown id, 400 for a value out of range
     */
    void updateDemo(String id, Double latencyMs, Double errorRate, Boolean down);

    /** Demo backends' current fault settings by id (empty when there are none). */
    Map<String, Map<String, Object>> demoState();

    /** The running pool as another proxy's config: nginx, haproxy or envoy. */
    String export(String format, String pool);

    /** The requests the proxy completed, newest kept, for {@code /api/requests}; null when none are kept. */
    default dev.fulcrum.requests.RequestStream requests() {
        return null;
    }

    /**
     * The upgraded connections (WebSockets) open now, newest first, each as its record would read if it closed now,
     * for {@code GET /api/tunnels}; empty when none (or no proxy).
     */
    default List<dev.fulcrum.requests.RequestSample> openTunnels() {
        return List.of();
    }

    /**
     * Where the config comes from when it is kept in etcd, as {@code /api/state}'s {@code configSource}
     * ({@link EngineState.ConfigSourceInfo}); null for a config file (the field is then absent).
     */
    default Map<String, Object> configSource() {
        return null;
    }

    /** Active health-check results by backend id, newest last, for the health view. */
    default Map<String, List<Map<String, Object>>> probeHistory() {
        return Map.of();
    }
}
