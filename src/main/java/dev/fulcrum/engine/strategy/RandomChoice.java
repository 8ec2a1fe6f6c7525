package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import java.util.List;

/**
 * {@code random}: every candidate equally likely, weights ignored. An ineligible draw is not retried blindly;
 * the pick falls back to a uniform draw among the eligible ones, so the distribution stays uniform over
 * whoever can take the request.
 */
final class RandomChoice implements Strategy {
    static final StrategyDescriptor DESCRIPTOR = new BuiltIn(StrategySpec.RANDOM, "random",
            "A uniformly random backend for every request, ignoring weights.",
            List.of(), false, false, (spec, c, prev, env) -> new RandomChoice(c, env));

    private final Candidates c;
    private final RandomSource random;

    RandomChoice(Candidates candidates, StrategyEnv env) {
        this.c = candidates;
        this.random = env.random();
    }

    @Override
    public String type() {
        return StrategySpec.RANDOM;
    }

    @Override
    public Backend pick(RequestContext request, Eligibility eligible) {
        int n = c.size();
        if (n == 0) {
            return null;
        }
        // the draws go to the request's decision when it is recorded (proxy.logDecisions); else one null check
        RandomSource rnd = RecordedDraws.of(random, request.decisions());
        Backend b = c.get(rnd.nextInt(n));
        return eligible.test(b) ? b : Picking.uniformAmongEligible(c, eligible, rnd);
    }
}
