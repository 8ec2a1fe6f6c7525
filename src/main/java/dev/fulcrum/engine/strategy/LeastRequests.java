package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import java.util.List;

/**
 * {@code least-requests}: the eligible candidate with the fewest in-flight requests per unit of weight.
 * Loads are compared by cross-multiplying ({@code inFlight[a] * w[b] < inFlight[b] * w[a]}) so no division
 * or rounding is involved. Example: a (weight 2, 3 in flight, 1.5 per unit) beats b (weight 1, 2 in flight).
 *
 * <p>Ties are common (an idle pool is all zeros), and always taking the first in id order would send every
 * quiet moment's requests to one backend. Tied candidates are chosen in proportion to their weights by weighted
 * reservoir sampling: a tie of weight w replaces the current choice with probability w / (the tied weight seen
 * so far), as nginx's {@code least_conn} breaks ties by weighted round robin: were each tie equally likely,
 * weights 3:1 would split 50/50 at low concurrency, and slow start would do nothing. A full pass over the
 * candidates per pick: O(n).
 */
final class LeastRequests implements Strategy {
    static final StrategyDescriptor DESCRIPTOR = new BuiltIn(StrategySpec.LEAST_REQUESTS, "least requests",
            "The backend with the fewest in-flight requests per unit of weight.",
            List.of(), true, false, (spec, c, prev, env) -> new LeastRequests(c, env));

    private final Candidates c;
    private final RandomSource random;

    LeastRequests(Candidates candidates, StrategyEnv env) {
        this.c = candidates;
        this.random = env.random();
    }

    @Override
    public String type() {
        return StrategySpec.LEAST_REQUESTS;
    }

    @Override
    public Backend pick(RequestContext request, Eligibility eligible) {
        return leastLoaded(c, eligible, random);
    }

    /** The least loaded eligible candidate per unit of weight, ties broken at random in proportion to weight. */
    static Backend leastLoaded(Candidates c, Eligibility eligible, RandomSource random) {
        int n = c.size();
        Backend best = null;
        long bestLoad = 0;
        long bestWeight = 1;
        long tiedWeight = 0;
        for (int i = 0; i < n; i++) {
            Backend b = c.get(i);
            if (!eligible.test(b)) {
                continue;
            }
            long load = b.inFlight();
            long w = c.weight(i);
            if (best == null) {
                best = b;
                bestLoad = load;
                bestWeight = w;
                tiedWeight = w;
                continue;
            }
            long cmp = load * bestWeight - bestLoad * w;
            if (cmp < 0) {
                best = b;
                bestLoad = load;
                bestWeight = w;
                tiedWeight = w;
            } else if (cmp == 0 && random.nextLong(tiedWeight += w) < w) {
                best = b;
                bestLoad = load;
                bestWeight = w;
            }
        }
        return best;
    }
}
