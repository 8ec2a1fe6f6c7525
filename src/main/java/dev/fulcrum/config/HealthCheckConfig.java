package dev.fulcrum.config;

/**
 * Active health checking ({@code healthCheck}, docs/REFERENCE.md §2.1): {@code GET path} every {@code intervalMs}.
 *
 * @param expectedStatus the status a healthy backend answers
 * @param rise           successful probes in a row that bring a DOWN backend UP
 * @param fall           failed probes in a row that take a backend DOWN
 */
public record HealthCheckConfig(boolean enabled, String path, long intervalMs, long timeoutMs, int expectedStatus,
                                int rise, int fall) {
    public static final HealthCheckConfig DEFAULT = new HealthCheckConfig(true, "/health", 2000, 1000, 200, 2, 3);
}
