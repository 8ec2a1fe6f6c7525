package dev.fulcrum.engine;

import dev.fulcrum.rules.Limits;
import dev.fulcrum.rules.Violation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds a strategy by its docs/REFERENCE.md §2.2 name. Candidate weights arrive scaled by {@link #WEIGHT_SCALE}
 * (effective weight in hundredths) so slow start can ramp a weight-1 backend smoothly; the ratios, and so
 * every weighted sequence, are the same as with the configured weights.
 *
 * <p>Each strategy is a small final class of this package: {@link RoundRobin}, {@link RandomChoice},
 * {@link WeightedRandom}, {@link SmoothWeightedRoundRobin}, {@link LeastRequests}, {@link PowerOfTwoChoices},
 * {@link ConsistentHash} (over a {@link HashRing}), {@link Maglev} (over a {@link MaglevTable}),
 * {@link IpHash}, {@link FastestResponse} and {@link Adaptive}.
 */
public final class Strategies {
    public static final int WEIGHT_SCALE = 100;

    /** Fields each strategy type takes besides {@code type}, in the order docs/REFERENCE.md §2.2 lists them. */
    private static final Map<String, List<String>> FIELDS = Map.ofEntries(
            Map.entry(StrategySpec.ROUND_ROBIN, List.of()),
            Map.entry(StrategySpec.RANDOM, List.of()),
            Map.entry(StrategySpec.WEIGHTED_RANDOM, List.of()),
            Map.entry(StrategySpec.SMOOTH_WRR, List.of()),
            Map.entry(StrategySpec.LEAST_REQUESTS, List.of()),
            Map.entry(StrategySpec.POWER_OF_TWO, List.of("choices")),
            Map.entry(StrategySpec.CONSISTENT_HASH, List.of("key", "virtualNodes", "balanceFactor")),
            Map.entry(StrategySpec.MAGLEV, List.of("key", "tableSize")),
            Map.entry(StrategySpec.IP_HASH, List.of()),
            Map.entry(StrategySpec.FASTEST_RESPONSE, List.of("decayMs")),
            Map.entry(StrategySpec.ADAPTIVE, List.of("weights", "staleAfterMs")));

    private Strategies() {
    }

    /**
     * @param spec       the strategy as configured; null fields take their defaults
     * @param candidates who may be picked, sorted by id, with scaled effective weights
     * @param previous   the strategy this one replaces (same pool, previous snapshot), or null; smooth weighted
     *                   round robin keeps its current weights from it, the ring and table reuse their
     *                   structure when membership and weights did not change
     * @param env        clock, randomness and the pool's in-flight count
     * @throws EngineException 400 naming the field when the spec is invalid (see {@link #validate})
     */
    public static Strategy create(StrategySpec spec, Candidates candidates, Strategy previous, StrategyEnv env) {
        StrategySpec s = spec.withDefaults();
        List<Violation> problems = violations(s);
        if (!problems.isEmpty()) {
            throw new EngineException(400, "strategy." + problems.get(0).describe());
        }
        requireDistinctIds(candidates);
        Strategy prev = previous != null && s.type().equals(previous.type()) ? previous : null;
        return switch (s.type()) {
            case StrategySpec.ROUND_ROBIN -> new RoundRobin(candidates, prev);
            case StrategySpec.RANDOM -> new RandomChoice(candidates, env);
            case StrategySpec.WEIGHTED_RANDOM -> new WeightedRandom(candidates, env);
            case StrategySpec.SMOOTH_WRR -> new SmoothWeightedRoundRobin(candidates, prev);
            case StrategySpec.LEAST_REQUESTS -> new LeastRequests(candidates, env);
            case StrategySpec.POWER_OF_TWO -> new PowerOfTwoChoices(candidates, s.choices(), env);
            case StrategySpec.CONSISTENT_HASH -> new ConsistentHash(candidates, s, prev, env);
            case StrategySpec.MAGLEV -> new Maglev(candidates, s, prev);
            case StrategySpec.IP_HASH -> new IpHash(candidates);
            case StrategySpec.FASTEST_RESPONSE -> new FastestResponse(candidates, env);
            case StrategySpec.ADAPTIVE -> new Adaptive(candidates, s, env);
            default -> throw new EngineException(400, "strategy.type: unknown strategy (got: " + s.type() + ")");
        };
    }

    /**
     * Every problem with a spec, each as {@code field: what is wrong (got: value)} relative to the strategy object,
     * e.g. {@code tableSize: must be prime (e.g. 65537) (got: 65536)}; empty when it is valid. {@link #create}
     * throws the first one.
     */
    public static List<String> validate(StrategySpec spec) {
        return violations(spec).stream().map(Violation::describe).toList();
    }

    /**
     * Every problem with a spec, in the order of its fields: the one check of a strategy object, which the config
     * file, the admin API and the engine share (the config reader puts the JSON path in front). A field its type does
     * not use is a problem, as an unknown field is: it would be silently ignored otherwise. Bounds are
     * {@link Limits}'.
     */
    public static List<Violation> violations(StrategySpec s) {
        List<Violation> out = new ArrayList<>();
        String type = s.type();
        if (type == null) {
            out.add(new Violation("type", "required", null));
            return out;
        }
        List<String> uses = FIELDS.get(type);
        if (uses == null) {
            out.add(new Violation("type", "unknown strategy, one of " + String.join(", ", StrategySpec.TYPES), type));
            return out;
        }
        Map<String, Object> set = new LinkedHashMap<>();
        set.put("key", s.key());
        set.put("virtualNodes", s.virtualNodes());
        set.put("balanceFactor", s.balanceFactor());
        set.put("choices", s.choices());
        set.put("tableSize", s.tableSize());
        set.put("decayMs", s.decayMs());
        set.put("weights", s.weights());
        set.put("staleAfterMs", s.staleAfterMs());
        set.forEach((field, value) -> {
            if (value != null && !uses.contains(field)) {
                out.add(new Violation(field, "not used by strategy " + type
                        + (uses.isEmpty() ? " (it takes no settings)" : ", which takes " + String.join(", ", uses)),
                        value));
            }
        });
        if (uses.contains("key")) {
            check(out, "key", Limits.hashKey(s.key()), s.key());
        }
        if (uses.contains("virtualNodes") && s.virtualNodes() != null) {
            check(out, "virtualNodes", Limits.virtualNodes(s.virtualNodes()), s.virtualNodes());
        }
        if (uses.contains("balanceFactor")) {
            check(out, "balanceFactor", Limits.balanceFactor(s.balanceFactor()), s.balanceFactor());
        }
        if (uses.contains("choices") && s.choices() != null) {
            check(out, "choices", Limits.choices(s.choices()), s.choices());
        }
        if (uses.contains("tableSize") && s.tableSize() != null) {
            check(out, "tableSize", Limits.tableSize(s.tableSize()), s.tableSize());
        }
        if (uses.contains("decayMs") && s.decayMs() != null) {
            check(out, "decayMs", Limits.positiveMs(s.decayMs()), s.decayMs());
        }
        if (uses.contains("staleAfterMs") && s.staleAfterMs() != null) {
            check(out, "staleAfterMs", Limits.positiveMs(s.staleAfterMs()), s.staleAfterMs());
        }
        if (uses.contains("weights") && s.weights() != null) {
            metricWeights(out, s.weights());
        }
        return out;
    }

    private static void metricWeights(List<Violation> out, Map<String, Double> weights) {
        boolean anyPositive = false;
        for (Map.Entry<String, Double> e : new TreeMap<>(weights).entrySet()) {
            String field = "weights." + e.getKey();
            if (!Limits.ADAPTIVE_METRICS.contains(e.getKey())) {
                out.add(new Violation(field, "unknown metric, one of " + String.join(", ", Limits.ADAPTIVE_METRICS),
                        e.getKey()));
            } else if (Limits.metricWeight(e.getValue()) != null) {
                out.add(new Violation(field, Limits.metricWeight(e.getValue()), e.getValue()));
            } else if (e.getValue() > 0) {
                anyPositive = true;
            }
        }
        if (weights.isEmpty()) {
            out.add(new Violation("weights", "must name at least one of " + String.join(", ", Limits.ADAPTIVE_METRICS),
                    "{}"));
        } else if (!anyPositive && Limits.ADAPTIVE_METRICS.containsAll(weights.keySet())) {
            out.add(new Violation("weights", "at least one weight must be greater than 0", weights.toString()));
        }
    }

    private static void check(List<Violation> out, String field, String problem, Object value) {
        if (problem != null) {
            out.add(new Violation(field, problem, value));
        }
    }

    /** Strategies that key state by id (ring, table, smooth WRR) would silently merge two backends. */
    private static void requireDistinctIds(Candidates candidates) {
        Set<String> seen = new HashSet<>();
        for (Backend b : candidates.backends()) {
            if (!seen.add(b.id())) {
                throw new IllegalArgumentException("candidates: duplicate backend id (got: " + b.id() + ")");
            }
        }
    }
}
