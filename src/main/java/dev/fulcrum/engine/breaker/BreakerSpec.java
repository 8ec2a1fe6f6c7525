package dev.fulcrum.engine.breaker;

/**
 * Circuit breaker settings (docs/REFERENCE.md §2.1 {@code circuitBreaker}).
 *
 * @param window                the last N calls the rates are computed over
 * @param minimumCalls          no decision before this many calls are in the window
 * @param failureRateThreshold  percent of failures that opens the breaker
 * @param slowCallMs            a call at least this long counts as slow
 * @param slowCallRateThreshold percent of slow calls that opens the breaker
 * @param openMs                how long OPEN lasts before HALF_OPEN
 * @param halfOpenCalls         probes admitted in HALF_OPEN; all must succeed to close
 */
public record BreakerSpec(boolean enabled, int window, int minimumCalls, double failureRateThreshold, long slowCallMs,
                          double slowCallRateThreshold, long openMs, int halfOpenCalls) {
    public static final BreakerSpec DEFAULT = new BreakerSpec(true, 20, 10, 50, 2000, 100, 10_000, 3);
    public static final BreakerSpec DISABLED = new BreakerSpec(false, 20, 10, 50, 2000, 100, 10_000, 3);

    public BreakerSpec withOpenMs(long ms) {
        return new BreakerSpec(enabled, window, minimumCalls, failureRateThreshold, slowCallMs, slowCallRateThreshold,
                ms, halfOpenCalls);
    }
}
