package dev.fulcrum.discovery;

import dev.fulcrum.engine.BackendSpec;
import java.io.IOException;
import java.util.List;

/** Where backends come from besides the static list: asked again every refresh. */
interface DiscoverySource {
    /** The backends this source names right now, each with a stable id. */
    List<BackendSpec> resolve() throws IOException;

    String label();
}
