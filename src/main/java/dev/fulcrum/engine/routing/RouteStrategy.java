package dev.fulcrum.engine.routing;

import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.strategy.Strategy;
import dev.fulcrum.engine.strategy.StrategyEnv;
import dev.fulcrum.engine.strategy.StrategySpec;

/**
 * A route's own strategy over its pool's candidates ({@code routes[i].strategy}: VIP requests to the least loaded,
 * batch by another rule, over the same backends). Built from the candidates of the pool's current snapshot and
 * rebuilt, from its predecessor, when the pool publishes another: the pick path compares one reference per request
 * and builds only after a change. Two threads that see a change at once may both build; either result is right.
 */
public final class RouteStrategy {
    private final StrategySpec spec;
    private volatile Built built;

    private record Built(Candidates basis, Strategy strategy) {
    }

    public RouteStrategy(StrategySpec spec) {
        this.spec = spec;
    }

    public StrategySpec spec() {
        return spec;
    }

    /** The strategy over {@code candidates} (the pool's primaries now). */
    public Strategy over(Candidates candidates, StrategyEnv env) {
        Built b = built;
        if (b == null || b.basis() != candidates) {
            b = new Built(candidates, Strategies.create(spec, candidates, b == null ? null : b.strategy(), env));
            built = b;
        }
        return b.strategy();
    }
}
