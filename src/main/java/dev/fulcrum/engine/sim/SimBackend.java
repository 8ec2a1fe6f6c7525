package dev.fulcrum.engine.sim;

import dev.fulcrum.rules.Limits;
import dev.fulcrum.rules.Violation;

/**
 * A backend in the side-by-side simulator: its weight and its simulated latency. A request picked for it
 * takes {@code baseLatencyMs + U(0, jitterMs) + queuePenaltyMs x (its in-flight count when picked)}; the
 * jitter is drawn from the request's index and the backend's id, so the same request costs the same on the
 * same backend under every strategy (only the choice of backend differs).
 *
 * @param queuePenaltyMs extra latency per request already in flight on it (a crude queue; 0 = none)
 */
public record SimBackend(String id, int weight, double baseLatencyMs, double jitterMs, double queuePenaltyMs) {
    public SimBackend {
        if (Limits.id(id) != null) {
            throw new IllegalArgumentException(new Violation("id", Limits.id(id), id).describe());
        }
        if (Limits.weight(weight) != null) {
            throw new IllegalArgumentException(new Violation("weight", Limits.weight(weight), weight).describe());
        }
        if (!(baseLatencyMs >= 0 && baseLatencyMs <= 3_600_000)) {
            throw new IllegalArgumentException("baseLatencyMs: must be between 0 and 3600000 (got: " + baseLatencyMs + ")");
        }
        if (!(jitterMs >= 0 && jitterMs <= 3_600_000)) {
            throw new IllegalArgumentException("jitterMs: must be between 0 and 3600000 (got: " + jitterMs + ")");
        }
        if (!(queuePenaltyMs >= 0 && queuePenaltyMs <= 3_600_000)) {
            throw new IllegalArgumentException("queuePenaltyMs: must be between 0 and 3600000 (got: " + queuePenaltyMs + ")");
        }
    }

    /** A backend with {@code baseLatencyMs} and no jitter or queue penalty. */
    public static SimBackend of(String id, int weight, double baseLatencyMs) {
        return new SimBackend(id, weight, baseLatencyMs, 0, 0);
    }

    public SimBackend withJitterMs(double ms) {
        return new SimBackend(id, weight, baseLatencyMs, ms, queuePenaltyMs);
    }

    public SimBackend withQueuePenaltyMs(double ms) {
        return new SimBackend(id, weight, baseLatencyMs, jitterMs, ms);
    }

    /** The slow-backend option: this backend with its base latency and jitter multiplied by {@code factor}. */
    public SimBackend slowedBy(double factor) {
        return new SimBackend(id, weight, baseLatencyMs * factor, jitterMs * factor, queuePenaltyMs);
    }
}
