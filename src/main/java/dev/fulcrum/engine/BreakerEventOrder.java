package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.CircuitBreaker;
import java.util.TreeMap;

/**
 * Puts one backend's breaker transitions back in the order its breaker made them before they are told.
 * A breaker moves on whichever request thread records the deciding call and numbers each transition
 * (1, 2, 3 ...); the threads then hand them to the control thread in whatever order they get there. A
 * transition that arrives before its predecessor waits for it; one already told is not told again; a
 * sequence of 0 means unknown and is told at once.
 *
 * <p>Example: transitions 1 (CLOSED to OPEN), 2 (OPEN to HALF_OPEN) and 3 (HALF_OPEN to CLOSED) arrive as
 * 3, 2, 1, 1. Nothing is told for 3 and 2; 1 tells CLOSED to OPEN, then the waiting 2 and 3 follow in that
 * order; the second 1 is dropped. Should a predecessor never come, the waiting ones are told anyway, in
 * order from the oldest, once {@value #MAX_WAITING} have piled up.
 *
 * <p>Threading: control thread only. A fresh breaker (new settings) numbers from 1 again, so
 * {@link Backend#replaceBreaker} {@link #reset resets} this along with it.
 */
final class BreakerEventOrder {
    /** How many transitions may wait for an earlier one before the gap is given up on. A guess: far more than
     * the threads that can race on one backend's breaker at once. */
    static final int MAX_WAITING = 16;

    /** Tells one transition (subscribers' view of it). */
    @FunctionalInterface
    interface Teller {
        void tell(CircuitBreaker.State from, CircuitBreaker.State to);
    }

    private long told; // sequence number of the last transition told
    private TreeMap<Long, CircuitBreaker.State[]> waiting; // arrived early; created on first need

    /** One transition arrived: tells it, and any that waited for it, or holds it back. */
    void arrived(long sequence, CircuitBreaker.State from, CircuitBreaker.State to, Teller teller) {
        if (sequence > 0 && sequence <= told) {
            return; // told already
        }
        if (sequence > told + 1) {
            if (waiting == null) {
                waiting = new TreeMap<>();
            }
            waiting.put(sequence, new CircuitBreaker.State[] {from, to});
            if (waiting.size() < MAX_WAITING) {
                return;
            }
            told = waiting.firstKey() - 1; // give up on the gap
        } else {
            teller.tell(from, to);
            told = Math.max(told, sequence);
        }
        while (waiting != null && !waiting.isEmpty() && waiting.firstKey() == told + 1) {
            CircuitBreaker.State[] t = waiting.pollFirstEntry().getValue();
            teller.tell(t[0], t[1]);
            told++;
        }
    }

    /** Forgets everything: the next breaker's first transition is number 1. */
    void reset() {
        told = 0;
        waiting = null;
    }
}
