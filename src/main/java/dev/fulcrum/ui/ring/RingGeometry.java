package dev.fulcrum.ui.ring;

import dev.fulcrum.admin.EngineClient;
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
    /** One backend's part: its colour, its point positions, and its spans as start + length pairs. */
    public record Part(String backend, Color colour, double[] points, double[] spanStart, double[] spanLength,
                       double share) {
    }

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
        Map<String, Integer> fill = new HashMap<>();
        for (Map.Entry<String, Integer> e : count.entrySet()) {
            int c = e.getValue();
            arrays.put(e.getKey(), new double[][] {new double[c], new double[c], new double[c]});
            fill.put(e.getKey(), 0);
        }
        for (int i = 0; i < n; i++) {
            String b = pts.get(i).backend();
            double prev = i == 0 ? pos[n - 1] - 1.0 : pos[i - 1];
            double[][] a = arrays.get(b);
            int k = fill.get(b);
            a[0][k] = pos[i];
            a[1][k] = prev;
            a[2][k] = pos[i] - prev;
            fill.put(b, k + 1);
        }
        List<Part> parts = new ArrayList<>();
        for (Map.Entry<String, Color> e : colours.entrySet()) {
            double[][] a = arrays.getOrDefault(e.getKey(), new double[][] {new double[0], new double[0], new double[0]});
            double share = ring.share() != null && ring.share().get(e.getKey()) != null ? ring.share().get(e.getKey())
                    : sum(a[2]);
            parts.add(new Part(e.getKey(), e.getValue(), a[0], a[1], a[2], share));
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
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (positions[mid] < f) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return owners[lo == n ? 0 : lo];
    }
}
