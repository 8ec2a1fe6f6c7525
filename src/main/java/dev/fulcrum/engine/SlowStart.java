package dev.fulcrum.engine;

import dev.fulcrum.engine.strategy.Strategies;
import java.util.concurrent.TimeUnit;

/**
 * Slow start: a backend that joins or comes back takes a growing share of the traffic instead of a full one
 * at once, so a cold cache or JIT is not flooded (docs/REFERENCE.md §2.1, {@code slowStartMs}). Its effective
 * weight ramps linearly from 10% to 100% of its weight over {@code slowStartMs}, from the moment it came up
 * ({@link Backend#upSinceNanos}).
 *
 * <p>Example: weight 10, {@code slowStartMs} 10 s. Effective weight 1.0 at once, 3.25 after 2.5 s, 5.5 after
 * 5 s, 10 from 10 s on. Strategies see it scaled by {@link Strategies#WEIGHT_SCALE} (100, 325, 550, 1000), and
 * while any backend ramps every control tick rebuilds the pool's snapshot, so the weight moves in 100 ms steps.
 *
 * <p>What starts a ramp: an add with slow start asked for, a weight raised from 0, a DOWN backend back UP
 * ({@link ProbeHysteresis}), an ejection over ({@link OutlierEjection}), an enable that changed anything. A
 * backend configured at start does not ramp.
 *
 * <p>Threading: stateless; the field it reads and writes, {@link Backend#upSinceNanos}, is the control
 * thread's. Request threads see effective weights only inside a published {@link PoolSnapshot}.
 */
final class SlowStart {
    private SlowStart() {
    }

    /** Starts {@code b}'s ramp at {@code now}; does nothing when slow start is off ({@code slowStartMs} 0). */
    static void begin(Backend b, long slowStartMs, long now) {
        if (slowStartMs > 0) {
            b.upSinceNanos = now;
        }
    }

    /** {@code b}'s weight with the ramp applied at {@code now}: its full weight once the ramp is over. */
    static double effectiveWeight(Backend b, long slowStartMs, long now) {
        long ramp = TimeUnit.MILLISECONDS.toNanos(slowStartMs);
        if (ramp <= 0 || b.upSinceNanos == Long.MIN_VALUE || now - b.upSinceNanos >= ramp) {
            return b.weight;
        }
        double t = Math.max(0, (double) (now - b.upSinceNanos) / ramp);
        return b.weight * (0.1 + 0.9 * t);
    }
}
