package dev.fulcrum.engine;

import dev.fulcrum.time.Ticker;

/**
 * Peak-sensitive exponentially weighted moving average of latency, after Finagle's and Linkerd's peak EWMA:
 * a sample above the current value replaces it at once (peaks count immediately), a sample below decays it
 * with weight {@code exp(-elapsed / decay)}. A backend that turns slow is avoided within one request; one
 * that recovers earns traffic back over about {@code decay}. As in Finagle, the estimate also decays towards 0
 * while no sample comes ({@link #get(long)}): a backend that had one slow answer and was then never picked would
 * otherwise keep that cost for ever and never be tried again.
 *
 * <p>Worked example, decay 10 s: samples 100 ms then, 10 s later, 20 ms give 100 x e^-1 + 20 x (1 - e^-1)
 * = 36.8 + 12.6 = 49.4 ms; a 300 ms sample right after that makes it 300 ms at once.
 *
 * <p>Threading: completions {@link #observe} under this object's monitor (they finish off the pick path);
 * {@link #get(long)} and {@link #hasSamples()} are plain volatile reads, so a strategy may read every
 * candidate's estimate while picking without taking a lock (a value and stamp read across an observe may be one
 * sample apart: the estimate is off by that sample's decay for one pick).
 */
public final class PeakEwma {
    private final Ticker ticker;
    private final double decayNanos;
    private volatile double value; // nanoseconds
    private volatile boolean sampled; // a 0 ns sample (possible with a fake clock) is still a sample
    private volatile long stamp; // written under this

    public PeakEwma(Ticker ticker, long decayMs) {
        this.ticker = ticker;
        this.decayNanos = Math.max(1, decayMs) * 1_000_000.0;
        this.stamp = ticker.nanos();
    }

    public void observe(long rttNanos) {
        observe(rttNanos, ticker.nanos());
    }

    /**
     * {@link #observe(long)} at {@code now}, a reading of the ticker the caller already took. For a sample taken within
     * decay / 64 of the last one (a busy backend), the decay factor is the start of exp's series: off by less than
     * 1e-6, without the call to exp.
     */
    public synchronized void observe(long rttNanos, long now) {
        double v = value;
        double x = Math.max(0, now - stamp) / decayNanos;
        double w = x <= 1.0 / 64 ? 1 - x + x * x / 2 : Math.exp(-x);
        if (!sampled || rttNanos > v * w) {
            v = rttNanos;
        } else {
            v = v * w + rttNanos * (1 - w);
        }
        value = v;
        stamp = now;
        sampled = true;
    }

    /**
     * The estimate at {@code now} in nanoseconds, or 0 when nothing was observed yet. Lock-free. A sample younger
     * than decay / 64 counts undecayed (off by at most 1.6%), so a busy backend costs no {@code exp} per pick.
     */
    public double get(long now) {
        double v = value;
        long elapsed = now - stamp;
        return elapsed <= decayNanos / 64 ? v : v * Math.exp(-elapsed / decayNanos);
    }

    /** The estimate now. */
    public double get() {
        return get(ticker.nanos());
    }

    /** Lock-free. */
    public boolean hasSamples() {
        return sampled;
    }
}
