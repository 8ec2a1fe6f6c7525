package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;

/**
 * Small allocation-free helpers the strategies share: cumulative weights, weighted draws, and the slow path
 * "choose among the eligible ones only" that a strategy falls back to when its first choice is ineligible.
 */
final class Picking {
    private Picking() {
    }

    /**
     * Prefix sums of the weights: {@code starts[i]} is where backend i's segment begins on [0, total),
     * {@code starts[n]} is the total. Weights 5,1,1 give 0,5,6,7.
     */
    static long[] starts(int[] weights) {
        long[] s = new long[weights.length + 1];
        for (int i = 0; i < weights.length; i++) {
            s[i + 1] = s[i] + weights[i];
        }
        return s;
    }

    /** The index whose segment holds {@code r} (0 <= r < total): the largest i with starts[i] <= r. */
    static int segment(long[] starts, long r) {
        int lo = 0;
        int hi = starts.length - 2; // last backend
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (starts[mid] <= r) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * A weighted draw restricted to the eligible candidates, exact in distribution: one pass sums the eligible
     * weights, a second walks to the drawn point. If eligibility changes between the passes (a slot freed or
     * taken meanwhile), the last eligible backend seen is returned rather than nothing.
     */
    static Backend weightedAmongEligible(Candidates c, Eligibility eligible, RandomSource random) {
        int n = c.size();
        long total = 0;
        for (int i = 0; i < n; i++) {
            if (eligible.test(c.get(i))) {
                total += c.weight(i);
            }
        }
        if (total == 0) {
            return null;
        }
        long r = random.nextLong(total);
        Backend last = null;
        for (int i = 0; i < n; i++) {
            Backend b = c.get(i);
            if (eligible.test(b)) {
                last = b;
                r -= c.weight(i);
                if (r < 0) {
                    return b;
                }
            }
        }
        return last;
    }

    /** A uniform draw restricted to the eligible candidates (same two passes as the weighted one). */
    static Backend uniformAmongEligible(Candidates c, Eligibility eligible, RandomSource random) {
        int n = c.size();
        int count = 0;
        for (int i = 0; i < n; i++) {
            if (eligible.test(c.get(i))) {
                count++;
            }
        }
        if (count == 0) {
            return null;
        }
        int k = random.nextInt(count);
        Backend last = null;
        for (int i = 0; i < n; i++) {
            Backend b = c.get(i);
            if (eligible.test(b)) {
                last = b;
                if (k-- == 0) {
                    return b;
                }
            }
        }
        return last;
    }

    /** The first eligible candidate at or after index {@code from}, wrapping; null when none. */
    static Backend scanFrom(Candidates c, int from, Eligibility eligible) {
        int n = c.size();
        for (int i = 0; i < n; i++) {
            int j = from + i;
            if (j >= n) {
                j -= n;
            }
            Backend b = c.get(j);
            if (eligible.test(b)) {
                return b;
            }
        }
        return null;
    }

    /** Whether every weight is the same (a uniform draw then replaces the binary search). */
    static boolean allEqual(int[] weights) {
        for (int w : weights) {
            if (w != weights[0]) {
                return false;
            }
        }
        return true;
    }

    /**
     * A per-thread bit set over candidate indexes, for walks that must test each backend at most once (the
     * ring's and the table's clockwise walk) without allocating per pick. Grown on first use per size.
     */
    static final class Seen {
        private static final ThreadLocal<Seen> LOCAL = ThreadLocal.withInitial(Seen::new);
        private long[] bits = new long[2];

        /** This thread's set, cleared for indexes below {@code n}. */
        static Seen clear(int n) {
            Seen s = LOCAL.get();
            int words = (n + 63) >>> 6;
            if (s.bits.length < words) {
                s.bits = new long[words];
            } else {
                java.util.Arrays.fill(s.bits, 0, words, 0L);
            }
            return s;
        }

        /** Marks {@code i}; true when it was not marked before. */
        boolean add(int i) {
            long mask = 1L << i;
            long w = bits[i >>> 6];
            if ((w & mask) != 0) {
                return false;
            }
            bits[i >>> 6] = w | mask;
            return true;
        }
    }
}
