package dev.fulcrum.proxy;

import dev.fulcrum.time.SystemClock;
import java.util.concurrent.TimeUnit;
import org.xnio.XnioIoThread;

/**
 * The read deadlines of the exchanges one I/O thread is waiting on, owned by that thread (nothing here is
 * touched from anywhere else). Every deadline is the same {@code readMs} after it was set, so appending keeps
 * the list in deadline order (a caller's clock reading from a few microseconds before it arms delays nothing more):
 * arming and disarming are O(1) link operations with no allocation, and one XNIO timer for the earliest deadline
 * serves them all. A per-request XNIO timer instead costs a synchronized
 * sorted-set insert and removal on every request.
 *
 * <p>An exchange is linked through its own {@code prev/next} fields and unlinked the moment its answer starts,
 * so nothing is kept after it stops waiting.
 */
final class ReadDeadlines {
    /** Implemented by what waits: the timeout callback and the links, kept on the waiter itself. */
    abstract static class Waiter {
        private Waiter prev;
        private Waiter next;
        private long deadline;
        private boolean armed;

        boolean armed() {
            return armed;
        }

        /** The deadline passed; already unlinked. Runs on the owning I/O thread. */
        abstract void deadlinePassed();
    }

    private final XnioIoThread thread;
    private final long readNanos;
    private Waiter head;
    private Waiter tail;
    private boolean timerSet;

    ReadDeadlines(XnioIoThread thread, long readMs) {
        this.thread = thread;
        this.readNanos = TimeUnit.MILLISECONDS.toNanos(readMs);
    }

    /** How long a waiter may wait: the proxy's {@code readMs}. */
    long readMs() {
        return TimeUnit.NANOSECONDS.toMillis(readNanos);
    }

    void arm(Waiter w) {
        arm(w, SystemClock.nanoTime());
    }

    /**
     * Sets the deadline {@code readMs} after {@code now}, {@link SystemClock#nanoTime()} as the caller just read it.
     */
    void arm(Waiter w, long now) {
        if (w.armed) {
            return;
        }
        w.armed = true;
        w.deadline = now + readNanos;
        w.prev = tail;
        w.next = null;
        if (tail == null) {
            head = w;
        } else {
            tail.next = w;
        }
        tail = w;
        if (!timerSet) {
            schedule(readNanos);
        }
    }

    void disarm(Waiter w) {
        if (!w.armed) {
            return;
        }
        w.armed = false;
        if (w.prev == null) {
            head = w.next;
        } else {
            w.prev.next = w.next;
        }
        if (w.next == null) {
            tail = w.prev;
        } else {
            w.next.prev = w.prev;
        }
        w.prev = null;
        w.next = null;
    }

    /** How many exchanges wait (for tests). */
    int size() {
        int n = 0;
        for (Waiter w = head; w != null; w = w.next) {
            n++;
        }
        return n;
    }

    private void schedule(long inNanos) {
        timerSet = true;
        // rounded up, so the timer never fires just before the deadline it is for
        long ms = Math.max(1, (inNanos + 999_999) / 1_000_000);
        thread.executeAfter(this::expire, ms, TimeUnit.MILLISECONDS);
    }

    private void expire() {
        timerSet = false;
        long now = SystemClock.nanoTime();
        while (head != null && head.deadline - now <= 0) {
            Waiter w = head;
            disarm(w);
            w.deadlinePassed();
        }
        if (head != null && !timerSet) {
            schedule(head.deadline - now);
        }
    }
}
