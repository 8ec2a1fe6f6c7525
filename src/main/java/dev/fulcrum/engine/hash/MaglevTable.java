package dev.fulcrum.engine.hash;

import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The Maglev lookup table (Eisenbud et al., "Maglev: A Fast and Reliable Software Network Load Balancer",
 * NSDI 2016, section 3.4), with Envoy's weighted population. A key goes to {@code table[hash(key) mod M]}:
 * one array read per lookup, whatever the number of backends.
 *
 * <p>Population: backend i has a permutation of the M slots, {@code (offset_i + j x skip_i) mod M} with
 * {@code offset_i = h1(id) mod M} and {@code skip_i = h2(id) mod (M - 1) + 1} (h1, h2 = XXH64 of the id with
 * two seeds; M prime makes every skip coprime to M, so each permutation visits every slot). Backends take
 * turns in id order; on its turn a backend claims the next slot of its permutation not yet taken. Weighted
 * as in Envoy: on round r a backend of weight w takes a turn only when {@code r x w >= turns so far x max
 * weight}, so a backend of half the maximum weight takes every other round. Equal weights therefore give
 * the NSDI guarantee (slot counts differ by at most one). In general, after R complete rounds a backend of
 * the maximum weight holds R slots and one of weight w below it {@code floor(R w / w_max) + 1} (its turn on
 * round 1 comes early); the table fills during some round T, so every backend holds between its count
 * after T - 1 rounds and after T: its fair share to within one slot.
 *
 * <p>Example, M = 7, equal weights, say (offset, skip) a = (3, 4) and b = (0, 2): permutations a: 3 0 4 1 5 2 6,
 * b: 0 2 4 6 1 3 5. Round 1: a takes 3, b takes 0. Round 2: a's next is 0 (taken), so 4; b takes 2.
 * Round 3: a takes 1; b's 4 is taken, so 6. Round 4: a takes 5 and the table is full:
 * {@code [b a b a a a b]}, 4 slots and 3.
 *
 * <p>Everything depends only on the ids, weights and M, so two instances build the same table. Immutable.
 */
public final class MaglevTable implements KeySpace {
    private static final long SEED_OFFSET = 0x6d61676c65764f66L; // arbitrary fixed seeds ("maglevOf", "maglevSk")
    private static final long SEED_SKIP = 0x6d61676c6576536bL;

    private final int size;
    private final String[] ids; // by candidate index
    private final int[] weights; // by candidate index, as built
    private final int[] table; // candidate index per slot; -1 only when there are no candidates
    private volatile List<Point> pointList;
    private volatile Map<String, Double> shares;

    private MaglevTable(int size, String[] ids, int[] weights, int[] table) {
        this.size = size;
        this.ids = ids;
        this.weights = weights;
        this.table = table;
    }

