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
 * <p>The histograms are HdrHistogram's packed kind, whose memory follows the values actually seen: latencies
 * fill a few hundred buckets of the thousands that span 1 ns to an hour. With the flat kind each backend
 * held about 400 KiB (fourteen histograms), and 1000 backends ran a 256 MiB heap out of memory; packed, a
 * backend holds about 20 KiB, for roughly 50 ns more per recorded request.
 */
public final class BackendStats {
    static final int LATENCY_SECONDS = 10;
    private static final long MAX_TRACKED_NANOS = 3_600_000_000_000L;

    private final LongAdder requests = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final Recorder recorder = new Recorder(2, true);

    // owned by the control thread
    private final Histogram[] seconds = new Histogram[LATENCY_SECONDS];
    private int slot;
    private long lastTotal;
    private long lastFailures;
    private long lastRollNanos = Long.MIN_VALUE;
    private Histogram recycle;
    private final Histogram merged = new PackedHistogram(2);

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
            recorder.recordValue(Math.min(Math.max(latencyNanos, 1), MAX_TRACKED_NANOS));
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
        Histogram h = recorder.getIntervalHistogram(recycle);
        recycle = seconds[slot];
        seconds[slot] = h;
        slot = (slot + 1) % seconds.length;
        merged.reset(); // reused: one allocation per backend, not one per second
        for (Histogram s : seconds) {
            if (s != null) {
                merged.add(s);
            }
        }
        p50Ms = merged.getTotalCount() == 0 ? 0 : merged.getValueAtPercentile(50) / 1e6;
        p99Ms = merged.getTotalCount() == 0 ? 0 : merged.getValueAtPercentile(99) / 1e6;
    }

    /** Bytes the rolled-up histograms take (HdrHistogram's estimate); control thread, for tests. */
    long histogramBytes() {
        long n = merged.getEstimatedFootprintInBytes();
        for (Histogram h : seconds) {
            n += h == null ? 0 : h.getEstimatedFootprintInBytes();
        }
        return n + (recycle == null ? 0 : recycle.getEstimatedFootprintInBytes());
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
