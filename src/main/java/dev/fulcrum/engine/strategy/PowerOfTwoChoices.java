package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.rules.Limits;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code power-of-two}: draw {@code choices} (default 2) distinct candidates at random, each draw weighted by
 * effective weight, and send the request to the drawn one with the fewest in-flight requests per unit of
 * weight (Mitzenmacher's "power of two choices"; Envoy's and Finagle's default). Nearly as even as
 * least-requests at O(log n) per pick, and without every balancer herding onto the same idle backend.
 *
 * <p>The draws are without replacement: the second draw skips the first one's segment of the weight line
 * (weights 5,1,1, first draw a: r in [0,2) is drawn over b,c only). So whenever two or more eligible
 * backends are drawn, the strictly most loaded backend of the pool can never be picked. Ineligible draws
 * are ignored; when every draw is ineligible the pick falls back to a full least-requests scan. With
 * {@code choices >= n} every candidate is "drawn", which is exactly that scan.
 */
final class PowerOfTwoChoices implements Strategy {
    static final StrategyDescriptor DESCRIPTOR = new BuiltIn(StrategySpec.POWER_OF_TWO, "power of two choices",
            "Draw N backends at random (by weight) and take the one with the "
                    + "fewest in-flight requests: nearly as good as least-requests, without scanning everyone.",
            List.of(StrategyOption.integer("choices", 2, Limits::choices, "Choices",
                    "random draws per pick", "the best of %s drawn")),
            true, false, (spec, c, prev, env) -> new PowerOfTwoChoices(c, spec.integer("choices"), env));

    private static final ThreadLocal<int[]> DRAWN = ThreadLocal.withInitial(() -> new int[8]);

    private final Candidates c;
    private final RandomSource random;
    private final StrategyEnv env;
    private final int choices;
    private final long[] starts;
    private final boolean uniform;

    PowerOfTwoChoices(Candidates candidates, int choices, StrategyEnv env) {
        this.c = candidates;
        this.random = env.random();
        this.env = env;
        this.choices = choices;
        this.starts = Picking.starts(candidates.weights());
        this.uniform = Picking.allEqual(candidates.weights());
    }

    @Override
    public String type() {
        return StrategySpec.POWER_OF_TWO;
    }

    @Override
    public Backend pick(RequestContext request, Eligibility eligible) {
        int n = c.size();
        if (n == 0) {
            return null;
        }
        // with the request's decision recorded (proxy.logDecisions), every draw and each drawn backend's load go to
        // it: the load is the score, fewer in flight per unit of weight wins; off, this is one null check
        DecisionLog log = request.decisions();
        RandomSource rnd = RecordedDraws.of(random, log);
        if (choices >= n) {
            return scanned(eligible, rnd, log);
        }
        Backend chosen = choices == 2 ? pickOfTwo(eligible, rnd, log) : pickOfMany(eligible, rnd, log);
        return chosen != null ? chosen : scanned(eligible, rnd, log);
    }

    /** The full least-requests scan; every eligible candidate's load goes to the decision, when it is recorded. */
    private Backend scanned(Eligibility eligible, RandomSource rnd, DecisionLog log) {
        if (log != null) {
            for (int i = 0; i < c.size(); i++) {
                if (eligible.test(c.get(i))) {
                    scoreLoad(log, i);
                }
            }
        }
        return LeastRequests.leastLoaded(c, eligible, rnd);
    }

    /** A drawn candidate's load, as the pick compares it: in-flight requests per unit of (configured) weight. */
    private void scoreLoad(DecisionLog log, int i) {
        Backend b = c.get(i);
        log.score(b, (double) b.inFlight() * Strategies.WEIGHT_SCALE / c.weight(i), null);
    }

    private Backend pickOfTwo(Eligibility eligible, RandomSource random, DecisionLog log) {
        int n = c.size();
        int i1;
        int i2;
        if (uniform) {
            i1 = random.nextInt(n);
            i2 = random.nextInt(n - 1);
            if (i2 >= i1) {
                i2++;
            }
        } else {
            long total = starts[n];
            i1 = Picking.segment(starts, random.nextLong(total));
            long w1 = c.weight(i1);
            long r = random.nextLong(total - w1);
            if (r >= starts[i1]) {
                r += w1; // skip the first draw's segment
            }
            i2 = Picking.segment(starts, r);
        }
        Backend a = c.get(i1);
        Backend b = c.get(i2);
        boolean okA = eligible.test(a);
        boolean okB = eligible.test(b);
        if (log != null) {
            scoreLoad(log, i1);
            scoreLoad(log, i2);
        }
        if (okA && okB) {
            // fewer in flight per unit of weight; on a tie the first draw, itself random
            return (long) b.inFlight() * c.weight(i1) < (long) a.inFlight() * c.weight(i2) ? b : a;
        }
        return okA ? a : okB ? b : null;
    }

    private Backend pickOfMany(Eligibility eligible, RandomSource random, DecisionLog log) {
        int n = c.size();
        int[] drawn = DRAWN.get();
        if (drawn.length < choices) {
            drawn = new int[choices];
            DRAWN.set(drawn);
        }
        long excluded = 0; // total weight of the drawn ones
        int count = 0; // drawn[0..count) sorted ascending
        Backend best = null;
        long bestLoad = 0;
        long bestWeight = 1;
        for (int k = 0; k < choices; k++) {
            int idx;
            if (uniform) {
                idx = random.nextInt(n - count);
                for (int j = 0; j < count && drawn[j] <= idx; j++) {
                    idx++;
                }
            } else {
                long r = random.nextLong(starts[n] - excluded);
                for (int j = 0; j < count && r >= starts[drawn[j]]; j++) {
                    r += c.weight(drawn[j]); // map from the shortened line back onto the full one
                }
                idx = Picking.segment(starts, r);
            }
            int pos = count++;
            while (pos > 0 && drawn[pos - 1] > idx) {
                drawn[pos] = drawn[pos - 1];
                pos--;
            }
            drawn[pos] = idx;
            excluded += c.weight(idx);
            Backend b = c.get(idx);
            if (log != null) {
                scoreLoad(log, idx);
            }
            if (eligible.test(b)) {
                long load = b.inFlight();
                long w = c.weight(idx);
                if (best == null || load * bestWeight < bestLoad * w) {
                    best = b;
                    bestLoad = load;
                    bestWeight = w;
                }
            }
        }
        return best;
    }

    /**
     * The pick of a twin (same candidates, same choices) whose randomness is recorded, and the draws replayed from
     * that record: draw k takes a uniform index among the candidates not drawn yet (or a point on the weight line
     * with the drawn segments cut out). The replay is checked against the pick; if they disagree (the draws changed
     * how they are made), no draws are shown rather than wrong ones.
     */
    @Override
    public Explanation explain(RequestContext request, RandomSource random) {
        if (c.isEmpty()) {
            return Explanation.of(null);
        }
        RecordingRandom rec = new RecordingRandom(random);
        Backend picked = new PowerOfTwoChoices(c, choices, new StrategyEnv(env.ticker(), rec, env.poolInFlight()))
                .pick(request, Eligibility.ADMITTING);
        return new Explanation(picked, null, null, null, null, null, draws(rec.values, picked));
    }

    private List<String> draws(List<Long> values, Backend picked) {
        int n = c.size();
        if (choices >= n) {
            List<String> all = new ArrayList<>();
            c.backends().forEach(b -> all.add(b.id()));
            return all; // every candidate is considered: a full least-requests scan
        }
        List<Integer> drawn = new ArrayList<>(); // sorted ascending, as the strategy keeps them
        List<String> order = new ArrayList<>();
        for (int k = 0; k < choices; k++) {
            if (k >= values.size()) {
                return List.of();
            }
            long v = values.get(k);
            int idx;
            if (uniform) {
                idx = (int) v;
                for (int d : drawn) {
                    if (d <= idx) {
                        idx++;
                    }
                }
            } else {
                long r = v;
                for (int d : drawn) {
                    if (r >= starts[d]) {
                        r += c.weight(d);
                    }
                }
                idx = Picking.segment(starts, r);
            }
            int pos = 0;
            while (pos < drawn.size() && drawn.get(pos) < idx) {
                pos++;
            }
            drawn.add(pos, idx);
            order.add(c.get(idx).id());
        }
        boolean anyEligible = false;
        for (int d : drawn) {
            anyEligible |= c.get(d).admitsAnother();
        }
        boolean consistent = picked == null ? !anyEligible : order.contains(picked.id()) || !anyEligible;
        return consistent ? List.copyOf(order) : List.of();
    }

    /** Records what a strategy draws (nextInt and nextLong results, in order). */
    private static final class RecordingRandom implements RandomSource {
        private final RandomSource inner;
        final List<Long> values = new ArrayList<>();

        RecordingRandom(RandomSource inner) {
            this.inner = inner;
        }

        @Override
        public int nextInt(int bound) {
            int v = inner.nextInt(bound);
            values.add((long) v);
            return v;
        }

        @Override
        public long nextLong(long bound) {
            long v = inner.nextLong(bound);
            values.add(v);
            return v;
        }

        @Override
        public double nextDouble() {
            return inner.nextDouble();
        }
    }
}
