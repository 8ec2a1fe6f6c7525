package dev.fulcrum.engine.hash;

import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The consistent-hash ring (Karger et al.; ketama / nginx {@code hash ... consistent} style): every backend
 * places {@code virtualNodes x weight} points on the 64-bit circle, point {@code i} of backend {@code id} at
 * {@code XXH64(id + "#" + i)}; a key belongs to the first point at or after its own hash, clockwise,
 * wrapping past the top. Immutable; built on the control thread, read by any number of request threads.
 *
 * <p>Example: backends a (weight 1) and b (weight 2) with 160 virtual nodes give a 160 points and b 320,
 * so b owns about two thirds of the circle. Removing a moves only the keys on a's arcs, to the next point
 * clockwise; everyone else keeps their backend. Adding c of weight 1 moves about a quarter of the keys (its
 * new share), all of them to c.
 *
 * <p>The weight in points is {@code round(candidate weight / WEIGHT_SCALE)}, at least 1, so slow start (which
 * scales the candidate weight) does not reshape the ring on every step. Backends are placed in id order and
 * points with equal hashes are ordered by id, so two instances with the same backends build the same ring.
 * The ring is capped at {@link #MAX_POINTS}: above it every backend's count is scaled down proportionally
 * (at least one point each). The cap is a guess at "large enough to be smooth, small enough to build in
 * well under a second"; Envoy caps its ring at 8M entries.
 *
 * <p>Hashes are stored with the sign bit flipped ({@code h ^ Long.MIN_VALUE}) so signed comparisons of the
 * stored values give the unsigned order of the hashes.
 */
public final class HashRing implements KeySpace {
    static final int MAX_POINTS = 1 << 20;

    private final String type;
    private final int virtualNodes;
    private final String[] ids; // by candidate index
    private final int[] pointCounts; // by candidate index
    private final long[] points; // flipped hashes, ascending
    private final int[] owners; // candidate index of each point
    private final int shift; // 64 - bucket bits
    private final int[] buckets; // buckets[b] = first point whose hash's top bits are >= b; one extra at the end
    private volatile List<Point> pointList;
    private volatile Map<String, Double> shares;

    private HashRing(String type, int virtualNodes, String[] ids, int[] pointCounts, long[] points, int[] owners) {
        this.type = type;
        this.virtualNodes = virtualNodes;
        this.ids = ids;
        this.pointCounts = pointCounts;
        this.points = points;
        this.owners = owners;
        // a lookup table on the top bits of the hash, about one bucket per point, so a lookup binary-searches
        // a bucket of one or two points instead of the whole ring (16 cache misses at 48,000 points)
        int bits = points.length <= 1 ? 1 : Math.min(20, 64 - Long.numberOfLeadingZeros(points.length - 1));
        this.shift = 64 - bits;
        this.buckets = new int[(1 << bits) + 1];
        int p = 0;
        for (int b = 0; b <= 1 << bits; b++) {
            while (p < points.length && ((points[p] ^ Long.MIN_VALUE) >>> shift) < b) {
                p++;
            }
            buckets[b] = p;
        }
    }

    /**
     * @param reuse a ring built earlier; when it has the same ids and point counts its arrays are shared
     *              instead of rehashing (a breaker or health change rebuilds every strategy)
     */
    public static HashRing build(Candidates candidates, int virtualNodes, HashRing reuse) {
        int n = candidates.size();
        String[] ids = new String[n];
        int[] weights = new int[n];
        for (int i = 0; i < n; i++) {
            ids[i] = candidates.get(i).id();
            weights[i] = candidates.weight(i);
        }
        return build(ids, weights, virtualNodes, reuse);
    }

    /**
     * The ring of backends known by id and weight alone, placed exactly as {@link #build(Candidates, int, HashRing)}
     * places candidates: what the window's ring view draws at another count of virtual nodes than the pool's.
     *
     * @param weights each backend's weight as candidates carry it, in {@link Strategies#WEIGHT_SCALE} units
     */
    public static HashRing build(String[] backendIds, int[] weights, int virtualNodes, HashRing reuse) {
        String[] ids = backendIds.clone(); // the ring keeps them
        int n = ids.length;
        int[] counts = new int[n];
        long total = 0;
        for (int i = 0; i < n; i++) {
            long units = Math.max(1, Math.round((double) weights[i] / Strategies.WEIGHT_SCALE));
            counts[i] = (int) Math.min(Integer.MAX_VALUE, units * virtualNodes);
            total += counts[i];
        }
        if (total > MAX_POINTS) {
            long before = total;
            total = 0;
            for (int i = 0; i < n; i++) {
                counts[i] = (int) Math.max(1, (long) counts[i] * MAX_POINTS / before);
                total += counts[i];
            }
        }
        if (reuse != null && reuse.virtualNodes == virtualNodes && java.util.Arrays.equals(reuse.ids, ids)
                && java.util.Arrays.equals(reuse.pointCounts, counts)) {
            return reuse;
        }
        int size = (int) total;
        long[] pts = new long[size];
        int[] own = new int[size];
        int[] rank = ranksById(ids);
        int[] byRank = new int[n];
        for (int i = 0; i < n; i++) {
            byRank[rank[i]] = i;
        }
        int k = 0;
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < n; r++) { // in id order, so the stable sort below orders equal hashes by id
            int i = byRank[r];
            sb.setLength(0);
            sb.append(ids[i]).append('#');
            int base = sb.length();
            for (int v = 0; v < counts[i]; v++) {
                sb.setLength(base);
                sb.append(v);
                pts[k] = XxHash64.hash(sb) ^ Long.MIN_VALUE;
                own[k] = i;
                k++;
            }
        }
        sortPoints(pts, own);
        return new HashRing(StrategySpec.CONSISTENT_HASH, virtualNodes, ids, counts, pts, own);
    }

    /** rank[i] = position of ids[i] in id order (candidates normally arrive sorted, then rank[i] == i). */
    public static int[] ranksById(String[] ids) {
        Integer[] order = new Integer[ids.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (x, y) -> ids[x].compareTo(ids[y]));
        int[] rank = new int[ids.length];
        for (int r = 0; r < order.length; r++) {
            rank[order[r]] = r;
        }
        return rank;
    }

    /**
     * Sorts the points by (flipped) hash, carrying their owners along: an LSD radix sort, 8 passes of 8 bits,
     * stable, so points with equal hashes keep their id order. Measured about twice as fast as a heapsort of
     * the pairs at 160,000 points, and it never boxes.
     */
    private static void sortPoints(long[] h, int[] o) {
        int n = h.length;
        long[] h2 = new long[n];
        int[] o2 = new int[n];
        int[] count = new int[257];
        for (int shift = 0; shift < 64; shift += 8) {
            java.util.Arrays.fill(count, 0);
            // the top byte of a flipped hash is compared signed: flip its sign bit back for the digit
            long flip = shift == 56 ? 0x80L : 0;
            for (int i = 0; i < n; i++) {
                count[(int) (((h[i] >>> shift) & 0xFF) ^ flip) + 1]++;
            }
            for (int d = 0; d < 256; d++) {
                count[d + 1] += count[d];
            }
            for (int i = 0; i < n; i++) {
                int at = count[(int) (((h[i] >>> shift) & 0xFF) ^ flip)]++;
                h2[at] = h[i];
                o2[at] = o[i];
            }
            long[] th = h;
            h = h2;
            h2 = th;
            int[] to = o;
            o = o2;
            o2 = to;
        }
        // eight passes: the sorted data is back in the caller's arrays
    }

    // ---------------------------------------------------------------- lookups (request path)

    public int size() {
        return points.length;
    }

    /** Index of the first point at or after {@code hash} clockwise, or -1 on an empty ring. */
    public int pointAt(long hash) {
        int n = points.length;
        if (n == 0) {
            return -1;
        }
        long f = hash ^ Long.MIN_VALUE;
        int b = (int) (hash >>> shift);
        int lo = buckets[b];
        int hi = buckets[b + 1]; // first index with points[i] >= f lies in [lo, hi]
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (points[mid] < f) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo == n ? 0 : lo;
    }

    /** Candidate index owning point {@code p}. */
    public int ownerOf(int p) {
        return owners[p];
    }

    public int pointCount(int candidate) {
        return pointCounts[candidate];
    }

    // ---------------------------------------------------------------- KeySpace

    @Override
    public String type() {
        return type;
    }

    @Override
    public List<Point> points() {
        List<Point> l = pointList;
        if (l == null) {
            List<Point> out = new ArrayList<>(points.length);
            for (int i = 0; i < points.length; i++) {
                out.add(new Point(points[i] ^ Long.MIN_VALUE, ids[owners[i]]));
            }
            pointList = l = Collections.unmodifiableList(out);
        }
        return l;
    }

    @Override
    public Map<String, Double> share() {
        Map<String, Double> s = shares;
        if (s == null) {
            double[] arcs = new double[ids.length];
            int n = points.length;
            for (int i = 0; i < n; i++) {
                arcs[owners[i]] += n == 1 ? 1.0 : arc(points[i == 0 ? n - 1 : i - 1], points[i]);
            }
            shares = s = shareMap(ids, arcs);
        }
        return s;
    }

    /** Ids in id order with their fractions, unmodifiable. */
    public static Map<String, Double> shareMap(String[] ids, double[] fractions) {
        int[] rank = ranksById(ids);
        String[] sorted = new String[ids.length];
        double[] f = new double[ids.length];
        for (int i = 0; i < ids.length; i++) {
            sorted[rank[i]] = ids[i];
            f[rank[i]] = fractions[i];
        }
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < sorted.length; i++) {
            m.put(sorted[i], f[i]);
        }
        return Collections.unmodifiableMap(m);
    }

    /** Fraction of the circle on the arc (from, to], both flipped; from == to is the whole circle. */
    public static double arc(long from, long to) {
        long d = to - from; // flipping both leaves the modular difference unchanged
        return d == 0 ? 1.0 : unsigned(d) / 0x1p64;
    }

    public static double unsigned(long x) {
        return (double) (x >>> 1) * 2.0 + (x & 1);
    }

    @Override
    public long hash(String key) {
        return XxHash64.hash(key);
    }

    @Override
    public String owner(String key) {
        int p = pointAt(hash(key));
        return p < 0 ? null : ids[owners[p]];
    }

    @Override
    public Preview preview(Candidates next) {
        HashRing other = build(next, virtualNodes, null);
        return new Preview(movedFraction(other), other.share(), other.points());
    }

    /**
     * The fraction of the circle whose owner differs between this ring and {@code other}: a merge of both
     * point lists, each segment between consecutive boundaries owned in each ring by that ring's first point
     * at or after the segment's end.
     */
    public double movedFraction(HashRing other) {
        long[] a = points;
        long[] b = other.points;
        if (a.length == 0 || b.length == 0) {
            return a.length == b.length ? 0.0 : 1.0;
        }
        long prev = Math.max(a[a.length - 1], b[b.length - 1]);
        double moved = 0;
        int i = 0;
        int j = 0;
        boolean single = true;
        while (i < a.length || j < b.length) {
            long x = j >= b.length || i < a.length && a[i] <= b[j] ? a[i] : b[j];
            String oa = ids[owners[i < a.length ? i : 0]];
            String ob = other.ids[other.owners[j < b.length ? j : 0]];
            if (!oa.equals(ob)) {
                long d = x - prev;
                moved += d == 0 && single ? 1.0 : unsigned(d) / 0x1p64;
            }
            prev = x;
            while (i < a.length && a[i] == x) {
                i++;
            }
            while (j < b.length && b[j] == x) {
                j++;
            }
            single = false;
        }
        return Math.min(1.0, moved);
    }
}
