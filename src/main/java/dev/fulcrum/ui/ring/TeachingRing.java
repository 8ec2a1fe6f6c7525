package dev.fulcrum.ui.ring;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.engine.hash.HashRing;
import dev.fulcrum.engine.hash.KeySpace;
import dev.fulcrum.engine.strategy.Strategies;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A pool's consistent-hash ring drawn at another count of virtual nodes per backend than the pool's own, to teach
 * what the count does: the same backends with the same weights, placed by the engine's own {@link HashRing} (point
 * {@code i} of backend {@code b} at {@code XXH64(b#i)}), so at the pool's count it is exactly the pool's ring. Nothing
 * of the pool changes. Example: three backends of weight 1 at 1 point each own very unequal thirds of the circle (one
 * may own half); at 160 points each every share is within a few percent of a third.
 *
 * <p>The backends and their weights come from the pool's ring as the engine sent it: a backend with {@code p} points on
 * a ring of {@code v} virtual nodes has {@code round(p / v)} weight units (the engine gives it {@code units x v}
 * points), at least 1.
 */
public final class TeachingRing {
    /** The counts the view offers: one point each (the ring at its most uneven) up to the engine's default. */
    public static final List<Integer> COUNTS = List.of(1, 3, 10, 40, 160);

    private final String[] ids;
    private final int[] units;

    private TeachingRing(String[] ids, int[] units) {
        this.ids = ids;
        this.units = units;
    }

    /** The backends of {@code ring} (a pool's consistent-hash ring of {@code virtualNodes} per backend) by weight. */
    public static TeachingRing of(EngineClient.Ring ring, int virtualNodes) {
        Map<String, Integer> points = new TreeMap<>();
        for (EngineClient.Point p : ring.points()) {
            points.merge(p.backend(), 1, Integer::sum);
        }
        String[] ids = points.keySet().toArray(new String[0]);
        int[] units = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            units[i] = (int) Math.max(1, Math.round((double) points.get(ids[i]) / Math.max(1, virtualNodes)));
        }
        return new TeachingRing(ids, units);
    }

    /** Each backend's weight units, in id order. */
    public Map<String, Integer> weights() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (int i = 0; i < ids.length; i++) {
            m.put(ids[i], units[i]);
        }
        return m;
    }

    /** The ring at {@code virtualNodes} per backend, as the engine would build it. */
    public EngineClient.Ring ring(int virtualNodes) {
        return ring(build(ids, units, virtualNodes));
    }

    /**
     * What a what-if would do to the ring at {@code virtualNodes} per backend, worked out as the engine's preview
     * works it out (the same placement, the same moved fraction), with nothing sent to the engine.
     *
     * @throws IllegalArgumentException naming the field when the what-if names no backend of the ring, or adds one
     *                                  it has
     */
    public EngineClient.Preview preview(int virtualNodes, RingViewModel.WhatIf w) {
        Map<String, Integer> next = new TreeMap<>(weights());
        switch (w.mode()) {
            case REMOVE -> {
                if (next.remove(w.backend()) == null) {
                    throw new IllegalArgumentException("remove: no such backend on the ring (got: " + w.backend() + ")");
                }
            }
            case ADD -> {
                if (next.containsKey(w.backend())) {
                    throw new IllegalArgumentException("add: id already exists (got: " + w.backend() + ")");
                }
                if (w.weight() > 0) {
                    next.put(w.backend(), w.weight());
                }
            }
            case REWEIGHT -> {
                if (!next.containsKey(w.backend())) {
                    throw new IllegalArgumentException("weights: no such backend on the ring (got: " + w.backend() + ")");
                }
                if (w.weight() > 0) {
                    next.put(w.backend(), w.weight());
                } else {
                    next.remove(w.backend());
                }
            }
        }
        String[] nextIds = next.keySet().toArray(new String[0]);
        int[] nextUnits = next.values().stream().mapToInt(Integer::intValue).toArray();
        HashRing now = build(ids, units, virtualNodes);
        HashRing after = build(nextIds, nextUnits, virtualNodes);
        EngineClient.Ring drawn = ring(after);
        return new EngineClient.Preview(now.movedFraction(after), drawn.share(), drawn.points());
    }

    private static HashRing build(String[] ids, int[] units, int virtualNodes) {
        int[] weights = new int[units.length];
        for (int i = 0; i < units.length; i++) {
            weights[i] = units[i] * Strategies.WEIGHT_SCALE;
        }
        return HashRing.build(ids, weights, virtualNodes, null);
    }

    private static EngineClient.Ring ring(HashRing r) {
        List<EngineClient.Point> points = new ArrayList<>(r.size());
        for (KeySpace.Point p : r.points()) {
            points.add(new EngineClient.Point(new BigInteger(Long.toUnsignedString(p.hash())), p.backend()));
        }
        return new EngineClient.Ring(r.type(), points, r.share());
    }
}
