package dev.fulcrum.health;

import dev.fulcrum.rules.Limits;
import dev.fulcrum.rules.Violation;

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

    public HealthCheckSpec {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("path: must start with / (got: " + path + ")");
        }
        if (!Limits.HEALTH_CHECK_MS.contains(intervalMs)) {
            throw new IllegalArgumentException(new Violation("intervalMs", Limits.HEALTH_CHECK_MS.problem(intervalMs),
                    intervalMs).describe());
        }
        if (!Limits.HEALTH_CHECK_MS.contains(timeoutMs)) {
            throw new IllegalArgumentException(new Violation("timeoutMs", Limits.HEALTH_CHECK_MS.problem(timeoutMs),
                    timeoutMs).describe());
        }
        if (expectedStatus < 100 || expectedStatus > 599) {
            throw new IllegalArgumentException("expectedStatus: must be between 100 and 599 (got: " + expectedStatus + ")");
        }
    }
}
