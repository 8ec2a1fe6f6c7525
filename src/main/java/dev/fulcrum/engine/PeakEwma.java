package dev.fulcrum.engine;

/**
 * Peak-sensitive exponentially weighted moving average of latency, after Finagle's and Linkerd's peak EWMA:
 * a sample above the current value replaces it at once (peaks count immediately), a sample below decays it
 * with weight {@code exp(-elapsed / decay)}. A backend that turns slow is avoided within one request; one
 * that recovers earns traffic back over about {@code decay}.
 */
public final class PeakEwma {
    private final Ticker ticker;
    private final double decayNanos;
    private double value; // nanoseconds
    private boolean sampled; // a 0 ns sample (possible with a fake clock) is still a sample
    private long stamp;

    public PeakEwma(Ticker ticker, long decayMs) {
        this.ticker = ticker;
        this.decayNanos = Math.max(1, decayMs) * 1_000_000.0;
        this.stamp = ticker.nanos();
    }

    public synchronized void observe(long rttNanos) {
        long now = ticker.nanos();
        if (!sampled || rttNanos > value) {
            value = rttNanos;
        } else {
            double w = Math.exp(-(now - stamp) / decayNanos);
            value = value * w + rttNanos * (1 - w);
        }
        stamp = now;
        sampled = true;
    }

    /** Current estimate in nanoseconds, or 0 when nothing was observed yet. */
    public synchronized double get() {
        return value;
    }

    public synchronized boolean hasSamples() {
        return sampled;
    }
}