    /**
     * @param reuse a table built earlier; shared when ids, weights and size are the same (a breaker or health
     *              change rebuilds every strategy without changing the membership)
     */
    public static MaglevTable build(Candidates candidates, int tableSize, MaglevTable reuse) {
        int n = candidates.size();
        String[] ids = new String[n];
        for (int i = 0; i < n; i++) {
            ids[i] = candidates.get(i).id();
        }
        int[] weights = candidates.weights().clone();
        if (reuse != null && reuse.size == tableSize && Arrays.equals(reuse.ids, ids)
                && Arrays.equals(reuse.weights, weights)) {
            return reuse;
        }
        int[] table = new int[tableSize];
        Arrays.fill(table, -1);
        if (n == 0) {
            return new MaglevTable(tableSize, ids, weights, table);
        }
        // turns in id order, whatever order the candidates came in
        int[] rank = HashRing.ranksById(ids);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[rank[i]] = i;
        }
        long[] next = new long[n]; // next permutation position of each backend
        long[] skip = new long[n];
        long[] target = new long[n];
        long maxWeight = 0;
        for (int i = 0; i < n; i++) {
            next[i] = XxHash64.mod(XxHash64.hash(ids[i], SEED_OFFSET), tableSize);
            skip[i] = XxHash64.mod(XxHash64.hash(ids[i], SEED_SKIP), tableSize - 1) + 1;
            maxWeight = Math.max(maxWeight, weights[i]);
        }
        int filled = 0;
        for (long round = 1; filled < tableSize; round++) {
            for (int k = 0; k < n && filled < tableSize; k++) {
                int i = order[k];
                if (round * weights[i] < target[i]) {
                    continue;
                }
                target[i] += maxWeight;
                int slot = (int) next[i];
                while (table[slot] >= 0) {
                    slot += (int) skip[i];
                    if (slot >= tableSize) {
                        slot -= tableSize;
                    }
                }
                table[slot] = i;
                long after = slot + skip[i];
                next[i] = after >= tableSize ? after - tableSize : after;
                filled++;
            }
        }
        return new MaglevTable(tableSize, ids, weights, table);
    }

    // ---------------------------------------------------------------- lookups (request path)

    public int tableSize() {
        return size;
    }

    /** The slot a hash falls in. */
    public int slotOf(long hash) {
        return XxHash64.mod(hash, size);
    }

    /** Candidate index owning a slot (-1 when the table is empty). */
    public int ownerOf(int slot) {
        return table[slot];
    }

    /** Slots held by each candidate index. */
    public int[] slotCounts() {
        int[] counts = new int[ids.length];
        for (int o : table) {
            if (o >= 0) {
                counts[o]++;
            }
        }
        return counts;
    }

    // ---------------------------------------------------------------- KeySpace

    @Override
    public String type() {
        return StrategySpec.MAGLEV;
    }

    /**
     * One point per run of consecutive slots with one owner. Slot s covers the hashes whose remainder mod M
     * is s, not an arc; to draw the table like a ring, slot s is placed at {@code s / M} of the circle and
     * each run's point sits at the end of its last slot, so as on the ring a position belongs to the first
     * point at or after it.
     */
    @Override
    public List<Point> points() {
        List<Point> l = pointList;
        if (l == null) {
            List<Point> out = new ArrayList<>();
            if (ids.length > 0) {
                for (int s = 0; s < size; s++) {
                    if (s == size - 1 || table[s + 1] != table[s]) {
                        out.add(new Point(scaled(s + 1) - 1, ids[table[s]]));
                    }
                }
            }
            pointList = l = Collections.unmodifiableList(out);
        }
        return l;
    }

    /** floor(x * 2^64 / M) as an unsigned 64-bit value, exactly (x <= M < 2^31). */
    private long scaled(long x) {
        long hi = (x << 32) / size;
        long rem = (x << 32) % size;
        long lo = (rem << 32) / size;
        return (hi << 32) | lo;
    }

    @Override
    public Map<String, Double> share() {
        Map<String, Double> s = shares;
        if (s == null) {
            int[] counts = slotCounts();
            double[] f = new double[ids.length];
            for (int i = 0; i < f.length; i++) {
                f[i] = (double) counts[i] / size;
            }
            shares = s = HashRing.shareMap(ids, f);
        }
        return s;
    }

    @Override
    public long hash(String key) {
        return XxHash64.hash(key);
    }

    @Override
    public String owner(String key) {
        int o = table[slotOf(hash(key))];
        return o < 0 ? null : ids[o];
    }

    @Override
    public Preview preview(Candidates next) {
        MaglevTable other = build(next, size, null);
        return new Preview(movedFraction(other), other.share(), other.points());
    }

    /** Fraction of slots whose owner differs between this table and {@code other} (same size). */
    public double movedFraction(MaglevTable other) {
        int moved = 0;
        for (int s = 0; s < size; s++) {
            int a = table[s];
            int b = other.table[s];
            String ia = a < 0 ? null : ids[a];
            String ib = b < 0 ? null : other.ids[b];
            if (ia == null ? ib != null : !ia.equals(ib)) {
                moved++;
            }
        }
        return (double) moved / size;
    }
}
