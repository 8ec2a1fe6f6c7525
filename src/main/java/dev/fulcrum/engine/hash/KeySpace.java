package dev.fulcrum.engine.hash;

import dev.fulcrum.engine.strategy.Candidates;
import java.util.List;
import java.util.Map;

/**
 * What a hashing strategy (consistent-hash ring or Maglev table) exposes so the window and {@code /api/ring}
 * can draw it: its points, each backend's share of the key space, the owner of a key, and what a membership
 * or weight change would move, computed without changing anything.
 */
public interface KeySpace {
    /** consistent-hash or maglev. */
    String type();

    /** Ring points in hash order (consistent-hash) or one point per table slot run (maglev). */
    List<Point> points();

    /** Each backend's fraction of the key space; sums to 1 when non-empty. */
    Map<String, Double> share();

    /** The 64-bit hash of a key as this key space computes it. */
    long hash(String key);

    /** The backend that owns the key with no bounded-load spill-over, or null when empty. */
    String owner(String key);

    /**
     * The fraction of the key space that would change owner if the candidates became {@code next}.
     * Built with the same parameters; nothing live is touched.
     */
    Preview preview(Candidates next);

    /** One point: a position in the 64-bit hash space (unsigned order) and the backend owning it. */
    record Point(long hash, String backend) {
    }

    /** What the key space would be: the fraction that changes owner, each backend's share, and its points. */
    record Preview(double movedFraction, Map<String, Double> share, List<Point> points) {
    }
}
