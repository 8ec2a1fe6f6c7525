package dev.fulcrum.admin.haproxy;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.time.Cancellable;
import dev.fulcrum.time.Scheduler;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fleet's event stream: polls the fleet every {@link #POLL_MS} and hands each listener the
 * {@link FleetEvents#diff} of the last two polls. It starts with the first listener.
 *
 * <p>Time and threads: the {@link Scheduler} only says when; each poll runs on the {@code io} executor, because it
 * waits on sockets (up to an instance's timeout) and a scheduler may be shared. One poll at a time: a tick that
 * finds the previous poll still waiting for an instance is skipped. Listeners are called on the polling thread,
 * one event after the other. A test gives a {@link dev.fulcrum.time.ManualClock}: advancing it by
 * {@link #POLL_MS} starts a poll, whose real I/O the test then waits for.
 *
 * <p>A change that is undone between two polls is not seen, and an event's {@code at} is the poll's time (the
 * scheduler's wall clock), not the change's.
 */
final class FleetPoller {
    private static final Logger log = LoggerFactory.getLogger(FleetPoller.class);
    /** Poll period: fast enough for a window, negligible load on HAProxy. */
    static final long POLL_MS = 1000;
    /** How long the first listener waits for the first poll (a guess: two instance timeouts). */
    private static final long BASELINE_WAIT_S = 10;

    private final Scheduler scheduler;
    private final Executor io;
    private final Supplier<EngineState> poll;
    private final String source;
    private final List<Consumer<EngineEvent>> listeners = new CopyOnWriteArrayList<>();
    /** Set while a poll runs; it is the only writer of {@link #last}. */
    private final AtomicBoolean polling = new AtomicBoolean();
    private final Object lock = new Object();
    private Cancellable ticks; // guarded by lock
    private boolean closed; // guarded by lock
    private volatile EngineState last;

    /**
     * @param poll   one merged poll of the fleet (blocking)
     * @param source the fleet's attach URI, for the log
     */
    FleetPoller(Scheduler scheduler, Executor io, Supplier<EngineState> poll, String source) {
        this.scheduler = scheduler;
        this.io = io;
        this.poll = poll;
        this.source = source;
    }

    /**
     * Adds a listener; the first one starts polling. Events are differences between polls, so the first poll is
     * taken before this returns: a change made right after subscribing is reported rather than absorbed into it.
     */
    void subscribe(Consumer<EngineEvent> listener) {
        listeners.add(listener);
        CompletableFuture<Void> baseline;
        synchronized (lock) {
            if (ticks != null || closed) {
                return;
            }
            polling.set(true);
            baseline = CompletableFuture.runAsync(this::pollOnce, io);
            ticks = scheduler.scheduleWithFixedDelay(this::tick, POLL_MS, POLL_MS, TimeUnit.MILLISECONDS);
        }
        try {
            baseline.get(BASELINE_WAIT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // the periodic polls take the baseline instead
        }
    }

    private void tick() {
        if (!polling.compareAndSet(false, true)) {
            return;
        }
        try {
            io.execute(this::pollOnce);
        } catch (RejectedExecutionException closing) {
            polling.set(false);
        }
    }

    private void pollOnce() {
        try {
            EngineState now = poll.get();
            EngineState before = last;
            last = now;
            if (before == null) {
                return;
            }
            for (EngineEvent e : FleetEvents.diff(before, now, scheduler.ticker().wallMillis())) {
                for (Consumer<EngineEvent> l : listeners) {
                    try {
                        l.accept(e);
                    } catch (RuntimeException ex) {
                        log.warn("event listener failed on {}", e, ex);
                    }
                }
            }
        } catch (RuntimeException e) {
            log.warn("polling the HAProxy fleet {} failed: {}", source, e.getMessage());
        } finally {
            polling.set(false);
        }
    }

    /** Stops polling and forgets the listeners; a poll under way finishes without telling anyone. */
    void close() {
        Cancellable t;
        synchronized (lock) {
            closed = true;
            t = ticks;
            ticks = null;
        }
        if (t != null) {
            t.cancel();
        }
        listeners.clear();
    }
}
