package dev.fulcrum.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

    /** Largest accepted Maglev table: 10M slots is 40 MB of table, well past any sensible pool. */
    public static final int MAX_TABLE_SIZE = 10_000_000;
    public static final int MAX_VIRTUAL_NODES = 10_000;
    public static final int MAX_CHOICES = 100;

    private static final Set<String> ADAPTIVE_METRICS = Set.of("cpu", "latency", "inflight");

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
        List<String> problems = validate(s);
        if (!problems.isEmpty()) {
            throw new EngineException(400, "strategy." + problems.get(0));
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
     * Every problem with a spec (after {@link StrategySpec#withDefaults()}), each as
     * {@code field: what is wrong (got: value)} relative to the strategy object, e.g.
     * {@code tableSize: must be a prime (got: 65536)}; empty when it is valid. The config reader prefixes
     * the json path; {@link #create} throws the first one.
     */
    public static List<String> validate(StrategySpec spec) {
        List<String> errors = new ArrayList<>();
        StrategySpec s = spec.withDefaults();
        if (s.type() == null || !StrategySpec.TYPES.contains(s.type())) {
            errors.add("type: must be one of " + String.join(", ", StrategySpec.TYPES) + " (got: " + s.type() + ")");
            return errors;
        }
        if (s.key() != null) {
            try {
                HashKey.parse(s.key());
            } catch (EngineException e) {
                errors.add("key: must be ip, path, header:NAME, cookie:NAME or query:NAME (got: " + s.key() + ")");
            }
        }
        if (s.virtualNodes() != null && (s.virtualNodes() < 1 || s.virtualNodes() > MAX_VIRTUAL_NODES)) {
            errors.add("virtualNodes: must be between 1 and " + MAX_VIRTUAL_NODES + " (got: " + s.virtualNodes() + ")");
        }
        if (s.balanceFactor() != null && !(s.balanceFactor() >= 1.0 && s.balanceFactor() <= 100.0)) {
            errors.add("balanceFactor: must be between 1.0 and 100 (got: " + s.balanceFactor() + ")");
        }
        if (s.choices() != null && (s.choices() < 2 || s.choices() > MAX_CHOICES)) {
            errors.add("choices: must be between 2 and " + MAX_CHOICES + " (got: " + s.choices() + ")");
        }
        if (s.tableSize() != null && (s.tableSize() < 3 || s.tableSize() > MAX_TABLE_SIZE || !isPrime(s.tableSize()))) {
            errors.add("tableSize: must be a prime between 3 and " + MAX_TABLE_SIZE + " (got: " + s.tableSize() + ")");
        }
        if (s.decayMs() != null && s.decayMs() < 1) {
            errors.add("decayMs: must be at least 1 (got: " + s.decayMs() + ")");
        }
        if (s.staleAfterMs() != null && s.staleAfterMs() < 1) {
            errors.add("staleAfterMs: must be at least 1 (got: " + s.staleAfterMs() + ")");
        }
        if (s.weights() != null) {
            double sum = 0;
            for (Map.Entry<String, Double> e : s.weights().entrySet()) {
                if (!ADAPTIVE_METRICS.contains(e.getKey())) {
                    errors.add("weights: keys must be cpu, latency, inflight (got: " + e.getKey() + ")");
                } else if (e.getValue() == null || !(e.getValue() >= 0) || e.getValue().isInfinite()) {
                    errors.add("weights." + e.getKey() + ": must be a number >= 0 (got: " + e.getValue() + ")");
                } else {
                    sum += e.getValue();
                }
            }
            if (errors.isEmpty() && !(sum > 0)) {
                errors.add("weights: at least one of cpu, latency, inflight must be above 0 (got: " + s.weights() + ")");
            }
        }
        return errors;
    }

    /** Strategies that key state by id (ring, table, smooth WRR) would silently merge two backends. */
    private static void requireDistinctIds(Candidates candidates) {
        Set<String> seen = new java.util.HashSet<>();
        for (Backend b : candidates.backends()) {
            if (!seen.add(b.id())) {
                throw new IllegalArgumentException("candidates: duplicate backend id (got: " + b.id() + ")");
            }
        }
    }

    /** Whether a Maglev table size is prime (the config validator asks too). */
    public static boolean isPrime(int n) {
        if (n < 2) {
            return false;
        }
        if (n % 2 == 0) {
            return n == 2;
        }
        for (int d = 3; (long) d * d <= n; d += 2) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }
}
