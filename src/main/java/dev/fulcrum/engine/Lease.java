package dev.fulcrum.engine;

import dev.fulcrum.engine.routing.ClassCeiling;
import dev.fulcrum.engine.breaker.CircuitBreaker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * One picked backend with its in-flight slot held. Released exactly once, whatever happens (success,
 * failure, client abort, timeout): a second release is ignored, so no completion path can leak or
 * double-count an in-flight request.
 */
public final class Lease {
    private static final VarHandle RELEASED;

    static {
        try {
            RELEASED = MethodHandles.lookup().findVarHandle(Lease.class, "released", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Pool pool;
    private final Backend backend;
    private final long startNanos;
    private final CircuitBreaker breaker;
    private final long breakerTicket;
    /** The route's class ceiling this lease holds a place under, given back with the slot; null for none. */
    private final ClassCeiling ceiling;
    @SuppressWarnings("unused")
    private volatile boolean released;

    Lease(Pool pool, Backend backend, long startNanos, CircuitBreaker breaker, long breakerTicket) {
        this(pool, backend, startNanos, breaker, breakerTicket, null);
    }

    Lease(Pool pool, Backend backend, long startNanos, CircuitBreaker breaker, long breakerTicket,
          ClassCeiling ceiling) {
        this.ceiling = ceiling;
        this.pool = pool;
        this.backend = backend;
        this.startNanos = startNanos;
        this.breaker = breaker;
        this.breakerTicket = breakerTicket;
    }

    public Backend backend() {
        return backend;
    }

    public Pool pool() {
        return pool;
    }

    public long startNanos() {
        return startNanos;
    }

    /** The breaker that admitted this attempt (the backend's may have been replaced since). */
    CircuitBreaker breaker() {
        return breaker;
    }

    /** The breaker state this attempt was admitted in (see {@link CircuitBreaker#acquire()}). */
    long breakerTicket() {
        return breakerTicket;
    }

    public boolean isReleased() {
        return released;
    }

    /** Ends the attempt. Only the first call counts. */
    public void release(Outcome outcome) {
        release(outcome, pool.nanos());
    }

    /**
     * {@link #release(Outcome)} at {@code nowNanos}, a reading of the engine's ticker the caller took anyway (the proxy
     * reads the clock once as a request ends, for everything that needs the time then).
     */
    public void release(Outcome outcome, long nowNanos) {
        Objects.requireNonNull(outcome, "outcome"); // before the CAS: a bad call must not eat the release
        if (RELEASED.compareAndSet(this, false, true)) {
            if (ceiling != null) {
                ceiling.leave(backend);
            }
            pool.release(this, outcome, nowNanos);
        }
    }
}
