package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.BreakerSpec;

/**
 * Engine-wide settings that every pool shares (docs/REFERENCE.md §2.1).
 *
 * @param slowStartMs ramp of a backend that comes UP from 10% to 100% of its weight; 0 = off
 * @param outlier     passive outlier detection
 * @param breaker     per-backend circuit breaker
 * @param rise        successful probes in a row that bring a DOWN backend UP
 * @param fall        failed probes in a row that take a backend DOWN
 */
public record EngineSettings(long slowStartMs, OutlierSpec outlier, BreakerSpec breaker, int rise, int fall) {
    public static final EngineSettings DEFAULT = new EngineSettings(0, OutlierSpec.DEFAULT, BreakerSpec.DEFAULT, 2, 3);

    /**
     * @param consecutiveFailures backend failures in a row that eject
     * @param baseEjectionMs      first ejection length; the n-th lasts n times this, capped at 300 s
     * @param maxEjectionPercent  at most this share of a pool ejected at once (at least one backend may be)
     */
    public record OutlierSpec(boolean enabled, int consecutiveFailures, long baseEjectionMs, int maxEjectionPercent) {
        public static final OutlierSpec DEFAULT = new OutlierSpec(true, 5, 30_000, 50);
        public static final OutlierSpec DISABLED = new OutlierSpec(false, 5, 30_000, 50);
    }

    public EngineSettings withBreaker(BreakerSpec b) {
        return new EngineSettings(slowStartMs, outlier, b, rise, fall);
    }

    public EngineSettings withOutlier(OutlierSpec o) {
        return new EngineSettings(slowStartMs, o, breaker, rise, fall);
    }

    public EngineSettings withSlowStartMs(long ms) {
        return new EngineSettings(ms, outlier, breaker, rise, fall);
    }
}
