package dev.fulcrum.engine;

import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Per-backend counters written by request threads without locks (LongAdder, and a latency recorder of each recording
 * thread's own) and rolled up once a second by the control thread into requests/s and latency percentiles over the
 * last {@value #LATENCY_SECONDS} seconds. The UI reads only the rolled-up values.
 *
 * <p>Each thread records latencies into its own HdrHistogram {@link SingleWriterRecorder}: with one shared recorder
 * every request would bump two counters of its phaser and a bucket that the other I/O threads bump too, moving those
 * cache lines between cores; recording stays wait-free. The recorders are packed (memory in proportion to the values
 * seen), and so are the per-second histograms the window is made of, which the control thread alone fills from them;
 * the window is kept incrementally (add the new second, subtract the one that expired). Memory matters at a thousand
 * backends: flat nanosecond histograms, about 400 KiB a backend, would not fit in a 256 MiB heap there. Latencies
 * are kept in microseconds, two significant digits.
 *
 * <p>A backend's window is {@value #LATENCY_SECONDS} seconds; a split's arm keeps a minute ({@code ArmStats}), and
 * the requests and failures of the window as well.
 */
public final class BackendStats {
    static final int LATENCY_SECONDS = 10;
    private static final long MAX_TRACKED_MICROS = 3_600_000_000L;

    private final LongAdder requests = new LongAdder();
    private final LongAdder failures = new LongAdder();
    /**
     * The recording threads' own recorders (in practice the proxy's I/O threads, a few): found by a scan, which for
     * so few is cheaper than a ThreadLocal. Replaced whole (copy on write) to add one.
     */
    private volatile Own[] recorders = new Own[0];

    private static final class Own {
        final Thread thread;
        final SingleWriterRecorder recorder;
        /** The interval histogram the recorder handed out last, handed back to it at the next roll (control thread). */
        Histogram spare;

        Own(Thread thread, SingleWriterRecorder recorder) {
            this.thread = thread;
            this.recorder = recorder;
        }
    }

    // owned by the control thread
    private final PackedHistogram[] seconds;
    /** Requests and failures of each second of the window, as {@link #seconds}. */
    private final long[] secondRequests;
    private final long[] secondFailures;
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
    private volatile long windowRequests;
    private volatile long windowFailures;

    public BackendStats() {
        this(LATENCY_SECONDS);
    }

    /** Figures over the last {@code windowSeconds} seconds. */
    public BackendStats(int windowSeconds) {
        seconds = new PackedHistogram[windowSeconds];
        secondRequests = new long[windowSeconds];
        secondFailures = new long[windowSeconds];
    }

    void record(Outcome outcome, long latencyNanos) {
        record(outcome.isBackendFailure(), outcome != Outcome.CLIENT_ABORT && outcome != Outcome.CONNECT_FAILURE,
                latencyNanos);
    }

    /**
     * One request: {@code failed} counts it among the failures, {@code timed} puts its latency in the percentiles
     * (not for one that never reached an answer).
     */
    public void record(boolean failed, boolean timed, long latencyNanos) {
        requests.increment();
        if (failed) {
            failures.increment();
        }
        if (timed) {
            recorder().recordValue(Math.min(Math.max(latencyNanos / 1000, 1), MAX_TRACKED_MICROS));
        }
    }

    private SingleWriterRecorder recorder() {
        Thread me = Thread.currentThread();
        for (Own o : recorders) {
            if (o.thread == me) {
                return o.recorder;
            }
        }
        return addRecorder(me);
    }

    /** A thread's first latency here: its own recorder (rare; the I/O threads are few and live long). */
    private synchronized SingleWriterRecorder addRecorder(Thread me) {
        Own[] all = Arrays.copyOf(recorders, recorders.length + 1);
        all[all.length - 1] = new Own(me, new SingleWriterRecorder(2, true));
        recorders = all;
        return all[all.length - 1].recorder;
    }

    /** Control thread, about once a second. */
    public void roll(long nowNanos) {
        long total = requests.sum();
        long failed = failures.sum();
        secondRequests[slot] = total - lastTotal;
        secondFailures[slot] = failed - lastFailures;
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
        second.reset();
        for (Own o : recorders) {
            // the recorder's own interval histogram, added straight in (copying it first would make the roll-up
            // of 1000 backends half as slow again); an idle thread's is empty and skipped
            Histogram h = o.recorder.getIntervalHistogram(o.spare);
            o.spare = h;
            if (h.getTotalCount() > 0) {
                second.add(h);
            }
        }
        if (second.getTotalCount() > 0) {
            window.add(second);
        }
        slot = (slot + 1) % seconds.length;
        long inWindow = 0;
        long failedInWindow = 0;
        for (int i = 0; i < seconds.length; i++) {
            inWindow += secondRequests[i];
            failedInWindow += secondFailures[i];
        }
        windowRequests = inWindow;
        windowFailures = failedInWindow;
        p50Ms = window.getTotalCount() == 0 ? 0 : window.getValueAtPercentile(50) / 1e3;
        p99Ms = window.getTotalCount() == 0 ? 0 : window.getValueAtPercentile(99) / 1e3;
    }

    /** Bytes the rolled-up histograms take, the recorders' own aside (HdrHistogram's estimate); control thread, for tests. */
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

    /** Requests counted over the window (as rolled up last). */
    public long windowRequests() {
        return windowRequests;
    }

    /** Failures counted over the window (as rolled up last). */
    public long windowFailures() {
        return windowFailures;
    }
}
