package dev.fulcrum.engine.sim;

import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.Map;

/**
 * One strategy's figures over a replayed recording ({@link LockStep}).
 *
 * @param name               the strategy's label (its type, with its settings when the same type runs twice)
 * @param spec               the strategy as run, defaults filled in
 * @param requestsPerBackend requests each backend took, by id (sorted; every backend listed)
 * @param unrouted           requests no backend took
 * @param peakInFlight       most requests in flight at once on each backend (queued ones included)
 * @param p50Ms              median latency (wait for a worker plus service), from a histogram of three significant
 *                           digits: within 0.1% of the exact value
 * @param p99Ms              99th percentile latency
 * @param p999Ms             99.9th percentile latency
 * @param meanMs             mean latency
 * @param maxMs              longest latency
 * @param keysMoved          for a hashing strategy, each backend's id to the share of sampled keys whose backend
 *                           changes when it leaves; null for the others
 */
public record StrategyFigures(String name, StrategySpec spec, Map<String, Long> requestsPerBackend, long unrouted,
                              Map<String, Integer> peakInFlight, double p50Ms, double p99Ms, double p999Ms,
                              double meanMs, double maxMs, Map<String, Double> keysMoved) {
    public StrategyFigures {
        requestsPerBackend = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(requestsPerBackend));
        peakInFlight = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(peakInFlight));
        keysMoved = keysMoved == null ? null
                : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(keysMoved));
    }

    /** Requests the backends took. */
    public long routed() {
        long n = 0;
        for (long c : requestsPerBackend.values()) {
            n += c;
        }
        return n;
    }

    /** A backend's share of the routed requests, 0..1. */
    public double share(String id) {
        long routed = routed();
        return routed == 0 ? 0 : (double) requestsPerBackend.getOrDefault(id, 0L) / routed;
    }

    /** Most requests on one backend over the mean per backend: 1.0 is perfectly even. */
    public double maxMeanLoad() {
        long max = 0;
        for (long c : requestsPerBackend.values()) {
            max = Math.max(max, c);
        }
        long routed = routed();
        return routed == 0 ? 0 : max / ((double) routed / requestsPerBackend.size());
    }

    /**
     * The coefficient of variation of the requests per backend: their standard deviation (of the population) over
     * their mean; 0 is perfectly even. Counts, not weights: a weighted pool is uneven on purpose.
     */
    public double cv() {
        int n = requestsPerBackend.size();
        double mean = (double) routed() / n;
        if (mean == 0) {
            return 0;
        }
        double sq = 0;
        for (long c : requestsPerBackend.values()) {
            sq += (c - mean) * (c - mean);
        }
        return Math.sqrt(sq / n) / mean;
    }
}
