package dev.fulcrum.demo;

import dev.fulcrum.rules.Limits;
import dev.fulcrum.rules.Violation;

/**
 * One demo backend as configured (docs/REFERENCE.md §2.1 {@code demoBackends[]}): Fulcrum starts a small HTTP server
 * for it on {@code 127.0.0.1:port} and adds it to the default pool under {@code id} and {@code weight}.
 *
 * <p>The compact constructor validates every field and names it in the message, e.g.
 * {@code errorRate: must be between 0 and 1 (got: 1.5)}; the config package maps its JSON onto this record.
 *
 * @param id        1-64 chars of {@code [A-Za-z0-9._-]}
 * @param port      0-65535; 0 lets the OS pick (tests), the actual port is {@link DemoBackend#port()}
 * @param weight    0-1000, the weight the backend joins its pool with
 * @param latencyMs 0-60000, how long an ordinary request takes
 * @param errorRate 0-1, the share of ordinary requests answered 500
 */
public record DemoSpec(String id, int port, int weight, double latencyMs, double errorRate) {
    public static final double MAX_LATENCY_MS = Limits.DEMO_LATENCY_MS.max();

    public DemoSpec {
        refuse("id", Limits.id(id), id);
        refuse("port", Limits.port(port), port);
        refuse("weight", Limits.weight(weight), weight);
        checkLatency(latencyMs);
        checkErrorRate(errorRate);
    }

    private static void refuse(String field, String problem, Object value) {
        if (problem != null) {
            throw new IllegalArgumentException(new Violation(field, problem, value).describe());
        }
    }

    /** A spec with no latency and no errors. */
    public static DemoSpec of(String id, int port, int weight) {
        return new DemoSpec(id, port, weight, 0, 0);
    }

    static void checkLatency(double latencyMs) {
        refuse("latencyMs", Limits.demoLatencyMs(latencyMs), latencyMs);
    }

    static void checkErrorRate(double errorRate) {
        refuse("errorRate", Limits.rate(errorRate), errorRate);
    }
}
