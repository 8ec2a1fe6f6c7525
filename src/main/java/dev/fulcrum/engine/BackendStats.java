package dev.fulcrum.engine;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;
import org.HdrHistogram.Recorder;

/**
 * Per-backend counters written by request threads without locks (LongAdder, HdrHistogram's wait-free
 * {@link Recorder}) and rolled up once a second by the control thread into requests/s and latency
 * percentiles over the last {@value #LATENCY_SECONDS} seconds. The UI reads only the rolled-up values.
 *
 * <p>Memory matters at a thousand backends. Latencies are kept in microseconds (1 µs to an hour, two
 * significant digits): the recorder's two flat histograms take about 26 KiB each and stay flat, because
 * recording must be wait-free on the I/O threads (HdrHistogram's packed concurrent kind resizes under a
 * phaser and stalls concurrent writers). The per-second histograms the window is made of are copied into
 * packed histograms by the control thread, alone, where they take memory in proportion to the values
 * seen. The window is kept incrementally (add the new second, subtract the one that expired). Fourteen flat
 * nanosecond histograms, about 400 KiB a backend, ran a 256 MiB heap out of memory at 1000 backends.
 */
public final class BackendStats {
    static final int LATENCY_SECONDS = 10;
    private static final long MAX_TRACKED_MICROS = 3_600_000_000L;

    private final LongAdder requests = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final Recorder recorder = new Recorder(1, MAX_TRACKED_MICROS, 2);

    // owned by the control thread
    private final PackedHistogram[] seconds = new PackedHistogram[LATENCY_SECONDS];
    private final PackedHistogram window = new PackedHistogram(1, MAX_TRACKED_MICROS, 2);
    private int slot;
    private long lastTotal;
    private long lastFailures;
    private long lastRollNanos = Long.MIN_VALUE;

    // published to readers
    private volatile double rps;
    private volatile double errorRate;
    private volatile double p50Ms;
    private volatile double p99Ms;

    void record(Outcome outcome, long latencyNanos) {
        requests.increment();
        if (outcome.isBackendFailure()) {
            failures.increment();
        }
        if (outcome != Outcome.CLIENT_ABORT && outcome != Outcome.CONNECT_FAILURE) {
            recorder.recordValue(Math.min(Math.max(latencyNanos / 1000, 1), MAX_TRACKED_MICROS));
        }
    }

    /** Control thread, about once a second. */
    void roll(long nowNanos) {
        long total = requests.sum();
        long failed = failures.sum();
        if (lastRollNanos != Long.MIN_VALUE) {
            double secs = Math.max(1e-3, (nowNanos - lastRollNanos) / 1e9);
            rps = (total - lastTotal) / secs;
            long n = total - lastTotal;
            errorRate = n == 0 ? 0 : (double) (failed - lastFailures) / n;
        }
        lastTotal = total;
        lastFailures = failed;
        lastRollNanos = nowNanos;
        PackedHistogram second = seconds[slot];
        if (second == null) {
            second = new PackedHistogram(1, MAX_TRACKED_MICROS, 2);
            seconds[slot] = second;
        } else if (second.getTotalCount() > 0) {
            window.subtract(second); // ten seconds old: out of the window
        }
        recorder.getIntervalHistogramInto(second); // copied straight into the packed slot: no third flat histogram
        if (second.getTotalCount() > 0) {
            window.add(second);
        }
        slot = (slot + 1) % seconds.length;
        p50Ms = window.getTotalCount() == 0 ? 0 : window.getValueAtPercentile(50) / 1e3;
        p99Ms = window.getTotalCount() == 0 ? 0 : window.getValueAtPercentile(99) / 1e3;
    }

    /** Bytes the rolled-up histograms take, the recorder's own two aside (HdrHistogram's estimate); control thread, for tests. */
    long histogramBytes() {
        long n = window.getEstimatedFootprintInBytes();
        for (Histogram h : seconds) {
            n += h == null ? 0 : h.getEstimatedFootprintInBytes();
        }
        return n;
    }

    public long totalRequests() {
        return requests.sum();
    }

    public long failures() {
        return failures.sum();
    }

    public double rps() {
        return rps;
    }

    public double errorRate() {
        return errorRate;
    }

    public double p50Ms() {
        return p50Ms;
    }

    public double p99Ms() {
        return p99Ms;
    }
}
