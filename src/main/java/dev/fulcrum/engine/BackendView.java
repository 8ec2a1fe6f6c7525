package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.CircuitBreaker;
import java.util.Map;

/**
 * An immutable picture of one backend for the admin API and the window (docs/REFERENCE.md §4 {@code GET /api/state}).
 * {@code unverified}: UP again after an ejection ended, and nothing (a request, an active probe) has succeeded on it
 * since. {@code labels}: its labels, sorted by name, never null.
 */
public record BackendView(String id, String pool, String url, int weight, double effectiveWeight, BackendState state,
                          HealthStatus health, CircuitBreaker.State breaker, int activeRequests, long totalRequests,
                          long failures, double rps, double errorRate, double latencyP50Ms, double latencyP99Ms,
                          boolean backup, Integer maxInFlight, int timesEjected, long ejectedForMs,
                          boolean unverified, Map<String, String> labels) {
    public BackendView {
        labels = labels == null ? Map.of() : labels;
    }

    /** A backend with no labels. */
    public BackendView(String id, String pool, String url, int weight, double effectiveWeight, BackendState state,
                       HealthStatus health, CircuitBreaker.State breaker, int activeRequests, long totalRequests,
                       long failures, double rps, double errorRate, double latencyP50Ms, double latencyP99Ms,
                       boolean backup, Integer maxInFlight, int timesEjected, long ejectedForMs, boolean unverified) {
        this(id, pool, url, weight, effectiveWeight, state, health, breaker, activeRequests, totalRequests, failures,
                rps, errorRate, latencyP50Ms, latencyP99Ms, backup, maxInFlight, timesEjected, ejectedForMs,
                unverified, Map.of());
    }
}
