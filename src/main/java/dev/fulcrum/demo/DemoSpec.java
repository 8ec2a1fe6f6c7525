package dev.fulcrum.demo;

import java.util.regex.Pattern;

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
    static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    public static final double MAX_LATENCY_MS = 60_000;

    public DemoSpec {
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("id: must be 1-64 chars of [A-Za-z0-9._-] (got: " + id + ")");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port: must be between 0 and 65535 (got: " + port + ")");
        }
        if (weight < 0 || weight > 1000) {
            throw new IllegalArgumentException("weight: must be between 0 and 1000 (got: " + weight + ")");
        }
        checkLatency(latencyMs);
        checkErrorRate(errorRate);
    }

    /** A spec with no latency and no errors. */
    public static DemoSpec of(String id, int port, int weight) {
        return new DemoSpec(id, port, weight, 0, 0);
    }

    static void checkLatency(double latencyMs) {
        if (!(latencyMs >= 0 && latencyMs <= MAX_LATENCY_MS)) { // also rejects NaN
            throw new IllegalArgumentException("latencyMs: must be between 0 and 60000 (got: " + fmt(latencyMs) + ")");
        }
    }

    static void checkErrorRate(double errorRate) {
        if (!(errorRate >= 0 && errorRate <= 1)) {
            throw new IllegalArgumentException("errorRate: must be between 0 and 1 (got: " + fmt(errorRate) + ")");
        }
    }

    /** 5.0 prints as 5, 0.25 as 0.25: messages show what the user typed. */
    static String fmt(double v) {
        if (v == Math.rint(v) && !Double.isInfinite(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v);
    }
}
