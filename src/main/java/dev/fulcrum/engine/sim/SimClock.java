package dev.fulcrum.engine.sim;

import dev.fulcrum.engine.Ticker;

/**
 * The simulated clock: a {@link Ticker} that moves only when the simulator sets it, so an engine driven by it
 * measures simulated latencies (EWMA, breaker slow calls, stats) and the same trace always gives the same
 * result. Starts at an arbitrary non-zero reading, like {@link System#nanoTime()}; the wall clock moves with
 * it from a fixed epoch.
 */
public final class SimClock implements Ticker {
    /** The simulated wall time at time zero: 2024-01-01T00:00:00Z (a fixed value keeps runs reproducible). */
    public static final long WALL_EPOCH_MILLIS = 1_704_067_200_000L;
    static final long ORIGIN = 1_000_000_000L;

    private volatile long nanos = ORIGIN;

    /** Nanoseconds since the simulation started. */
    public long now() {
        return nanos - ORIGIN;
    }

    /** Moves the clock to {@code t} nanoseconds after the start; never backwards. */
    public void moveTo(long t) {
        long target = ORIGIN + t;
        if (target < nanos) {
            throw new IllegalArgumentException("t: the simulated clock never goes back (got: " + t + ", now: "
                    + now() + ")");
        }
        nanos = target;
    }

    @Override
    public long nanos() {
        return nanos;
    }

    @Override
    public long wallMillis() {
        return WALL_EPOCH_MILLIS + now() / 1_000_000L;
    }
}
