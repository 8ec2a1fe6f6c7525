package dev.fulcrum.admin;

import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.Engine;

/** Turns the running pools into nginx, HAProxy or Envoy config (issue 4). */
public final class ConfigExport {
    private ConfigExport() {
    }

    public static String export(FulcrumConfig config, Engine engine, String format, String pool) {
        throw new dev.fulcrum.engine.EngineException(501, "export: not built yet (got: " + format + ")");
    }
}
