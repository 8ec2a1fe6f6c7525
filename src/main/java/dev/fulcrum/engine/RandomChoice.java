package dev.fulcrum.engine;

/**
 * {@code random}: every candidate equally likely, weights ignored. An ineligible draw is not retried blindly;
 * the pick falls back to a uniform draw among the eligible ones, so the distribution stays uniform over
 * whoever can take the request.
 */
final class RandomChoice implements Strategy {
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
        Backend b = c.get(random.nextInt(n));
        return eligible.test(b) ? b : Picking.uniformAmongEligible(c, eligible, random);
    }
}
