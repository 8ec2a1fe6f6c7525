package dev.fulcrum.health;

/**
 * Active health-check settings (docs/REFERENCE.md §2.1 {@code healthCheck}, less {@code rise} and {@code fall}, which
 * the engine applies and so live in {@code EngineSettings}).
 *
 * @param enabled        false = no probes; backends stay UNKNOWN, which the engine treats as healthy
 * @param path           probed as {@code GET <backend url><path>}; must start with {@code /}
 * @param intervalMs     time between probe rounds, 1 ms to 1 hour
 * @param timeoutMs      a probe not answered (status line, headers and body) within this fails, 1 ms to 1 hour
 * @param expectedStatus the status a healthy backend answers, 100-599
 */
public record HealthCheckSpec(boolean enabled, String path, long intervalMs, long timeoutMs, int expectedStatus) {
    public static final HealthCheckSpec DEFAULT = new HealthCheckSpec(true, "/health", 2000, 1000, 200);
    static final long MAX_MS = 3_600_000;

    public HealthCheckSpec {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("path: must start with / (got: " + path + ")");
        }
        if (intervalMs < 1 || intervalMs > MAX_MS) {
            throw new IllegalArgumentException("intervalMs: must be between 1 and 3600000 (got: " + intervalMs + ")");
        }
        if (timeoutMs < 1 || timeoutMs > MAX_MS) {
            throw new IllegalArgumentException("timeoutMs: must be between 1 and 3600000 (got: " + timeoutMs + ")");
        }
        if (expectedStatus < 100 || expectedStatus > 599) {
            throw new IllegalArgumentException("expectedStatus: must be between 100 and 599 (got: " + expectedStatus + ")");
        }
    }
}
