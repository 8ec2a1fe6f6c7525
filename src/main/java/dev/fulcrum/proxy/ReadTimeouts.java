package dev.fulcrum.proxy;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.xnio.XnioIoThread;

/**
 * Read timeouts without a timer per request. Every request on an I/O thread waits the same {@code readMs},
 * so deadlines arrive in the order they were set: a FIFO queue per thread holds them, and one sweep every
 * {@value #SWEEP_MS} ms fires the expired ones whose waiter is still waiting. Arming and disarming are O(1)
 * field writes; XNIO's own timers (a sorted set per thread) cost a tree insertion and removal per request.
 * A timeout fires up to one sweep late, which nobody waiting 30 s notices.
 *
 * <p>Confined to its I/O thread: no locks.
 */
final class ReadTimeouts {
    static final long SWEEP_MS = 50;

    /** Something that can time out; {@code generation} tells a stale entry from the current wait. */
    interface Waiter {
        void timedOut(int generation);
    }

    private record Entry(long deadlineNanos, Waiter waiter, int generation) {
    }

    private final XnioIoThread thread;
    private final long timeoutNanos;
    private final ArrayDeque<Entry> queue = new ArrayDeque<>();
    private boolean sweeping;

    ReadTimeouts(XnioIoThread thread, long timeoutMs) {
        this.thread = thread;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    }

    /** Arms a timeout for {@code waiter}; it stays armed until the waiter's generation moves on. */
    void arm(Waiter waiter, int generation) {
        queue.addLast(new Entry(System.nanoTime() + timeoutNanos, waiter, generation));
        if (!sweeping) {
            sweeping = true;
            thread.executeAfter(this::sweep, SWEEP_MS, TimeUnit.MILLISECONDS);
        }
    }

    private void sweep() {
        long now = System.nanoTime();
        Entry e;
        while ((e = queue.peekFirst()) != null && now - e.deadlineNanos() >= 0) {
            queue.pollFirst();
            e.waiter().timedOut(e.generation());
        }
        if (queue.isEmpty()) {
            sweeping = false;
        } else {
            thread.executeAfter(this::sweep, SWEEP_MS, TimeUnit.MILLISECONDS);
        }
    }

    int pending() {
        return queue.size();
    }
}
