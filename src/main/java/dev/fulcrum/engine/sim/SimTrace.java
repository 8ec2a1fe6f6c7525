package dev.fulcrum.engine.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Builds seeded request traces for the side-by-side simulator: Poisson arrivals (exponential gaps with mean
 * {@code 1/rate}, how independent clients arrive) and keys from a {@link KeyDistribution}. The same arguments
 * always give the same trace.
 *
 * <p>Example: {@code SimTrace.generate(10_000, 500, new KeyDistribution.Zipf(1000, 1.1), 0.1, 42)} is 20 s of
 * traffic at 500 req/s on average, one request in ten a POST.
 */
public final class SimTrace {
    public static final int MAX_REQUESTS = 5_000_000;

    private SimTrace() {
    }

    public static List<SimRequest> generate(int requests, double ratePerSecond, KeyDistribution keys, double postShare,
                                            long seed) {
        if (requests < 1 || requests > MAX_REQUESTS) {
            throw new IllegalArgumentException("requests: must be between 1 and " + MAX_REQUESTS + " (got: " + requests + ")");
        }
        if (!(ratePerSecond > 0 && ratePerSecond <= 10_000_000)) {
            throw new IllegalArgumentException("ratePerSecond: must be above 0 and at most 10000000 (got: "
                    + ratePerSecond + ")");
        }
        if (!(postShare >= 0 && postShare <= 1)) {
            throw new IllegalArgumentException("postShare: must be between 0 and 1 (got: " + postShare + ")");
        }
        SplittableRandom random = new SplittableRandom(seed);
        KeyDistribution.Sampler sampler = keys.sampler();
        double meanGapNanos = 1e9 / ratePerSecond;
        List<SimRequest> out = new ArrayList<>(requests);
        double t = 0;
        for (int i = 0; i < requests; i++) {
            String key = sampler.next(random);
            String method = random.nextDouble() < postShare ? "POST" : "GET";
            out.add(new SimRequest((long) t, method, key));
            t += -Math.log(1 - random.nextDouble()) * meanGapNanos;
        }
        return List.copyOf(out);
    }
}
