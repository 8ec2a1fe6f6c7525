package dev.fulcrum.ui.ring;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.engine.hash.XxHash64;
import dev.fulcrum.ui.Palette;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.scene.paint.Color;

/**
 * A ring or Maglev table turned into what drawing needs, computed once per change rather than per frame:
 * for each backend (one colour each) the positions of its points and the spans of the key space it owns, as
 * fractions of the 64-bit hash space in [0, 1).
 *
 * <p>A key belongs to the first point at or after its hash, going round; so the span (previous point, this
 * point] belongs to this point's backend. Example: points at 0.25 (a) and 0.75 (b) give a the spans
 * (0.75, 1) and [0, 0.25] and b the span (0.25, 0.75]: half each. A Maglev table comes as one point per run
 * of equal slots, which the same rule turns into its runs.
 */
public final class RingGeometry {
    /**
     * One backend's part: its colour, its point positions, and its spans as start + length pairs; on a small ring
     * (at most {@link #NAMED_POINTS} points) the virtual node each point is, {@code i} of {@code backend#i}, else -1.
     */
    public record Part(String backend, Color colour, double[] points, double[] spanStart, double[] spanLength,
                       double share, int[] nodes) {
        /** The point's name, {@code backend#i}, or null when its virtual node is not known. */
        public String pointName(int k) {
            return nodes[k] < 0 ? null : backend + "#" + nodes[k];
        }
    }

    /**
     * Up to this many points a ring's points are named ({@code b#i}, each found by hashing the names as the engine
     * does): enough to label every point of a teaching ring; a larger ring is drawn as ticks, with no names.
     */
    static final int NAMED_POINTS = 400;

    private final String type;
    private final List<Part> parts;
    private final Map<String, Color> colours;
    private final int pointCount;
    private final double[] positions;
    private final int[] owners;
    private final int tableSize;

    private RingGeometry(String type, List<Part> parts, Map<String, Color> colours, double[] positions, int[] owners,
                         int tableSize) {
        this.tableSize = tableSize;
        this.type = type;
        this.parts = parts;
        this.colours = colours;
        this.pointCount = positions.length;
        this.positions = positions;
        this.owners = owners;
    }

    public static RingGeometry of(EngineClient.Ring ring) {
        return of(ring, 0);
    }

    /**
     * @param tableSize the Maglev table's size (the pool's {@code tableSize}), so a key's hash can be placed at its
     *                  slot; 0 for a ring, where the hash itself is the position
     */
    public static RingGeometry of(EngineClient.Ring ring, int tableSize) {
        return of(ring, tableSize, Map.of());
    }

