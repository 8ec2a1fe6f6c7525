package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.CircuitBreaker;

/**
 * An immutable picture of one backend for the admin API and the window (docs/REFERENCE.md §4 {@code GET /api/state}).
 * {@code unverified}: UP again after an ejection ended, and nothing (a request, an active probe) has succeeded on it
 * since.
 */
public record BackendView(String id, String pool, String url, int weight, double effectiveWeight, BackendState state,
                          HealthStatus health, CircuitBreaker.State breaker, int activeRequests, long totalRequests,
                          long failures, double rps, double errorRate, double latencyP50Ms, double latencyP99Ms,
                          boolean backup, Integer maxInFlight, int timesEjected, long ejectedForMs,
                          boolean unverified) {
}
