package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code smooth-weighted-round-robin}: nginx's smooth weighted round robin. Every pick adds each eligible
 * candidate's weight to its current weight, takes the candidate with the highest current weight (the first
 * in id order on a tie) and subtracts the total of the added weights from the winner. Heavy backends are
 * interleaved with light ones instead of served in bursts.
 *
 * <p>Worked example, weights a=5, b=1, c=1 (total 7):
 * <pre>
 *   current before   +weights      chosen   current after
 *   ( 0,  0,  0)    ( 5,  1,  1)     a      (-2,  1,  1)
 *   (-2,  1,  1)    ( 3,  2,  2)     a      (-4,  2,  2)
 *   (-4,  2,  2)    ( 1,  3,  3)     b      ( 1, -4,  3)
 *   ( 1, -4,  3)    ( 6, -3,  4)     a      (-1, -3,  4)
 *   (-1, -3,  4)    ( 4, -2,  5)     c      ( 4, -2, -2)
 *   ( 4, -2, -2)    ( 9, -1, -1)     a      ( 2, -1, -1)
 *   ( 2, -1, -1)    ( 7,  0,  0)     a      ( 0,  0,  0)   then the cycle repeats
 * </pre>
 *
 * <p>Built from the previous strategy, each backend that is still a candidate keeps its current weight
 * (new ones start at 0), so a reweight, a health change or a breaker transition continues the sequence
 * where it was instead of restarting the cycle and sending a burst to the heaviest backend.
 *
 * <p>The current weights change on every pick, so a pick holds this strategy's lock for one pass over the
 * candidates; that is nginx's cost too and is short.
 */
final class SmoothWeightedRoundRobin implements Strategy {
    static final StrategyDescriptor DESCRIPTOR = new BuiltIn(StrategySpec.SMOOTH_WRR, "smooth weighted round robin",
            "nginx's weighted round robin: weights 5,1,1 give a a b a c a a, "
                    + "spreading the heavy backend's turns instead of bunching them.",
            List.of(), true, false, (spec, c, prev, env) -> new SmoothWeightedRoundRobin(c, prev));

    private final Candidates c;
    private final int[] weights;
    private final long[] current;

    SmoothWeightedRoundRobin(Candidates candidates, Strategy previous) {
        this.c = candidates;
        this.weights = candidates.weights().clone();
        this.current = new long[candidates.size()];
        if (previous instanceof SmoothWeightedRoundRobin p) {
            Map<String, Long> kept = p.currentWeights();
            for (int i = 0; i < current.length; i++) {
                current[i] = kept.getOrDefault(candidates.get(i).id(), 0L);
            }
        }
    }

    @Override
    public String type() {
        return StrategySpec.SMOOTH_WRR;
    }

    @Override
    public Backend pick(RequestContext request, Eligibility eligible) {
        int n = c.size();
        if (n == 0) {
            return null;
        }
        synchronized (this) {
            int best = -1;
            long total = 0;
            for (int i = 0; i < n; i++) {
                if (!eligible.test(c.get(i))) {
                    continue; // as in nginx, an unavailable peer neither gains nor loses current weight
                }
                current[i] += weights[i];
                total += weights[i];
                if (best < 0 || current[i] > current[best]) {
                    best = i;
                }
            }
            if (best < 0) {
                return null;
            }
            current[best] -= total;
            return c.get(best);
        }
    }

    /** Current weight by backend id (a copy), for the next strategy and for tests. */
    synchronized Map<String, Long> currentWeights() {
        Map<String, Long> m = new HashMap<>();
        for (int i = 0; i < current.length; i++) {
            m.put(c.get(i).id(), current[i]);
        }
        return m;
    }

    /** The next turn's backend, asked of a twin that starts from these current weights, which stay as they are. */
    @Override
    public Explanation explain(RequestContext request, RandomSource random) {
        return Explanation.of(new SmoothWeightedRoundRobin(c, this).pick(request, Eligibility.ADMITTING));
    }
}
