package dev.fulcrum.admin;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;
import java.util.Map;

/**
 * What the window shows, exactly the JSON of {@code GET /api/state} (docs/REFERENCE.md §4) read into records, so the
 * in-process and the remote {@link EngineClient} produce the same thing. Unknown fields are ignored here
 * (a newer engine may add some); the admin API itself is strict about what it accepts.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record EngineState(String proxy, Map<String, Object> strategy, Map<String, PoolInfo> pools,
                          List<RouteInfo> routes, List<BackendInfo> backends, RequestCounts requests,
                          ConfigSourceInfo configSource) {

    /** A state whose config is not kept in etcd ({@code configSource} absent). */
    public EngineState(String proxy, Map<String, Object> strategy, Map<String, PoolInfo> pools, List<RouteInfo> routes,
                       List<BackendInfo> backends, RequestCounts requests) {
        this(proxy, strategy, pools, routes, backends, requests, null);
    }

    /** A state without the engine's own request counts (an engine that does not publish them: HAProxy). */
    public EngineState(String proxy, Map<String, Object> strategy, Map<String, PoolInfo> pools, List<RouteInfo> routes,
                       List<BackendInfo> backends) {
        this(proxy, strategy, pools, routes, backends, null);
    }

    /**
     * The requests the engine answered since it started, each once whatever its attempts, and those answered with a
     * status of 500 or more; the rates over the last second. What its clients saw, where a backend's
     * {@code totalRequests} and {@code failures} count attempts.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record RequestCounts(long total, long errors, double rps, double errorRps) {
    }

    /**
     * Where the engine's config comes from when it is kept in etcd ({@code --config etcd://...}, docs/REFERENCE.md §4
     * and §8); absent (null) for a config file.
     *
     * @param type     {@code etcd}
     * @param url      the {@code etcd://HOST:PORT[,...]/PREFIX} given
     * @param key      the config's key, {@code PREFIX/config}
     * @param instance this instance's id ({@code PREFIX/instances/ID})
     * @param state    {@code ok} or {@code unreachable}
     * @param since    when the state began, epoch ms
     * @param revision the mod revision of the config applied (0: none yet)
     * @param rejected the latest config refused, while no later one was applied; null otherwise
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ConfigSourceInfo(String type, String url, String key, String instance, String state, long since,
                                   long revision, Rejected rejected) {
        /** Whether the store answers. */
        public boolean reachable() {
            return !"unreachable".equals(state);
        }
    }

    /** A config refused: its mod revision, when (epoch ms) and why (each problem as a config file's error). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Rejected(long revision, long at, List<String> problems) {
        public Rejected {
            problems = problems == null ? List.of() : List.copyOf(problems);
        }
    }

    /** @param mirror the copies this pool received as a mirror pool (docs/REFERENCE.md §2.1), or null when none */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PoolInfo(Map<String, Object> strategy, boolean panic, int inFlight, MirrorCounts mirror) {
        public PoolInfo(Map<String, Object> strategy, boolean panic, int inFlight) {
            this(strategy, panic, inFlight, null);
        }
    }

    /**
     * A route ({@code routes[i]}, docs/REFERENCE.md §2.1 and §4) with its live split, mirror and guard.
     *
     * @param index      its place in {@code routes} as written
     * @param pathPrefix null when it matches any path
     * @param pool       null when it splits
     * @param match      its {@code match} as configured (host, method, headers, cookies, query), or null
     * @param routeClass {@code "class"}, or null
     * @param strategy   its own strategy, or null
     * @param split      each arm now, with its figures over the last minute; null without a split
     * @param shed       requests shed at its class ceiling
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record RouteInfo(int index, String pathPrefix, String pool, boolean stripPrefix, Map<String, Object> match,
                            @com.fasterxml.jackson.annotation.JsonProperty("class") String routeClass,
                            Map<String, Object> strategy, Integer maxInFlightPerBackend, List<ArmInfo> split,
                            String stickyBy, MirrorInfo mirror, GuardInfo guard, long shed) {
        public RouteInfo(String pathPrefix, String pool, boolean stripPrefix) {
            this(0, pathPrefix, pool, stripPrefix, null, null, null, null, null, null, null, null, 0);
        }
    }

    /**
     * One arm of a split: its weight now and configured share (0-1), and over the last minute its measured share of the
     * route's requests, requests, errors (status 500 or more), rate over the last second, error rate, p50 and p99.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ArmInfo(String pool, int weight, double share, double measuredShare, long requests, long errors,
                          double rps, double errorRate, double p50Ms, double p99Ms) {
    }

    /** A route's mirror: where, how much, and its copies' counts. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record MirrorInfo(String pool, double percent, int maxBodyBytes, long sent, long errors, long failed,
                             long tooLarge, long dropped) {
    }

    /** A mirror pool's copies: sent, answered 5xx or failed, failed without an answer, too large, dropped. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record MirrorCounts(long sent, long errors, long failed, long tooLarge, long dropped) {
    }

    /**
     * A route's canary guard: its bounds, and {@code state} (watching, too-few, breaching, rolled-back, idle) since
     * {@code since} (epoch ms, 0 before its first judgement) with the reason (the figures; null while watching).
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record GuardInfo(String arm, Double errorRateAbove, Double p99AboveBaselineBy, int minRequests, long forMs,
                            String state, long since, String reason) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record BreakerInfo(String state, double failureRate, double slowCallRate, long msUntilHalfOpen,
                              List<String> recent, long lastTransitionAt, Double trippedFailureRate,
                              Double trippedSlowCallRate, int probes, int probesAdmitted, int probesSucceeded) {
        /** Without the trip and probe figures (an engine that does not publish them). */
        public BreakerInfo(String state, double failureRate, double slowCallRate, long msUntilHalfOpen,
                           List<String> recent, long lastTransitionAt) {
            this(state, failureRate, slowCallRate, msUntilHalfOpen, recent, lastTransitionAt, null, null, 0, 0, 0);
        }
    }

    /**
     * One backend; {@code state} is UP, DOWN, EJECTED, DRAINING or DRAINED; {@code unverified}: UP again after an
     * ejection ended, and nothing (a request, an active probe) has succeeded on it since; {@code labels}: its labels
     * sorted by name, empty (never null) when it has none or the engine keeps none (HAProxy); {@code score} and
     * {@code scoreFallback} (stale, missing or null): its score where its pool uses the score strategy, both null
     * otherwise (docs/REFERENCE.md §2.2.1).
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record BackendInfo(String id, String pool, String url, int weight, double effectiveWeight, String state,
                              String health, BreakerInfo breaker, int activeRequests, long totalRequests,
                              long failures, double rps, double errorRate, double latencyP50Ms,
                              double latencyP99Ms, boolean backup, Integer maxInFlight, int timesEjected,
                              long ejectedForMs, boolean unverified, Map<String, String> labels, Double score,
                              String scoreFallback) {

        /** Not scored (its pool's strategy gives no scores, or the engine does not say). */
        public BackendInfo(String id, String pool, String url, int weight, double effectiveWeight, String state,
                           String health, BreakerInfo breaker, int activeRequests, long totalRequests, long failures,
                           double rps, double errorRate, double latencyP50Ms, double latencyP99Ms, boolean backup,
                           Integer maxInFlight, int timesEjected, long ejectedForMs, boolean unverified,
                           Map<String, String> labels) {
            this(id, pool, url, weight, effectiveWeight, state, health, breaker, activeRequests, totalRequests,
                    failures, rps, errorRate, latencyP50Ms, latencyP99Ms, backup, maxInFlight, timesEjected,
                    ejectedForMs, unverified, labels, null, null);
        }

        /** What "UP (unverified)" means, for a tooltip beside it. */
        public static final String UNVERIFIED_MEANS = "back in rotation since its ejection ended, and nothing has shown"
                + " it works yet: no request to it has succeeded since, and no active health check says it is UP";

        public BackendInfo {
            labels = labels == null || labels.isEmpty() ? Map.of()
                    : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(labels));
        }

        /** Without labels (an engine that keeps none). */
        public BackendInfo(String id, String pool, String url, int weight, double effectiveWeight, String state,
                           String health, BreakerInfo breaker, int activeRequests, long totalRequests, long failures,
                           double rps, double errorRate, double latencyP50Ms, double latencyP99Ms, boolean backup,
                           Integer maxInFlight, int timesEjected, long ejectedForMs, boolean unverified) {
            this(id, pool, url, weight, effectiveWeight, state, health, breaker, activeRequests, totalRequests,
                    failures, rps, errorRate, latencyP50Ms, latencyP99Ms, backup, maxInFlight, timesEjected,
                    ejectedForMs, unverified, Map.of());
        }

        /**
         * The labels on one line, as the Live card and the Backends table show them: {@code cost=0.2 zone=b}, empty
         * when there are none.
         */
        public String labelsText() {
            StringBuilder out = new StringBuilder();
            labels.forEach((k, v) -> out.append(out.length() == 0 ? "" : " ").append(k).append('=').append(v));
            return out.toString();
        }

        /** Verified, or from an engine that does not say (HAProxy). */
        public BackendInfo(String id, String pool, String url, int weight, double effectiveWeight, String state,
                           String health, BreakerInfo breaker, int activeRequests, long totalRequests, long failures,
                           double rps, double errorRate, double latencyP50Ms, double latencyP99Ms, boolean backup,
                           Integer maxInFlight, int timesEjected, long ejectedForMs) {
            this(id, pool, url, weight, effectiveWeight, state, health, breaker, activeRequests, totalRequests,
                    failures, rps, errorRate, latencyP50Ms, latencyP99Ms, backup, maxInFlight, timesEjected,
                    ejectedForMs, false, Map.of());
        }

        /**
         * The state as the window words it: "UP (unverified)" while {@link #unverified()}, so a backend back in
         * rotation that nothing has shown to work does not read plain UP; the state otherwise.
         */
        public String shownState() {
            return unverified && "UP".equals(state) ? "UP (unverified)" : state;
        }
    }

    public BackendInfo backend(String id) {
        for (BackendInfo b : backends) {
            if (b.id().equals(id)) {
                return b;
            }
        }
        return null;
    }
}
