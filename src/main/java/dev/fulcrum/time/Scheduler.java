package dev.fulcrum.time;

import java.util.concurrent.TimeUnit;

/**
 * Runs work later, by the time of its {@link #ticker()}: the one way anything in Fulcrum waits for time
 * (health rounds, metrics polls, discovery refreshes, HAProxy polls, the traffic generator's pacing).
 *
 * <p>Production uses {@link #daemon}: one daemon thread per scheduler, on the system clock. Tests use a
 * {@link ManualClock}, whose tasks run on the test's own thread when the test advances it; no test sleeps to
 * let time pass.
 *
 * <p>A task that throws is logged and, if periodic, keeps its schedule (the JDK's executors would cancel it
 * silently, and a source that failed once would never refresh again).
 *
 * <p>Whoever creates a scheduler shuts it down; a component given one only cancels its own tasks.
 */
public interface Scheduler {
    Ticker ticker();

    /** Runs {@code task} once, {@code delay} from now (0: as soon as possible). */
    Cancellable schedule(Runnable task, long delay, TimeUnit unit);

    /** Runs {@code task} at {@code initialDelay}, then every {@code period} after the previous start. */
    Cancellable scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit);

    /** Runs {@code task} at {@code initialDelay}, then {@code delay} after each run ends. */
    Cancellable scheduleWithFixedDelay(Runnable task, long initialDelay, long delay, TimeUnit unit);

    /** Runs {@code task} soon: on the scheduler's thread, or (a manual clock) at once on the caller's. */
    void execute(Runnable task);

    /** True when called from the thread that runs this scheduler's tasks. */
    boolean onSchedulerThread();

    /** Stops: nothing more runs, and a system scheduler's thread ends. */
    void shutdown();

    /** A scheduler on the system clock with one daemon thread of that name. */
    static Scheduler daemon(String threadName) {
        return new SystemScheduler(threadName);
    }
}
