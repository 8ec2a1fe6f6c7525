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

    /** What a person calls each strategy (the config's names are for files and the API). */
    public static final Map<String, String> NAMES = Map.ofEntries(
            Map.entry(StrategySpec.ROUND_ROBIN, "round robin"),
            Map.entry(StrategySpec.RANDOM, "random"),
            Map.entry(StrategySpec.WEIGHTED_RANDOM, "weighted random"),
            Map.entry(StrategySpec.SMOOTH_WRR, "smooth weighted round robin"),
            Map.entry(StrategySpec.LEAST_REQUESTS, "least requests"),
            Map.entry(StrategySpec.POWER_OF_TWO, "power of two choices"),
            Map.entry(StrategySpec.CONSISTENT_HASH, "consistent hashing"),
            Map.entry(StrategySpec.MAGLEV, "Maglev hashing"),
            Map.entry(StrategySpec.IP_HASH, "client IP hashing"),
            Map.entry(StrategySpec.FASTEST_RESPONSE, "fastest response"),
            Map.entry(StrategySpec.ADAPTIVE, "adaptive (live metrics)"));

    /**
     * A strategy object in words, its parameters by what they do, each config field named once where a person would
     * look it up: {@code {type=consistent-hash, key=path, virtualNodes=160, balanceFactor=1.25}} reads "consistent
     * hashing on the path, 160 virtual nodes per backend, bounded loads at 1.25x the average (balanceFactor=1.25)".
     */
    public static String describe(Map<String, Object> strategy) {
        if (strategy == null || strategy.get("type") == null) {
            return "no strategy";
        }
        String type = strategy.get("type").toString();
        StringBuilder b = new StringBuilder(NAMES.getOrDefault(type, type));
        Object key = strategy.get("key");
        if (key != null) {
            b.append(" on ").append(keyText(key.toString()));
        }
        List<String> parts = new java.util.ArrayList<>();
        Object v;
        if ((v = strategy.get("virtualNodes")) != null) {
            parts.add(v + " virtual nodes per backend");
        }
        if ((v = strategy.get("balanceFactor")) != null) {
            parts.add("bounded loads at " + v + "x the average (balanceFactor=" + v + ")");
        }
        if ((v = strategy.get("tableSize")) != null) {
            parts.add("a table of " + v + " slots");
        }
        if ((v = strategy.get("choices")) != null) {
            parts.add("the best of " + v + " drawn");
        }
        if ((v = strategy.get("decayMs")) != null) {
            parts.add("latency remembered over " + v + " ms");
        }
        if ((v = strategy.get("staleAfterMs")) != null) {
            parts.add("metrics older than " + v + " ms ignored");
        }
        if (strategy.get("weights") instanceof Map<?, ?> w && !w.isEmpty()) {
            parts.add("scored " + w.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                    .collect(java.util.stream.Collectors.joining(", ")));
        }
        for (String p : parts) {
            b.append(", ").append(p);
        }
        return b.toString();
    }

    /** {@code path} → "the path", {@code header:X-User} → "header X-User", {@code ip} → "the client's IP". */
    static String keyText(String key) {
        int colon = key.indexOf(':');
        if (colon > 0) {
            return key.substring(0, colon) + " " + key.substring(colon + 1);
        }
        return switch (key) {
            case "ip" -> "the client's IP";
            case "path" -> "the path";
            default -> key;
        };
    }

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
