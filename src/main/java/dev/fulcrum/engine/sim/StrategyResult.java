package dev.fulcrum.engine.sim;

import java.util.Map;

/**
 * One strategy's row in a {@link SideBySideReport}.
 *
 * @param strategy              label: the strategy type (plus its distinguishing parameter when the same type
 *                              runs twice), or {@code naive-weighted-round-robin}
 * @param requestsPerBackend    requests each backend received, by id (sorted; every backend listed)
 * @param unrouted              requests no backend could take (the proxy's 503)
 * @param maxAvgLoadRatio       most requests on one backend over the mean per backend; 1.0 is perfectly even
 * @param maxAvgWeightedRatio   the same per unit of weight (requests / weight); 1.0 is exactly as weighted
 * @param p50Ms                 median simulated latency
 * @param p99Ms                 99th percentile simulated latency (the slow backend shows here)
 * @param meanMs                mean simulated latency
 * @param longestRun            longest run of consecutive picks of the same backend (burstiness)
 * @param longestRunBackend     the backend of that run
 * @param peakInFlight          most requests in flight at once on each backend
 * @param keysMoved             fraction of distinct keys whose backend changed when {@code removedBackend} left,
 *                              or null (N/A) when no backend was removed
 * @param keysMovedNeedlessly   fraction of distinct keys that changed backend although theirs stayed (0 for
 *                              consistent hashing; the cost of modulo and round-robin assignment), or null
 * @param keysMovedMethod       {@code key-map} (hashing strategies: the key to backend map before and after),
 *                              {@code replay} (others: the distinct keys replayed in order, one at a time, on a
 *                              fresh strategy before and after) or {@code N/A}
 */
public record StrategyResult(String strategy, Map<String, Long> requestsPerBackend, long unrouted,
                             double maxAvgLoadRatio, double maxAvgWeightedRatio, double p50Ms, double p99Ms,
                             double meanMs, int longestRun, String longestRunBackend, Map<String, Integer> peakInFlight,
                             Double keysMoved, Double keysMovedNeedlessly, String keysMovedMethod) {
    public StrategyResult {
        requestsPerBackend = Map.copyOf(requestsPerBackend);
        peakInFlight = Map.copyOf(peakInFlight);
    }
}
