package dev.fulcrum.engine.routing;

import dev.fulcrum.engine.hash.XxHash64;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.RequestContext;
import java.util.ArrayList;
import java.util.List;

/**
 * A route's weighted split between pools ({@code routes[i].split}, docs/REFERENCE.md §2.1), as nginx's
 * {@code split_clients} does it: the sticky key is hashed to a point in {@code [0, 1)} and the arms own consecutive
 * buckets of that line in their order, each as wide as its share of the weights. The same key lands in the same arm on
 * every request and on every instance with the same config, with no state shared. A change of weights moves the
 * lines between the arms, and only users a line passes over change arms: moving weight from the arm before the last
 * into the last (95/5 to 90/10) moves users of that arm into the last and none back; with two arms, growing the last
 * alone does too; with more, a change of the total moves every line toward the start, so users move only toward later
 * arms. A request without a key draws its point at random. Immutable; {@link #arm} allocates nothing.
 *
 * <p>Example: stable 95, canary 5; a key hashing to 0.97 goes to canary, one hashing to 0.93 to stable; at 90/10 the
 * second moves to canary and the first stays.
 */
public record Split(List<Arm> arms, StickyKey stickyBy) {
    /** One arm: a pool and its weight (0-1000; 0 takes no new user). */
    public record Arm(String pool, int weight) {
    }

    public Split {
        arms = List.copyOf(arms);
        stickyBy = stickyBy == null ? StickyKey.NONE : stickyBy;
        if (arms.isEmpty()) {
            throw new IllegalArgumentException("a split needs an arm");
        }
    }

    public int total() {
        int t = 0;
        for (Arm a : arms) {
            t += a.weight();
        }
        return t;
    }

    /** The index of the arm {@code request} goes to. With every weight 0 the first arm takes everything. */
    public int arm(RequestContext request, RandomSource random) {
        int total = total();
        if (total <= 0) {
            return 0;
        }
        String key = stickyBy.of(request);
        long point = key == null ? random.nextInt(total) : bucket(key, total);
        for (int i = 0; i < arms.size(); i++) {
            point -= arms.get(i).weight();
            if (point < 0) {
                return i;
            }
        }
        return arms.size() - 1;
    }

    /** Where {@code key} falls on a line of {@code total} units: the high 32 bits of its hash, scaled. */
    static long bucket(String key, int total) {
        long h = XxHash64.hash(key) >>> 32;
        return (h * total) >>> 32;
    }

    /** The same arms with these weights, in arm order. */
    public Split withWeights(List<Integer> weights) {
        if (weights.size() != arms.size()) {
            throw new IllegalArgumentException("expected " + arms.size() + " weights (got: " + weights.size() + ")");
        }
        List<Arm> next = new ArrayList<>(arms.size());
        for (int i = 0; i < arms.size(); i++) {
            next.add(new Arm(arms.get(i).pool(), weights.get(i)));
        }
        return new Split(next, stickyBy);
    }

    /** Every user to arm {@code index}, the others at 0 (promote: the last arm; roll back: the first). */
    public Split allTo(int index) {
        List<Integer> w = new ArrayList<>(arms.size());
        for (int i = 0; i < arms.size(); i++) {
            w.add(i == index ? 100 : 0);
        }
        return withWeights(w);
    }

    /** The index of the arm sending to {@code pool}, or -1. */
    public int indexOf(String pool) {
        for (int i = 0; i < arms.size(); i++) {
            if (arms.get(i).pool().equals(pool)) {
                return i;
            }
        }
        return -1;
    }

    /** The configured share of arm {@code i}, 0-1. */
    public double share(int i) {
        int total = total();
        return total == 0 ? (i == 0 ? 1 : 0) : (double) arms.get(i).weight() / total;
    }

    /** The weights as text for an event: {@code stable=95 canary=5}. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        for (Arm a : arms) {
            if (b.length() > 0) {
                b.append(' ');
            }
            b.append(a.pool()).append('=').append(a.weight());
        }
        return b.toString();
    }
}
