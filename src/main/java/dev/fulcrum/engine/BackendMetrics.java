package dev.fulcrum.engine;

/**
 * A backend's own report of its load (demo backends serve it at {@code /metrics.json}), read by the
 * adaptive strategy.
 *
 * @param cpu        0..1
 * @param inflight   requests the backend is serving
 * @param latencyMs  its recent latency
 * @param atNanos    when the report was taken, ticker nanos
 */
public record BackendMetrics(double cpu, int inflight, double latencyMs, long atNanos) {
}
