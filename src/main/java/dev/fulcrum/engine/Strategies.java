package dev.fulcrum.engine;

/**
 * Builds a strategy by its CONTRACT 2.2 name. Candidate weights arrive scaled by {@link #WEIGHT_SCALE}
 * (effective weight in hundredths) so slow start can ramp a weight-1 backend smoothly; the ratios, and so
 * every weighted sequence, are the same as with the configured weights.
 */
public final class Strategies {
    public static final int WEIGHT_SCALE = 100;

    private Strategies() {
    }

    public static Strategy create(StrategySpec spec, Candidates candidates, Strategy previous, StrategyEnv env) {
        return switch (spec.type()) {
            case StrategySpec.ROUND_ROBIN -> new RoundRobin(candidates);
            default -> throw new EngineException(400, "strategy.type: unknown strategy (got: " + spec.type() + ")");
        };
    }
}
