package dev.fulcrum.engine.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * The textbook weighted round robin that smooth WRR replaces, kept here only as a comparison in the
 * side-by-side simulator (it is not a product strategy): expand each backend into {@code weight} slots in id
 * order and walk the list. Weights a=5, b=1, c=1 give {@code a a a a a b c}, repeating: a burst of five
 * requests to {@code a} every cycle, where smooth WRR gives {@code a a b a c a a} (a run of 4 only where two
 * cycles meet). With 8,2,1,1 the naive list sends runs of 8, smooth WRR at most 3. The longest-run metric of
 * {@link SideBySide} makes the difference visible. A backend at weight 0 gets no slot.
 */
final class NaiveWeightedRoundRobin {
    public static final String NAME = "naive-weighted-round-robin";

    private final List<String> slots;
    private long next;

    NaiveWeightedRoundRobin(List<SimBackend> backends) {
        List<SimBackend> sorted = new ArrayList<>(backends);
        sorted.sort((x, y) -> x.id().compareTo(y.id()));
        List<String> s = new ArrayList<>();
        for (SimBackend b : sorted) {
            for (int i = 0; i < b.weight(); i++) {
                s.add(b.id());
            }
        }
        this.slots = List.copyOf(s);
    }

    /** The expanded slot list, e.g. [a, a, a, a, a, b, c]. */
    List<String> slots() {
        return slots;
    }

    /** The next backend id, or null when every weight is 0. */
    String pick() {
        if (slots.isEmpty()) {
            return null;
        }
        return slots.get((int) (next++ % slots.size()));
    }
}
