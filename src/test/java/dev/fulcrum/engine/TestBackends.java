package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.time.Ticker;

/**
 * For tests of the engine's rooms below this package (the strategies): a backend made and its in-flight slots taken
 * and given back as a pool and its leases would, which only this package may do in main code.
 */
public final class TestBackends {
    private TestBackends() {
    }

    /** A backend of pool {@code pool} with no breaker listener, as {@code Pool} makes one. */
    public static Backend backend(String pool, BackendSpec spec, BreakerSpec breaker, Ticker ticker, long decayMs) {
        return new Backend(pool, spec, null, breaker, ticker, decayMs);
    }

    /** Takes one in-flight slot, as a pick's lease does: the breaker's permit, or {@link CircuitBreaker#REFUSED}. */
    public static long tryAcquire(Backend b) {
        return b.tryAcquire();
    }

    /** Gives back a slot taken with {@link #tryAcquire}. */
    public static void releaseSlot(Backend b) {
        b.releaseSlot();
    }

    /** Marks {@code b} as having joined its running pool at {@code nanos}, as the control thread does on an add. */
    public static void joinedAt(Backend b, long nanos) {
        b.joinedAtNanos = nanos;
    }

    /** Gives {@code b} other labels, as a config change does. */
    public static void relabel(Backend b, java.util.Map<String, String> labels) {
        b.relabel(labels);
    }
}
