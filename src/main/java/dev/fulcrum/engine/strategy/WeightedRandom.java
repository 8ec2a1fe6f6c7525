package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import java.util.List;

/**
 * {@code weighted-random}: candidate i with probability {@code w[i] / sum(w)}. Weights 3,1 send about 75% to
 * the first. A draw is a binary search over prefix sums (0,3,4 for 3,1: r in [0,3) is the first, r = 3 the
 * second), or a plain uniform index when all weights are equal. When the drawn candidate is ineligible the
 * draw is repeated over the eligible ones only, so their relative weights still hold.
 */
final class WeightedRandom implements Strategy {
    static final StrategyDescriptor DESCRIPTOR = new BuiltIn(StrategySpec.WEIGHTED_RANDOM, "weighted random",
            "A random backend, each chosen in proportion to its weight.",
            List.of(), true, false, (spec, c, prev, env) -> new WeightedRandom(c, env));

    private final Candidates c;
    private final RandomSource random;
    private final long[] starts;
    private final boolean uniform;

    WeightedRandom(Candidates candidates, StrategyEnv env) {
        this.c = candidates;
        this.random = env.random();
        this.starts = Picking.starts(candidates.weights());
        this.uniform = Picking.allEqual(candidates.weights());
    }

    @Override
    public String type() {
        return StrategySpec.WEIGHTED_RANDOM;
    }

    @Override
    public Backend pick(RequestContext request, Eligibility eligible) {
        int n = c.size();
        if (n == 0) {
            return null;
        }
        // the draws go to the request's decision when it is recorded (proxy.logDecisions); else one null check
        RandomSource rnd = RecordedDraws.of(random, request.decisions());
        int i = uniform ? rnd.nextInt(n) : Picking.segment(starts, rnd.nextLong(starts[n]));
        Backend b = c.get(i);
        return eligible.test(b) ? b : Picking.weightedAmongEligible(c, eligible, rnd);
    }
}
