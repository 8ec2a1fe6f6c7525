package dev.fulcrum.engine;

/**
 * Peak-sensitive exponentially weighted moving average of latency, after Finagle's and Linkerd's peak EWMA:
 * a sample above the current value replaces it at once (peaks count immediately), a sample below decays it
 * with weight {@code exp(-elapsed / decay)}. A backend that turns slow is avoided within one request; one
 * that recovers earns traffic back over about {@code decay}.
 *
 * <p>Worked example, decay 10 s: samples 100 ms then, 10 s later, 20 ms give 100 x e^-1 + 20 x (1 - e^-1)
 * = 36.8 + 12.6 = 49.4 ms; a 300 ms sample right after that makes it 300 ms at once.
 *
 * <p>Threading: completions {@link #observe} under this object's monitor (they finish off the pick path);
 * {@link #get()} and {@link #hasSamples()} are plain volatile reads, so a strategy may read every
 * candidate's estimate while picking without taking a lock.
 */
public final class PeakEwma {
    private final Ticker ticker;
    private final double decayNanos;
    private volatile double value; // nanoseconds
    private volatile boolean sampled; // a 0 ns sample (possible with a fake clock) is still a sample
    private long stamp; // guarded by this

    public PeakEwma(Ticker ticker, long decayMs) {
        this.ticker = ticker;
        this.decayNanos = Math.max(1, decayMs) * 1_000_000.0;
        this.stamp = ticker.nanos();
    }

    public synchronized void observe(long rttNanos) {
        long now = ticker.nanos();
        double v = value;
        if (!sampled || rttNanos > v) {
            v = rttNanos;
        } else {
            double w = Math.exp(-Math.max(0, now - stamp) / decayNanos);
            v = v * w + rttNanos * (1 - w);
        }
        value = v;
        stamp = now;
        sampled = true;
    }

    /** Current estimate in nanoseconds, or 0 when nothing was observed yet. Lock-free. */
    public double get() {
        return value;
    }

    /** Lock-free. */
    public boolean hasSamples() {
        return sampled;
    }
}
