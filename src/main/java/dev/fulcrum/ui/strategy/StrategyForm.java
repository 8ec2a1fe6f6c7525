package dev.fulcrum.ui.strategy;

import dev.fulcrum.engine.StrategySpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the strategy view knows about each docs/REFERENCE.md §2.2 strategy: one sentence saying how it picks, which
 * options it takes, and how to turn the form into the strategy object {@code setStrategy} expects.
 */
public final class StrategyForm {
    private StrategyForm() {
    }

    public static final Map<String, String> EXPLANATIONS = Map.ofEntries(
            Map.entry(StrategySpec.ROUND_ROBIN, "Each backend in turn, ignoring weights: a b c a b c."),
            Map.entry(StrategySpec.RANDOM, "A uniformly random backend for every request, ignoring weights."),
            Map.entry(StrategySpec.WEIGHTED_RANDOM, "A random backend, each chosen in proportion to its weight."),
            Map.entry(StrategySpec.SMOOTH_WRR, "nginx's weighted round robin: weights 5,1,1 give a a b a c a a, "
                    + "spreading the heavy backend's turns instead of bunching them."),
            Map.entry(StrategySpec.LEAST_REQUESTS, "The backend with the fewest in-flight requests per unit of weight."),
            Map.entry(StrategySpec.POWER_OF_TWO, "Draw N backends at random (by weight) and take the one with the "
                    + "fewest in-flight requests: nearly as good as least-requests, without scanning everyone."),
            Map.entry(StrategySpec.CONSISTENT_HASH, "Hash the request key onto a ring of virtual nodes: the same key "
                    + "goes to the same backend, and adding or removing one moves only its share of keys."),
            Map.entry(StrategySpec.MAGLEV, "Google's Maglev: a prime-sized lookup table filled by each backend's "
                    + "preference order, for even shares and minimal disruption with O(1) lookups."),
            Map.entry(StrategySpec.IP_HASH, "Hash the client's IP address to pick a backend (nginx's ip_hash)."),
            Map.entry(StrategySpec.FASTEST_RESPONSE, "The backend with the lowest peak-EWMA latency × (in-flight + 1), "
                    + "decaying old measurements over decayMs."),
            Map.entry(StrategySpec.ADAPTIVE, "A weighted-random pick scored from each backend's live CPU, latency "
                    + "and in-flight metrics (read from /metrics.json)."));

    /** Option fields each type takes (besides type), in the order docs/REFERENCE.md §2.2 lists them. */
    public static final Map<String, List<String>> OPTIONS = Map.of(
            StrategySpec.CONSISTENT_HASH, List.of("key", "virtualNodes", "balanceFactor"),
            StrategySpec.MAGLEV, List.of("key", "tableSize"),
            StrategySpec.POWER_OF_TWO, List.of("choices"),
            StrategySpec.FASTEST_RESPONSE, List.of("decayMs"),
            StrategySpec.ADAPTIVE, List.of("staleAfterMs"));

    public static final List<String> KEYS = List.of("ip", "path", "header:X-User", "cookie:session", "query:user");

    public static List<String> options(String type) {
        return OPTIONS.getOrDefault(type, List.of());
    }

    /**
     * The strategy object for {@code type} from the form's texts (blank = the default). Numbers that do not
     * parse are sent as text so the engine's validation names the field and the value.
     */
    public static Map<String, Object> toMap(String type, Map<String, String> fields) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        for (String f : options(type)) {
            String v = fields.get(f);
            if (v == null || v.isBlank()) {
                continue;
            }
            v = v.trim();
            m.put(f, "key".equals(f) ? v : number(v, "balanceFactor".equals(f)));
        }
        return m;
    }

    private static Object number(String v, boolean decimal) {
        try {
            return decimal ? (Object) Double.parseDouble(v) : (Object) Long.parseLong(v);
        } catch (NumberFormatException e) {
            return v;
        }
    }
}
