package dev.fulcrum.engine;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * {@link Engine#batch}: while a batch runs, a pool about to rebuild its snapshot notes that it needs one
 * instead, and each pool noted rebuilds once when the batch ends. A config that reweights 1000 backends of
 * a consistent-hash pool builds its 160,000-point ring once rather than 1000 times, and requests meanwhile
 * see the pool as it was before the batch, never half changed.
 *
 * <p>Example: a batch sets the weight of a, b and c in pool {@code api}. Three weight events are told as the
 * changes are made, {@code api}'s published snapshot stays the old one until the batch ends, then one new
 * snapshot with all three weights is published. A pool created inside the batch gets its first snapshot at
 * once (a request routed there must find one); a pool removed inside it is not rebuilt.
 *
 * <p>Threading: control thread only. A batch inside a batch is part of the outer one.
 */
final class RebuildBatch {
    private boolean open;
    private final Set<Pool> due = new LinkedHashSet<>();

    /**
     * Runs {@code work} as a batch, then rebuilds each pool noted meanwhile that {@code registered} still
     * holds, in the order they were noted (also when {@code work} throws).
     */
    void run(Runnable work, Predicate<Pool> registered) {
        if (open) {
            work.run();
            return;
        }
        open = true;
        try {
            work.run();
        } finally {
            open = false;
            List<Pool> dirty = List.copyOf(due);
            due.clear();
            for (Pool p : dirty) {
                if (registered.test(p)) {
                    p.control().rebuild();
                }
            }
        }
    }

    /** Called by a pool about to rebuild: true when the rebuild waits for the end of the batch. */
    boolean defer(Pool p) {
        if (open) {
            due.add(p);
            return true;
        }
        return false;
    }
}
