package dev.fulcrum.engine.routing;

import dev.fulcrum.engine.BackendStats;

/**
 * One arm of a split as its clients saw it over the last minute: requests, answers of 500 or more (the proxy's own
 * 502, 503 and 504 among them), rate, p50 and p99. Request threads {@link #record} without a lock; the control thread
 * rolls it up once a second, and the split panel, {@code /api/state} and the {@link CanaryGuard} read the same
 * figures.
 */
public final class ArmStats {
    public static final int WINDOW_SECONDS = 60;

    private final BackendStats stats = new BackendStats(WINDOW_SECONDS);

    /** A client request of this arm answered with {@code status} after {@code latencyNanos}. */
    public void record(int status, long latencyNanos) {
        stats.record(status >= 500, status != 499, latencyNanos);
    }

    /** Control thread, about once a second. */
    public void roll(long nowNanos) {
        stats.roll(nowNanos);
    }

    /** The figures as last rolled up. */
    public Figures figures() {
        long n = stats.windowRequests();
        return new Figures(n, stats.windowFailures(), stats.rps(), n == 0 ? 0 : (double) stats.windowFailures() / n,
                stats.p50Ms(), stats.p99Ms(), stats.totalRequests());
    }

    /**
     * @param requests  over the window
     * @param errors    answers of 500 or more over the window
     * @param rps       over the last second
     * @param errorRate errors / requests over the window (0 without requests)
     * @param total     since the route began
     */
    public record Figures(long requests, long errors, double rps, double errorRate, double p50Ms, double p99Ms,
                          long total) {
        public static final Figures NONE = new Figures(0, 0, 0, 0, 0, 0, 0);
    }
}
