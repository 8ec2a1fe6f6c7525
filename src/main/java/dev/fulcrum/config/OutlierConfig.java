package dev.fulcrum.config;

import dev.fulcrum.engine.EngineSettings;

/** Passive outlier detection ({@code outlierDetection}, docs/REFERENCE.md §2.1); see {@link EngineSettings.OutlierSpec}. */
public record OutlierConfig(boolean enabled, int consecutiveFailures, long baseEjectionMs, int maxEjectionPercent) {
    public static final OutlierConfig DEFAULT = new OutlierConfig(true, 5, 30_000, 50);

    public EngineSettings.OutlierSpec toSpec() {
        return new EngineSettings.OutlierSpec(enabled, consecutiveFailures, baseEjectionMs, maxEjectionPercent);
    }
}