    /**
     * @param palette the pool's colours ({@link Palette#forPool}), so the ring matches the other views; a backend
     *                missing from it gets a colour from the ring's own ids
     */
    public static RingGeometry of(EngineClient.Ring ring, int tableSize, Map<String, Color> palette) {
        List<EngineClient.Point> pts = ring.points();
        int n = pts.size();
        double[] pos = new double[n];
        for (int i = 0; i < n; i++) {
            pos[i] = fraction(pts.get(i).hash());
        }
        java.util.Set<String> ids = new java.util.TreeSet<>();
        for (EngineClient.Point p : pts) {
            ids.add(p.backend());
        }
        if (ring.share() != null) {
            ids.addAll(ring.share().keySet());
        }
        Map<String, Color> own = Palette.of(ids);
        Map<String, Color> colours = new LinkedHashMap<>();
        for (String id : ids) {
            colours.put(id, palette.containsKey(id) ? palette.get(id) : own.get(id));
        }
        Map<String, Integer> count = new HashMap<>();
        for (EngineClient.Point p : pts) {
            count.merge(p.backend(), 1, Integer::sum);
        }
        Map<String, double[][]> arrays = new HashMap<>();
        Map<String, int[]> nodes = new HashMap<>();
        Map<String, Integer> fill = new HashMap<>();
        for (Map.Entry<String, Integer> e : count.entrySet()) {
            int c = e.getValue();
            arrays.put(e.getKey(), new double[][] {new double[c], new double[c], new double[c]});
            nodes.put(e.getKey(), new int[c]);
            fill.put(e.getKey(), 0);
        }
        Map<Long, Integer> named = "maglev".equals(ring.type()) || n > NAMED_POINTS ? Map.of() : names(count);
        for (int i = 0; i < n; i++) {
            String b = pts.get(i).backend();
            double prev = i == 0 ? pos[n - 1] - 1.0 : pos[i - 1];
            double[][] a = arrays.get(b);
            int k = fill.get(b);
            a[0][k] = pos[i];
            a[1][k] = prev;
            a[2][k] = pos[i] - prev;
            long h = pts.get(i).hash().longValue();
            Integer node = named.get(h);
            // the name is this backend's own (two backends' names with one hash would otherwise swap a label)
            nodes.get(b)[k] = node != null && XxHash64.hash(b + "#" + node) == h ? node : -1;
            fill.put(b, k + 1);
        }
        List<Part> parts = new ArrayList<>();
        for (Map.Entry<String, Color> e : colours.entrySet()) {
            double[][] a = arrays.getOrDefault(e.getKey(), new double[][] {new double[0], new double[0], new double[0]});
            double share = ring.share() != null && ring.share().get(e.getKey()) != null ? ring.share().get(e.getKey())
                    : sum(a[2]);
            parts.add(new Part(e.getKey(), e.getValue(), a[0], a[1], a[2], share,
                    nodes.getOrDefault(e.getKey(), new int[0])));
        }
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < parts.size(); i++) {
            index.put(parts.get(i).backend(), i);
        }
        int[] owners = new int[n];
        for (int i = 0; i < n; i++) {
            owners[i] = index.get(pts.get(i).backend());
        }
        return new RingGeometry(ring.type(), Collections.unmodifiableList(parts),
                Collections.unmodifiableMap(new LinkedHashMap<>(colours)), pos, owners, tableSize);
    }

    /**
     * Each point's virtual node by its hash: backend {@code b} with {@code c} points has points {@code b#0} to
     * {@code b#(c-1)}, hashed as the engine hashes them ({@link XxHash64}).
     */
    private static Map<Long, Integer> names(Map<String, Integer> count) {
        Map<Long, Integer> out = new HashMap<>();
        for (Map.Entry<String, Integer> e : count.entrySet()) {
            for (int i = 0; i < e.getValue(); i++) {
                out.put(XxHash64.hash(e.getKey() + "#" + i), i);
            }
        }
        return out;
    }

    private static double sum(double[] d) {
        double s = 0;
        for (double v : d) {
            s += v;
        }
        return s;
    }

    /** An unsigned 64-bit hash as a fraction of the hash space, [0, 1) (its top 53 bits, exactly). */
    public static double fraction(BigInteger hash) {
        return (hash.longValue() >>> 11) * 0x1.0p-53;
    }

    /**
     * Where a key with this hash sits in the drawing, [0, 1). On a ring that is the hash as a fraction of the hash
     * space; in a Maglev table the key goes to slot {@code hash mod tableSize}, drawn at that slot's centre.
     * Example: table size 7, hash 23 → slot 2 → position 2.5 / 7 = 0.357.
     */
    public double keyPosition(BigInteger hash) {
        if (isTable() && tableSize > 0) {
            long slot = hash.mod(BigInteger.valueOf(tableSize)).longValue();
            return (slot + 0.5) / tableSize;
        }
        return fraction(hash);
    }

    /** consistent-hash or maglev. */
    /** The Maglev table's size, or 0 for a ring (or a table whose size is unknown). */
    public int tableSize() {
        return tableSize;
    }

    public String type() {
        return type;
    }

    public boolean isTable() {
        return "maglev".equals(type);
    }

    public List<Part> parts() {
        return parts;
    }

    /** Each backend's colour, by id in id order: what the legend, the ring and the band use. */
    public Map<String, Color> colours() {
        return colours;
    }

    public int pointCount() {
        return pointCount;
    }

    /**
     * The index (into {@link #parts()}) of the backend owning position {@code f} in [0, 1): the first point at or
     * after it, wrapping round to the first point; -1 when there are no points. Binary search: O(log points).
     */
    public int ownerAt(double f) {
        int n = positions.length;
        if (n == 0) {
            return -1;
        }
        int lo = firstAtOrAfter(f);
        return owners[lo == n ? 0 : lo];
    }

    /** The index of the first point at or after {@code f}, or the point count when there is none (binary search). */
    private int firstAtOrAfter(double f) {
        int lo = 0;
        int hi = positions.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (positions[mid] < f) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** {@link #fraction(BigInteger)} of a hash held in a long, read as unsigned (a request sample's key hash). */
    public static double fraction(long hash) {
        return (hash >>> 11) * 0x1.0p-53;
    }

    /** {@link #keyPosition(BigInteger)} of a hash held in a long, read as unsigned. */
    public double keyPosition(long hash) {
        if (isTable() && tableSize > 0) {
            return (Long.remainderUnsigned(hash, tableSize) + 0.5) / tableSize;
        }
        return fraction(hash);
    }

    /** The backend id owning position {@code f}, or null when there are no points. */
    public String ownerIdAt(double f) {
        int o = ownerAt(f);
        return o < 0 ? null : parts.get(o).backend();
    }

    /**
     * Where a key at {@code f} is carried to on a ring: the position of the first point at or after it (its owner's
     * point), unwrapped so that it is never less than {@code f}: 0.98 with the next point at 0.01 gives 1.01. A table
     * has no points to walk to: the key stays in its slot.
     */
    public double ownerPointAfter(double f) {
        return pointAfter(f, -1);
    }

    /**
     * The first point at or after {@code f} owned by {@code backend} (bounded loads walk a key on to it when its owner
     * is full), unwrapped like {@link #ownerPointAfter}; the owner's point when the backend has none.
     */
    public double pointOfAfter(double f, String backend) {
        for (int i = 0; i < parts.size(); i++) {
            if (parts.get(i).backend().equals(backend)) {
                return pointAfter(f, i);
            }
        }
        return ownerPointAfter(f);
    }

    private double pointAfter(double f, int owner) {
        int n = positions.length;
        if (n == 0 || isTable()) {
            return f;
        }
        if (f >= 1) {
            return pointAfter(f - 1, owner) + 1;
        }
        int lo = firstAtOrAfter(f);
        for (int k = 0; k < n; k++) {
            int i = lo + k;
            if (owner < 0 || owners[i % n] == owner) {
                return i < n ? positions[i] : positions[i - n] + 1.0;
            }
        }
        return f;
    }

    /**
     * This ring without {@code backend}'s points: where its keys go when it leaves a consistent-hash ring (each to
     * the next point of another backend). Parts and colours stay as they are, so the owner ids compare.
     */
    public RingGeometry without(String backend) {
        int drop = -1;
        for (int i = 0; i < parts.size(); i++) {
            if (parts.get(i).backend().equals(backend)) {
                drop = i;
            }
        }
        int keep = 0;
        for (int o : owners) {
            if (o != drop) {
                keep++;
            }
        }
        double[] pos = new double[keep];
        int[] own = new int[keep];
        for (int i = 0, k = 0; i < positions.length; i++) {
            if (owners[i] != drop) {
                pos[k] = positions[i];
                own[k++] = owners[i];
            }
        }
        return new RingGeometry(type, parts, colours, pos, own, tableSize);
    }

    /** One stretch of the key space whose owner differs between two rings: [start, start + length), from → to. */
    public record Change(double start, double length, String from, String to) {
    }

    /**
     * The stretches of the key space that change owner from {@code before} to {@code after}, in position order, by
     * walking the union of both rings' points. Example: before a owns (0.75, 0.25] and b the rest; after, a's point at
     * 0.25 is gone, so (0.75, 0.25] goes to b: changes [0.75, 1) and [0, 0.25), a → b, a quarter each.
     */
    public static List<Change> changes(RingGeometry before, RingGeometry after) {
        double[] cuts = new double[before.positions.length + after.positions.length + 2];
        System.arraycopy(before.positions, 0, cuts, 0, before.positions.length);
        System.arraycopy(after.positions, 0, cuts, before.positions.length, after.positions.length);
        cuts[cuts.length - 2] = 0;
        cuts[cuts.length - 1] = 1;
        java.util.Arrays.sort(cuts);
        List<Change> out = new ArrayList<>();
        for (int i = 0; i + 1 < cuts.length; i++) {
            double a = cuts[i];
            double len = cuts[i + 1] - a;
            if (len <= 0) {
                continue;
            }
            // the stretch (a, next] is owned by the first point at or after its end in each ring
            double probe = cuts[i + 1];
            String from = before.ownerIdAt(probe >= 1 ? 0.0 : probe);
            String to = after.ownerIdAt(probe >= 1 ? 0.0 : probe);
            if (from != null && !from.equals(to)) {
                Change last = out.isEmpty() ? null : out.get(out.size() - 1);
                if (last != null && last.from().equals(from) && java.util.Objects.equals(last.to(), to)
                        && Math.abs(last.start() + last.length() - a) < 1e-15) {
                    out.set(out.size() - 1, new Change(last.start(), last.length() + len, from, to));
                } else {
                    out.add(new Change(a, len, from, to));
                }
            }
        }
        return out;
    }

    /** The fraction of the key space that changes owner: the sum of {@link #changes}. */
    public static double movedFraction(RingGeometry before, RingGeometry after) {
        double s = 0;
        for (Change c : changes(before, after)) {
            s += c.length();
        }
        return s;
    }
}
