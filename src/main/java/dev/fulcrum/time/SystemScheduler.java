package dev.fulcrum.time;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Scheduler#daemon}: a one-thread {@link ScheduledThreadPoolExecutor} on the system clock. Tasks offered
 * after {@link #shutdown()} are dropped, not refused: a probe completing during shutdown must not fail because
 * the thread is gone.
 */
final class SystemScheduler implements Scheduler {
    private static final Logger LOG = LoggerFactory.getLogger(SystemScheduler.class);
    private static final Cancellable NOTHING = () -> { };

    private final ScheduledThreadPoolExecutor executor;
    private volatile Thread thread;

    SystemScheduler(String threadName) {
        executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            thread = t;
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        executor.prestartCoreThread();
    }

    @Override
    public Ticker ticker() {
        return Ticker.system();
    }

    @Override
    public Cancellable schedule(Runnable task, long delay, TimeUnit unit) {
        try {
            return handle(executor.schedule(guarded(task), delay, unit));
        } catch (RejectedExecutionException shutDown) {
            return NOTHING;
        }
    }

    @Override
    public Cancellable scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit) {
        try {
            return handle(executor.scheduleAtFixedRate(guarded(task), initialDelay, period, unit));
        } catch (RejectedExecutionException shutDown) {
            return NOTHING;
        }
    }

    @Override
    public Cancellable scheduleWithFixedDelay(Runnable task, long initialDelay, long delay, TimeUnit unit) {
        try {
            return handle(executor.scheduleWithFixedDelay(guarded(task), initialDelay, delay, unit));
        } catch (RejectedExecutionException shutDown) {
            return NOTHING;
        }
    }

    @Override
    public void execute(Runnable task) {
        try {
            executor.execute(guarded(task));
        } catch (RejectedExecutionException shutDown) {
            LOG.debug("scheduler shut down; task dropped");
        }
    }

    @Override
    public boolean onSchedulerThread() {
        return Thread.currentThread() == thread;
    }

    @Override
    public void shutdown() {
        executor.shutdownNow();
    }

    private static Cancellable handle(ScheduledFuture<?> f) {
        return () -> f.cancel(false);
    }

    private static Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.warn("scheduled task failed on {}: {}", Thread.currentThread().getName(), e.toString(), e);
            }
        };
    }
}
