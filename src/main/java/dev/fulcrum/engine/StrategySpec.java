package dev.fulcrum.engine;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A strategy as configured (docs/REFERENCE.md §2.2). Null fields take their defaults through {@link #withDefaults()}.
 *
 * @param type          one of {@link #TYPES}
 * @param key           hashing key: ip, path, header:NAME, cookie:NAME, query:NAME (hashing strategies)
 * @param virtualNodes  ring points per unit of weight... per backend (consistent-hash)
 * @param balanceFactor bounded-loads factor, e.g. 1.25; null = off (consistent-hash)
 * @param choices       draws per pick (power-of-two)
 * @param tableSize     Maglev lookup table size, prime (maglev)
 * @param decayMs       peak-EWMA decay time (fastest-response)
 * @param weights       cpu / latency / inflight weights of the adaptive score (adaptive)
 * @param staleAfterMs  metrics older than this count as missing (adaptive)
 */
public record StrategySpec(String type, String key, Integer virtualNodes, Double balanceFactor, Integer choices,
                           Integer tableSize, Long decayMs, Map<String, Double> weights, Long staleAfterMs) {

    public static final String ROUND_ROBIN = "round-robin";
    public static final String RANDOM = "random";
    public static final String WEIGHTED_RANDOM = "weighted-random";
    public static final String SMOOTH_WRR = "smooth-weighted-round-robin";
    public static final String LEAST_REQUESTS = "least-requests";
    public static final String POWER_OF_TWO = "power-of-two";
    public static final String CONSISTENT_HASH = "consistent-hash";
    public static final String MAGLEV = "maglev";
    public static final String IP_HASH = "ip-hash";
    public static final String FASTEST_RESPONSE = "fastest-response";
    public static final String ADAPTIVE = "adaptive";

    /** Every strategy name, in the order docs/REFERENCE.md §2.2 lists them. */
    public static final List<String> TYPES = List.of(ROUND_ROBIN, RANDOM, WEIGHTED_RANDOM, SMOOTH_WRR, LEAST_REQUESTS,
            POWER_OF_TWO, CONSISTENT_HASH, MAGLEV, IP_HASH, FASTEST_RESPONSE, ADAPTIVE);

    /**
     * The strategies whose picks never read a backend's weight (beyond weight 0 leaving the candidates, which the
     * pool does for every strategy): round robin and random pick evenly, fastest-response by latency and in-flight
     * (as Finagle's). Slow start, which ramps the weight, has nothing to act on under them.
     */
    public static final Set<String> WEIGHT_BLIND = Set.of(ROUND_ROBIN, RANDOM, FASTEST_RESPONSE);

    public static final Map<String, Double> DEFAULT_ADAPTIVE_WEIGHTS = Map.of("cpu", 0.5, "latency", 0.3, "inflight", 0.2);

    public static StrategySpec of(String type) {
        return new StrategySpec(type, null, null, null, null, null, null, null, null).withDefaults();
    }

    /** This spec with every null field that applies to its type set to the docs/REFERENCE.md §2.2 default. */
    public StrategySpec withDefaults() {
        boolean hashing = CONSISTENT_HASH.equals(type) || MAGLEV.equals(type);
        return new StrategySpec(type,
                key != null ? key : hashing ? "ip" : null,
                virtualNodes != null ? virtualNodes : CONSISTENT_HASH.equals(type) ? 160 : null,
                balanceFactor,
                choices != null ? choices : POWER_OF_TWO.equals(type) ? 2 : null,
                tableSize != null ? tableSize : MAGLEV.equals(type) ? 65537 : null,
                decayMs != null ? decayMs : FASTEST_RESPONSE.equals(type) ? 10_000L : null,
                weights != null ? Map.copyOf(weights) : ADAPTIVE.equals(type) ? DEFAULT_ADAPTIVE_WEIGHTS : null,
                staleAfterMs != null ? staleAfterMs : ADAPTIVE.equals(type) ? 10_000L : null);
    }

    /** Whether picks depend on the backends' weights, so that slow start's ramp changes them. */
    public boolean readsWeights() {
        return !WEIGHT_BLIND.contains(type);
    }

    public StrategySpec withType(String newType) {
        return new StrategySpec(newType, null, null, null, null, null, null, null, null).withDefaults();
    }
}
