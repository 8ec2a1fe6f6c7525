package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import java.util.List;

/**
 * The backends a strategy chooses among, sorted by id, each with its effective weight (slow start already
 * applied, always at least 1: backends at weight 0 never become candidates).
 */
public record Candidates(List<Backend> backends, int[] weights) {
    public static final Candidates EMPTY = new Candidates(List.of(), new int[0]);

    public Candidates {
        backends = List.copyOf(backends);
        if (weights.length != backends.size()) {
            throw new IllegalArgumentException("weights: one per backend expected (got: " + weights.length + ")");
        }
    }

    public int size() {
        return backends.size();
    }

    public Backend get(int i) {
        return backends.get(i);
    }

    public int weight(int i) {
        return weights[i];
    }

    public boolean isEmpty() {
        return backends.isEmpty();
    }

    public long totalWeight() {
        long t = 0;
        for (int w : weights) {
            t += w;
        }
        return t;
    }
}
