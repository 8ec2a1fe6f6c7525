package dev.fulcrum.time;

import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;

/**
 * A clock and scheduler that move only when told: the simulator's time, and every test's. Advancing it runs,
 * on the caller's thread and in time order, each task that falls due on the way, with the clock reading that
 * task's due time while it runs; a periodic task is run once per period it spans, as a system scheduler would.
 * {@link #execute} runs its task at once on the caller's thread, as a manual engine's control work does.
 *
 * <p>Example: a task every 100 ms from 0 and a one-shot at 250 ms; {@code advanceMillis(300)} runs the periodic
 * one at 0, 100 and 200, the one-shot at 250, the periodic one at 300, and leaves the clock at 300 ms.
 *
 * <p>Thread-safe: readers on other threads see each reading; two threads advancing at once take turns.
 */
public final class ManualClock implements Ticker, Scheduler {
    /** The monotonic reading a clock built with {@code new ManualClock()} starts at (non-zero, as nanoTime's). */
    public static final long START_NANOS = 7_000_000_000L;
    /** 2023-11-14T22:13:20Z: its wall time at that reading. */
    public static final long WALL_START_MILLIS = 1_700_000_000_000L;

    private final long startNanos;
    private final long wallStartMillis;
    private final Object advancing = new Object();
    private final PriorityQueue<Entry> due = new PriorityQueue<>();
    private volatile long nanos;
    private long sequence; // guarded by due
    private volatile Thread runner;

    public ManualClock() {
        this(START_NANOS, WALL_START_MILLIS);
    }

    /** A clock reading {@code startNanos} and, at that reading, the wall time {@code wallStartMillis}. */
    public ManualClock(long startNanos, long wallStartMillis) {
        this.startNanos = startNanos;
        this.wallStartMillis = wallStartMillis;
        this.nanos = startNanos;
    }

    @Override
    public long nanos() {
        return nanos;
    }

    @Override
    public long wallMillis() {
        return wallStartMillis + Math.floorDiv(nanos - startNanos, 1_000_000L);
    }

    /** Nanoseconds since this clock started. */
    public long elapsedNanos() {
        return nanos - startNanos;
    }

    @Override
    public Ticker ticker() {
        return this;
    }

    public ManualClock advanceMillis(long ms) {
        return advance(Duration.ofMillis(ms));
    }

    /** Moves the clock forward by {@code d}, running what falls due on the way (nothing when {@code d} is 0
     * but what is already due). */
    public ManualClock advance(Duration d) {
        long step = d.toNanos();
        if (step < 0) {
            throw new IllegalArgumentException("d: a clock never goes back (got: " + d + ")");
        }
        synchronized (advancing) {
            advanceTo(nanos + step);
        }
        return this;
    }

    /**
     * Moves the clock forward by {@code d} and runs nothing: a process stopped for {@code d} (SIGSTOP, a debugger),
     * or, called from a task, a task that takes {@code d}. What fell due meanwhile runs late, at the next
     * {@link #runDue} or advance, as a system scheduler runs it: a fixed-rate task once for each period missed, back to
     * back, a fixed-delay one once.
     */
    public ManualClock stall(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("d: a clock never goes back (got: " + d + ")");
        }
        synchronized (advancing) {
            nanos += d.toNanos();
        }
        return this;
    }

    /** Moves the clock to {@code elapsed} nanoseconds after its start, running what falls due on the way. */
    public ManualClock moveTo(long elapsed) {
        synchronized (advancing) {
            long target = startNanos + elapsed;
            if (target < nanos) {
                throw new IllegalArgumentException("elapsed: a clock never goes back (got: " + elapsed
                        + ", now: " + elapsedNanos() + ")");
            }
            advanceTo(target);
        }
        return this;
    }

    /** Runs what is due now without moving the clock; returns how many tasks ran. */
    public int runDue() {
        synchronized (advancing) {
            return advanceTo(nanos);
        }
    }

    /** Tasks waiting for their time (periodic ones count once). */
    public int pending() {
        synchronized (due) {
            return (int) due.stream().filter(e -> !e.handle().cancelled).count();
        }
    }

    private int advanceTo(long target) {
        int ran = 0;
        runner = Thread.currentThread();
        try {
            while (true) {
                Entry next;
                synchronized (due) {
                    next = due.peek();
                    if (next == null || next.at() > target) {
                        break;
                    }
                    due.poll();
                }
                if (next.handle().cancelled) {
                    continue;
                }
                if (next.at() > nanos) {
                    nanos = next.at();
                }
                next.task().run();
                ran++;
                if (next.period() > 0 && !next.handle().cancelled) {
                    long again = next.fixedRate() ? next.at() + next.period() : nanos + next.period();
                    enqueue(next.task(), again, next.period(), next.fixedRate(), next.handle());
                }
            }
            nanos = Math.max(nanos, target);
        } finally {
            runner = null;
        }
        return ran;
    }

    @Override
    public Cancellable schedule(Runnable task, long delay, TimeUnit unit) {
        return enqueue(task, nanos + unit.toNanos(Math.max(0, delay)), 0, false, new Handle());
    }

    @Override
    public Cancellable scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit) {
        return enqueue(task, nanos + unit.toNanos(Math.max(0, initialDelay)), positive(period, unit), true,
                new Handle());
    }

    @Override
    public Cancellable scheduleWithFixedDelay(Runnable task, long initialDelay, long delay, TimeUnit unit) {
        return enqueue(task, nanos + unit.toNanos(Math.max(0, initialDelay)), positive(delay, unit), false,
                new Handle());
    }

    @Override
    public void execute(Runnable task) {
        task.run();
    }

    @Override
    public boolean onSchedulerThread() {
        return runner == Thread.currentThread();
    }

    /** Cancels every task; a manual clock has no thread to stop. */
    @Override
    public void shutdown() {
        synchronized (due) {
            due.forEach(e -> e.handle().cancel());
            due.clear();
        }
    }

    private static long positive(long period, TimeUnit unit) {
        if (period <= 0) {
            throw new IllegalArgumentException("period: must be positive (got: " + period + ")");
        }
        return unit.toNanos(period);
    }

    private Handle enqueue(Runnable task, long at, long period, boolean fixedRate, Handle handle) {
        synchronized (due) {
            due.add(new Entry(task, at, period, fixedRate, handle, sequence++));
        }
        return handle;
    }

    private static final class Handle implements Cancellable {
        volatile boolean cancelled;

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    /** One scheduled run; a periodic task's runs share one handle. Equal times run in the order scheduled. */
    private record Entry(Runnable task, long at, long period, boolean fixedRate, Handle handle, long sequence)
            implements Comparable<Entry> {
        @Override
        public int compareTo(Entry o) {
            int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(sequence, o.sequence);
        }
    }
}
