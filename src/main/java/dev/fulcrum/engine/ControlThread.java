package dev.fulcrum.engine;

import dev.fulcrum.time.Scheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who runs the engine's control work: one daemon thread of its own ({@link #daemon}, production), or whoever
 * calls ({@link #caller}, a manual engine in tests and the simulator, whose ticks are called by hand).
 *
 * <p>Work handed over from the control thread itself runs inline: queuing it and waiting for it would
 * deadlock the thread on itself (an event listener that asks the engine a question, a breaker transition
 * reported during a tick). Work handed over after {@link #close()} is dropped by {@link #execute} (a request
 * finishing during shutdown must not fail because the thread is gone) and refused by {@link #call}.
 *
 * <p>Threading: any thread may call any method. The daemon thread is a {@link Scheduler#daemon}, so its
 * periodic task keeps its schedule when one run throws.
 */
final class ControlThread {
    private static final Logger LOG = LoggerFactory.getLogger(ControlThread.class);
    private static final long CALL_TIMEOUT_SECONDS = 30;

    private final Scheduler scheduler; // null: the caller is the control thread
    private volatile boolean closed;

    private ControlThread(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** A control thread of its own, a daemon named {@code threadName}, on the system clock. */
    static ControlThread daemon(String threadName) {
        return new ControlThread(Scheduler.daemon(threadName));
    }

    /** Control work runs on whichever thread hands it over, at once. */
    static ControlThread caller() {
        return new ControlThread(null);
    }

    /** True on the thread that owns control state (for {@link #caller}: every thread). */
    boolean isCurrent() {
        return scheduler == null || scheduler.onSchedulerThread();
    }

    /** Runs {@code task} on the control thread every {@code periodMs}, a period after each run ends. */
    void repeat(long periodMs, Runnable task) {
        if (scheduler == null) {
            throw new IllegalStateException("a caller-run engine has no clock of its own: call its tick by hand");
        }
        scheduler.scheduleWithFixedDelay(task, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }

    /** Hands {@code work} over without waiting: inline when already on the control thread, queued otherwise. */
    void execute(Runnable work) {
        if (isCurrent()) {
            work.run();
            return;
        }
        if (closed) {
            LOG.debug("engine closed; control task dropped");
            return;
        }
        scheduler.execute(() -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                LOG.error("control task failed", e);
            }
        });
    }

    /** Runs {@code work} on the control thread and waits for its result, rethrowing what it throws. */
    <T> T call(Supplier<T> work) {
        if (isCurrent()) {
            return work.get();
        }
        if (closed) {
            throw new IllegalStateException("engine is closed");
        }
        CompletableFuture<T> f = CompletableFuture.supplyAsync(work, scheduler::execute);
        try {
            return f.get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("control thread did not answer within " + CALL_TIMEOUT_SECONDS + " s", e);
        }
    }

    /** Stops the thread; queued work is dropped. A caller-run control thread has nothing to stop. */
    void close() {
        closed = true;
        if (scheduler != null) {
            scheduler.shutdown();
        }
    }
}
