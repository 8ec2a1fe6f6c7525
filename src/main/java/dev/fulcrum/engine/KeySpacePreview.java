package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.hash.KeySpace;
import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.time.Ticker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * What-if for the ring view and {@code POST /api/ring/preview}: the candidates a pool would have after
 * removing, adding or reweighting backends, handed to the live key space's {@link KeySpace#preview}.
 * Nothing live changes; added backends exist only inside the preview.
 */
public final class KeySpacePreview {
    private KeySpacePreview() {
    }

    /**
     * @param remove  ids to take out
     * @param add     new ids with their weights (1..1000)
     * @param weights new weights for existing ids (0 removes them from the key space)
     * @return null when the pool's strategy has no key space
     */
    public static KeySpace.Preview preview(Pool pool, List<String> remove, Map<String, Integer> add,
                                           Map<String, Integer> weights) {
        PoolSnapshot s = pool.snapshot();
        KeySpace ks = s.primary().keySpace();
        if (ks == null) {
            return null;
        }
        Map<String, BackendView> members = new java.util.HashMap<>();
        for (BackendView v : s.all()) {
            members.put(v.id(), v);
        }
        for (String id : remove) {
            if (!members.containsKey(id)) {
                throw new EngineException(404, "remove: no such backend in pool " + pool.name() + " (got: " + id + ")");
            }
        }
        for (String id : weights.keySet()) {
            if (!members.containsKey(id)) {
                throw new EngineException(404, "weights: no such backend in pool " + pool.name() + " (got: " + id + ")");
            }
        }
        Candidates c = s.primaryCandidates();
        List<Backend> backends = new ArrayList<>();
        List<Integer> w = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < c.size(); i++) {
            seen.add(c.get(i).id());
            Backend b = c.get(i);
            if (remove.contains(b.id())) {
                continue;
            }
            Integer nw = weights.get(b.id());
            int scaled = nw == null ? c.weight(i) : nw * Strategies.WEIGHT_SCALE;
            if (scaled > 0) {
                backends.add(b);
                w.add(scaled);
            }
        }
        // a member out of the key space only for its weight 0 (UP, a primary) comes back with a new weight, as a
        // reweight would bring it back
        for (Map.Entry<String, Integer> e : weights.entrySet()) {
            BackendView v = members.get(e.getKey());
            if (!seen.contains(v.id()) && !remove.contains(v.id()) && v.weight() == 0 && !v.backup()
                    && v.state() == BackendState.UP && e.getValue() > 0) {
                backends.add(standIn(pool, v.id(), e.getValue()));
                w.add(e.getValue() * Strategies.WEIGHT_SCALE);
            }
        }
        for (Map.Entry<String, Integer> e : add.entrySet()) {
            if (members.containsKey(e.getKey())) {
                throw new EngineException(409, "add: id already exists (got: " + e.getKey() + ")");
            }
            if (e.getValue() > 0) {
                backends.add(standIn(pool, e.getKey(), e.getValue()));
                w.add(e.getValue() * Strategies.WEIGHT_SCALE);
            }
        }
        Integer[] order = new Integer[backends.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, Comparator.comparing(i -> backends.get(i).id()));
        List<Backend> sorted = new ArrayList<>();
        int[] sw = new int[order.length];
        for (int i = 0; i < order.length; i++) {
            sorted.add(backends.get(order[i]));
            sw[i] = w.get(order[i]);
        }
        return ks.preview(new Candidates(sorted, sw));
    }

    /** A backend that exists only inside the preview: the key space places it by id and weight alone. */
    private static Backend standIn(Pool pool, String id, int weight) {
        return new Backend(pool.name(), new BackendSpec(id, "http://127.0.0.1:1", weight, null, false), null,
                BreakerSpec.DISABLED, Ticker.system(), 10_000);
    }
}
