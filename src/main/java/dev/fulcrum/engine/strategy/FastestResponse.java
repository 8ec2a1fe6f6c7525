package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.rules.Limits;
import dev.fulcrum.time.Ticker;
import java.util.List;

/**
 * {@code fastest-response}: Finagle's and Linkerd's peak-EWMA balancer. Each backend's cost is its peak
 * EWMA latency ({@link Backend#ewma()}, decaying over {@code decayMs}) times {@code (in-flight + 1)}; the
 * lowest cost wins. Example: a at 20 ms with 1 in flight costs 40, b at 10 ms with 3 in flight costs 40,
 * c at 50 ms idle costs 50: a or b (a tie, broken at random).
 *
 * <p>A backend with no samples yet (new, or just after a strategy change) is costed at the average EWMA of
 * those with samples, so it gets a fair share at once instead of all traffic (cost 0) or none; with no
 * samples anywhere every EWMA counts as equal and this is least-requests by in-flight count. Weights do not
 * count, as in Finagle. Ties are broken uniformly at random (reservoir sampling). One pass, O(n).
 */
final class FastestResponse implements Strategy {
    static final StrategyDescriptor DESCRIPTOR = new BuiltIn(StrategySpec.FASTEST_RESPONSE, "fastest response",
            "The backend with the lowest peak-EWMA latency × (in-flight + 1), "
                    + "decaying old measurements over decayMs.",
            List.of(StrategyOption.millis("decayMs", 10_000L, Limits::positiveMs, "Decay (ms)",
                    "how fast old latencies are forgotten", "latency remembered over %s ms")),
            false, false, (spec, c, prev, env) -> new FastestResponse(c, env));

    private final Candidates c;
    private final RandomSource random;
    private final Ticker ticker;

    FastestResponse(Candidates candidates, StrategyEnv env) {
        this.c = candidates;
        this.random = env.random();
        this.ticker = env.ticker();
    }

    @Override
    public String type() {
        return StrategySpec.FASTEST_RESPONSE;
    }

    @Override
    public Backend pick(RequestContext request, Eligibility eligible) {
        int n = c.size();
        if (n == 0) {
            return null;
        }
        // best among sampled backends by ewma x (inFlight + 1); best among unsampled by inFlight alone,
        // since they all share the same (average) ewma; both groups compared once the average is known
        long now = ticker.nanos();
        double sum = 0;
        int sampled = 0;
        Backend bestS = null;
        double bestCost = 0;
        int tiesS = 0;
        Backend bestU = null;
        int bestUInFlight = 0;
        int tiesU = 0;
        for (int i = 0; i < n; i++) {
            Backend b = c.get(i);
            double e = b.ewma().get(now);
            if (e > 0) {
                sum += e;
                sampled++;
            }
            if (!eligible.test(b)) {
                continue;
            }
            int f = b.inFlight();
            if (e > 0) {
                double cost = e * (f + 1);
                if (bestS == null || cost < bestCost) {
                    bestS = b;
                    bestCost = cost;
                    tiesS = 1;
                } else if (cost == bestCost && random.nextInt(++tiesS) == 0) {
                    bestS = b;
                }
            } else if (bestU == null || f < bestUInFlight) {
                bestU = b;
                bestUInFlight = f;
                tiesU = 1;
            } else if (f == bestUInFlight && random.nextInt(++tiesU) == 0) {
                bestU = b;
            }
        }
        if (bestS == null || bestU == null) {
            return bestS != null ? bestS : bestU;
        }
        double costU = sum / sampled * (bestUInFlight + 1);
        if (costU == bestCost) {
            return random.nextInt(tiesS + tiesU) < tiesS ? bestS : bestU;
        }
        return costU < bestCost ? bestU : bestS;
    }
}
