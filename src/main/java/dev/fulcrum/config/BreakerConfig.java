package dev.fulcrum.config;

import dev.fulcrum.engine.breaker.BreakerSpec;

/**
 * The per-backend circuit breaker ({@code circuitBreaker}, docs/REFERENCE.md §2.1); see {@link BreakerSpec}. The two
 * thresholds are percentages, 0..100.
 */
public record BreakerConfig(boolean enabled, int window, int minimumCalls, double failureRateThreshold,
                            long slowCallMs, double slowCallRateThreshold, long openMs, int halfOpenCalls) {
    public static final BreakerConfig DEFAULT = new BreakerConfig(true, 20, 10, 50, 2000, 100, 10_000, 3);

    public BreakerSpec toSpec() {
        return new BreakerSpec(enabled, window, minimumCalls, failureRateThreshold, slowCallMs, slowCallRateThreshold,
                openMs, halfOpenCalls);
    }
}
