package dev.fulcrum.engine.routing;

import dev.fulcrum.engine.Backend;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A traffic class's ceiling ({@code routes[i].maxInFlightPerBackend}): the route never holds more than {@code max}
 * requests in flight on one backend. A backend at the ceiling is skipped by the pick; when every backend is, the
 * request is shed (503 with {@code Retry-After}), which is no failure of any backend. Counted per backend with an
 * atomic each, entered before the backend's own slot is taken and left when the lease goes back, so two threads cannot
 * both take the last place.
 */
public final class ClassCeiling {
    private final int max;
    private final ConcurrentHashMap<Backend, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    private final LongAdder shed = new LongAdder();

    public ClassCeiling(int max) {
        this.max = max;
    }

    public int max() {
        return max;
    }

    /** Whether {@code b} is below the ceiling now (a hint for the pick; {@link #enter} decides). */
    public boolean admits(Backend b) {
        AtomicInteger n = inFlight.get(b);
        return n == null || n.get() < max;
    }

    /** Takes a place on {@code b}, or returns false when it is at the ceiling. */
    public boolean enter(Backend b) {
        AtomicInteger n = inFlight.get(b);
        if (n == null) {
            n = inFlight.computeIfAbsent(b, k -> new AtomicInteger());
        }
        if (n.incrementAndGet() > max) {
            n.decrementAndGet();
            return false;
        }
        return true;
    }

    /** Gives back a place {@link #enter} took. */
    public void leave(Backend b) {
        AtomicInteger n = inFlight.get(b);
        if (n != null) {
            n.decrementAndGet();
        }
    }

    /** The route's requests in flight on {@code b}. */
    public int inFlight(Backend b) {
        AtomicInteger n = inFlight.get(b);
        return n == null ? 0 : n.get();
    }

    public void shed() {
        shed.increment();
    }

    /** Requests shed so far because every backend was at the ceiling. */
    public long shedCount() {
        return shed.sum();
    }
}
