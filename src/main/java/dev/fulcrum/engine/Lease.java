package dev.fulcrum.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

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
    private final long breakerTicket;
    @SuppressWarnings("unused")
    private volatile boolean released;

    Lease(Pool pool, Backend backend, long startNanos, long breakerTicket) {
        this.pool = pool;
        this.backend = backend;
        this.startNanos = startNanos;
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

    /** The breaker state this attempt was admitted in (see {@link CircuitBreaker#acquire()}). */
    long breakerTicket() {
        return breakerTicket;
    }

    public boolean isReleased() {
        return released;
    }

    /** Ends the attempt. Only the first call counts. */
    public void release(Outcome outcome) {
        if (RELEASED.compareAndSet(this, false, true)) {
            pool.release(this, outcome);
        }
    }
}
