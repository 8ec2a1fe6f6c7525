package dev.fulcrum.admin;

import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineException;

import java.util.List;

/**
 * Turns the running pools into nginx, HAProxy or Envoy configuration ({@code GET /api/config/export},
 * docs/REFERENCE.md §4), so a setup tried out in Fulcrum can be carried over to a production proxy.
 *
 * <p>Live membership, weights and DRAINING / DRAINED states come from the engine; strategy, health check, outlier
 * detection, breaker, slow start, sticky sessions, timeouts and retries come from {@code config}. Whatever the target
 * proxy has no equivalent for is written as a comment saying so, never silently dropped. For example a pool
 * {@code default} with least-requests and backends a (weight 3) and b (weight 1, drained) exports to nginx as
 * <pre>
 * upstream default {
 *     least_conn;
 *     keepalive 64;
 *     server 127.0.0.1:9001 weight=3 max_fails=5 fail_timeout=30s;  # backend a
 *     server 127.0.0.1:9002 max_fails=5 fail_timeout=30s down;  # backend b: DRAINED in Fulcrum
 * }
 * </pre>
 * and to HAProxy as {@code backend default} with {@code balance leastconn} and {@code server b ... disabled}.
 */
public final class ConfigExport {
    /** The formats {@link #export} writes. */
    public static final List<String> FORMATS = List.of("nginx", "haproxy", "envoy");

    private ConfigExport() {
    }

    /**
     * The config text.
     *
     * @param format one of {@link #FORMATS} (else 400)
     * @param pool   null for every pool with the routes between them (nginx locations, HAProxy use_backend rules,
     *               Envoy routes); else only that pool, receiving every path (404 if unknown)
     */
    public static String export(FulcrumConfig config, Engine engine, String format, String pool) {
        if (format == null || !FORMATS.contains(format)) {
            throw new EngineException(400, "format: one of nginx, haproxy, envoy (got: " + format + ")");
        }
        ExportPlan plan = ExportPlan.of(config, engine, pool);
        return switch (format) {
            case "nginx" -> ExportNginx.write(plan);
            case "haproxy" -> ExportHaproxy.write(plan);
            default -> ExportEnvoy.write(plan);
        };
    }
}
