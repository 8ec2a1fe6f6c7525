package dev.fulcrum.engine.sim;

import java.util.SplittableRandom;

/**
 * How request keys are drawn in workshop traffic and simulated traces: which of {@code keys} keys
 * ({@code k0 .. k<keys-1>}) the next request carries. Shared by the traffic generator (real HTTP) and the
 * side-by-side simulator so both see the same shapes.
 *
 * <ul>
 *   <li>{@link Uniform}: every key equally likely.</li>
 *   <li>{@link Zipf}: key of rank {@code i} (1-based) has probability proportional to {@code 1 / i^s}; with
 *       s = 1 and 100 keys, {@code k0} gets 19.3%, {@code k1} 9.6%, {@code k9} 1.9%: a few keys dominate, as
 *       in real caches and user populations.</li>
 *   <li>{@link HotKey}: {@code k0} takes {@code share} of the requests, the others split the rest evenly;
 *       the worst case for hashing strategies (one backend gets the hot key, whatever the ring does).</li>
 * </ul>
 *
 * <p>Sampling is by inverse CDF over a precomputed table (a binary search), so it is deterministic for a
 * given {@link SplittableRandom} and costs O(log keys) per draw.
 */
public sealed interface KeyDistribution permits KeyDistribution.Uniform, KeyDistribution.Zipf, KeyDistribution.HotKey {
    /** Largest key count accepted: the CDF table is one double per key. */
    int MAX_KEYS = 10_000_000;

    /** The number of distinct keys. */
    int keys();

    /** The probability of key index {@code i} (0-based), for views and for checking shapes. */
    double probability(int i);

    /** Every key's probability, index by index (O(keys); for drawing the expected shape next to the observed one). */
    default double[] probabilities() {
        double[] p = new double[keys()];
        for (int i = 0; i < p.length; i++) {
            p[i] = probability(i);
        }
        return p;
    }

    /** The name of key index {@code i}: {@code k<i>}. */
    static String keyName(int i) {
        return "k" + i;
    }

    /** A sampler over this distribution; build it once (Zipf precomputes its CDF). */
    default Sampler sampler() {
        return new Sampler(this);
    }

    record Uniform(int keys) implements KeyDistribution {
        public Uniform {
            requireKeys(keys);
        }

        @Override
        public double probability(int i) {
            return i >= 0 && i < keys ? 1.0 / keys : 0;
        }
    }

    /** @param exponent s, above 0 (1.0 is the classic Zipf law) */
    record Zipf(int keys, double exponent) implements KeyDistribution {
        public Zipf {
            requireKeys(keys);
            if (!(exponent > 0 && exponent <= 10)) {
                throw new IllegalArgumentException("exponent: must be above 0 and at most 10 (got: " + exponent + ")");
            }
        }

        @Override
        public double probability(int i) {
            if (i < 0 || i >= keys) {
                return 0;
            }
            double norm = 0;
            for (int r = 1; r <= keys; r++) {
                norm += Math.pow(r, -exponent);
            }
            return Math.pow(i + 1, -exponent) / norm;
        }

        /** One normalisation for all keys instead of one per key. */
        @Override
        public double[] probabilities() {
            double[] p = new double[keys];
            double norm = 0;
            for (int r = 1; r <= keys; r++) {
                p[r - 1] = Math.pow(r, -exponent);
                norm += p[r - 1];
            }
            for (int i = 0; i < keys; i++) {
                p[i] /= norm;
            }
            return p;
        }
    }

    /** @param share the hot key's share of requests, 0..1 */
    record HotKey(int keys, double share) implements KeyDistribution {
        public HotKey {
            requireKeys(keys);
            if (!(share >= 0 && share <= 1)) {
                throw new IllegalArgumentException("share: must be between 0 and 1 (got: " + share + ")");
            }
        }

        @Override
        public double probability(int i) {
            if (i < 0 || i >= keys) {
                return 0;
            }
            if (keys == 1) {
                return 1;
            }
            return i == 0 ? share : (1 - share) / (keys - 1);
        }
    }

    private static void requireKeys(int keys) {
        if (keys < 1 || keys > MAX_KEYS) {
            throw new IllegalArgumentException("keys: must be between 1 and " + MAX_KEYS + " (got: " + keys + ")");
        }
    }

    /** Draws key indexes from a distribution. Not thread-safe only in the random it is handed. */
    final class Sampler {
        private final KeyDistribution distribution;
        private final double[] cdf; // null for uniform and hot-key, which need no table

        Sampler(KeyDistribution d) {
            this.distribution = d;
            if (d instanceof Zipf z) {
                cdf = new double[z.keys()];
                double sum = 0;
                for (int r = 1; r <= z.keys(); r++) {
                    sum += Math.pow(r, -z.exponent());
                    cdf[r - 1] = sum;
                }
                for (int i = 0; i < cdf.length; i++) {
                    cdf[i] /= sum;
                }
                cdf[cdf.length - 1] = 1.0; // no draw may fall past the end by rounding
            } else {
                cdf = null;
            }
        }

        public KeyDistribution distribution() {
            return distribution;
        }

        /** The next key index, 0-based. */
        public int nextIndex(SplittableRandom random) {
            if (distribution instanceof Uniform u) {
                return random.nextInt(u.keys());
            }
            if (distribution instanceof HotKey h) {
                if (h.keys() == 1 || random.nextDouble() < h.share()) {
                    return 0;
                }
                return 1 + random.nextInt(h.keys() - 1);
            }
            double u = random.nextDouble();
            int lo = 0;
            int hi = cdf.length - 1;
            while (lo < hi) { // first index with cdf > u
                int mid = (lo + hi) >>> 1;
                if (cdf[mid] > u) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            return lo;
        }

        /** The next key name ({@code k<index>}). */
        public String next(SplittableRandom random) {
            return keyName(nextIndex(random));
        }
    }
}
