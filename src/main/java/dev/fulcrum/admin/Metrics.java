package dev.fulcrum.admin;

import dev.fulcrum.engine.BackendState;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.Router;
import dev.fulcrum.engine.routing.ArmStats;
import dev.fulcrum.engine.routing.Mirror;
import dev.fulcrum.engine.routing.Split;
import dev.fulcrum.proxy.RequestListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * {@code GET /metrics} through Micrometer's Prometheus registry: {@code fulcrum_requests_total{backend,code}},
 * {@code fulcrum_active_requests{backend}}, {@code fulcrum_backend_up{backend}},
 * {@code fulcrum_backend_attempts_total{backend}}, {@code fulcrum_backend_attempt_failures_total{backend}},
 * {@code fulcrum_breaker_state{backend,state}}, {@code fulcrum_request_duration_seconds} and
 * {@code fulcrum_backend_connections_opened_total} (divided by the requests, how well backend connections are
 * reused: near 0 means kept alive); for the routes (docs/REFERENCE.md §2.1): {@code
 * fulcrum_route_requests_total{route,arm,class}} (a split route's client requests per arm),
 * {@code fulcrum_split_weight{route,arm}}, {@code fulcrum_route_shed_total{route,class}} (a route with a class
 * ceiling), {@code fulcrum_mirror_requests_total{pool,outcome}} and {@code fulcrum_mirror_skipped_total{pool,reason}}
 * (a mirror pool's copies, summed over the routes mirroring to it) and {@code fulcrum_guard_rollbacks_total{route}}
 * (a guarded route).
 *
 * <p>The request path touches only pre-built counters found through one map lookup; per-backend gauges
 * are (re)registered when scraped, so backends that come and go are followed without work per request.
 */
final class Metrics implements RequestListener {
    private static final String NONE = "none";

    private final Engine engine;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final DurationHistogram duration = new DurationHistogram();
    private final Map<String, Counter[]> counters = new ConcurrentHashMap<>();
    private volatile Map<String, BackendView> views = Map.of();
    private final Set<String> gauged = ConcurrentHashMap.newKeySet();
    private volatile java.util.function.LongSupplier connectionsOpened;
    /** The (pool, plugin strategy) pairs with a failure counter registered, as "pool\u0000strategy". */
    private final Set<String> pluginCounted = ConcurrentHashMap.newKeySet();
    /** The routes' and mirror pools' series registered, by name and tags; dropped when what they read is gone. */
    private final Map<String, Meter> routeMeters = new ConcurrentHashMap<>();
    /** Each route's guard rollbacks, counted from its {@code guard} events, by route index. */
    private final Map<Integer, LongAdder> guardRollbacks = new ConcurrentHashMap<>();
    private final Consumer<EngineEvent> guardEvents = e -> {
        if ("guard".equals(e.type()) && e.route() != null) {
            guardRollbacks.computeIfAbsent(e.route(), k -> new LongAdder()).increment();
        }
    };

    /**
     * Mirror outcomes as {@code outcome} labels, by {@link Mirror#answeredIn} class; 1xx has no series (a copy
     * answered 101 is counted in {@code sent} alone).
     */
    private static final String[] OUTCOMES = {"failed", null, "2xx", "3xx", "4xx", "5xx"};

    Metrics(Engine engine) {
        this.engine = engine;
        engine.subscribe(guardEvents);
        // a histogram with fixed buckets (not a client-side summary), so Prometheus can aggregate across
        // instances and histogram_quantile() works
        registry.getPrometheusRegistry().register(duration);
    }

    /** Counts the proxy's new backend connections, read when scraped. */
    void countBackendConnections(java.util.function.LongSupplier opened) {
        // Micrometer holds the counted object weakly, so it counts through this registry's owner, which lives as
        // long as the registry: a lambda held only by the counter would be collected and the count read 0
        this.connectionsOpened = opened;
        io.micrometer.core.instrument.FunctionCounter.builder("fulcrum.backend.connections.opened", this,
                        m -> m.connectionsOpened.getAsLong())
                .description("Connections the proxy opened to backends (reused ones are not counted again)")
                .register(registry);
    }

    @Override
    public void completed(String backend, int status, long latencyNanos) {
        String b = backend == null ? NONE : backend;
        Counter[] byCode = counters.computeIfAbsent(b, k -> new Counter[600]);
        int code = status < 100 || status > 599 ? 599 : status;
        Counter c = byCode[code];
        if (c == null) {
            c = Counter.builder("fulcrum.requests").description("Proxied requests by backend and status")
                    .tag("backend", b).tag("code", Integer.toString(code)).register(registry);
            byCode[code] = c;
        }
        c.increment();
        duration.record(latencyNanos);
    }

    String scrape() {
        List<BackendView> now = engine.backends();
        Map<String, BackendView> byId = new ConcurrentHashMap<>();
        for (BackendView v : now) {
            byId.put(v.id(), v);
        }
        views = byId;
        Set<String> stale = new HashSet<>(gauged);
        for (BackendView v : now) {
            stale.remove(v.id());
            if (gauged.add(v.id())) {
                register(v.id());
            }
        }
        for (String id : stale) {
            gauged.remove(id);
            for (Meter m : registry.getMeters()) {
                if (id.equals(m.getId().getTag("backend")) && !m.getId().getName().equals("fulcrum.requests")) {
                    registry.remove(m);
                }
            }
        }
        countPluginFailures();
        routeSeries();
        return registry.scrape();
    }

    /** Stops counting the engine's guard events. */
    void close() {
        engine.unsubscribe(guardEvents);
    }

    /**
     * Registers the series of the routes and mirror pools there are now and drops those of the ones gone (a config
     * reload); each reads its engine object when scraped, by route index and pool, so a route's live split is
     * followed without work on the request path.
     */
    private void routeSeries() {
        Router router = engine.router();
        Set<String> now = new HashSet<>();
        for (Router.Route r : router.written()) {
            int index = r.index();
            String route = Integer.toString(index);
            String cls = r.routeClass() == null ? NONE : r.routeClass();
            Router.Route.Arms arms = r.arms();
            if (arms != null) {
                for (Split.Arm a : arms.split().arms()) {
                    String arm = a.pool();
                    series(now, "fulcrum.route.requests", () -> FunctionCounter.builder("fulcrum.route.requests", this,
                                    m -> m.arm(index, arm, (stats, w) -> stats.figures().total()))
                            .description("Client requests of a split route, by arm")
                            .tag("route", route).tag("arm", arm).tag("class", cls).register(registry),
                            route, arm, cls);
                    series(now, "fulcrum.split.weight", () -> Gauge.builder("fulcrum.split.weight",
                                    () -> arm(index, arm, (stats, w) -> w))
                            .description("An arm's weight in its route's split now")
                            .tag("route", route).tag("arm", arm).register(registry), route, arm);
                }
            }
            if (r.ceiling() != null) {
                series(now, "fulcrum.route.shed", () -> FunctionCounter.builder("fulcrum.route.shed", this,
                                m -> m.shed(index))
                        .description("Requests of a route shed at its class ceiling (503, no backend's failure)")
                        .tag("route", route).tag("class", cls).register(registry), route, cls);
            }
            if (r.guard() != null) {
                series(now, "fulcrum.guard.rollbacks", () -> FunctionCounter.builder("fulcrum.guard.rollbacks", this,
                                m -> m.rollbacks(index))
                        .description("Times a route's canary guard rolled its canary back")
                        .tag("route", route).register(registry), route);
            }
        }
        for (String pool : AdminModel.mirrorCounts(router).keySet()) {
            for (int c = 0; c < OUTCOMES.length; c++) {
                if (OUTCOMES[c] == null) {
                    continue;
                }
                int statusClass = c;
                String outcome = OUTCOMES[c];
                series(now, "fulcrum.mirror.requests", () -> FunctionCounter.builder("fulcrum.mirror.requests", this,
                                m -> m.mirrored(pool, mirror -> mirror.answeredIn(statusClass)))
                        .description("Mirror copies a pool received, by outcome (never counted as client requests)")
                        .tag("pool", pool).tag("outcome", outcome).register(registry), pool, outcome);
            }
            series(now, "fulcrum.mirror.skipped", () -> FunctionCounter.builder("fulcrum.mirror.skipped", this,
                            m -> m.mirrored(pool, mirror -> mirror.counts().tooLarge()))
                    .description("Requests not mirrored to a pool, by reason")
                    .tag("pool", pool).tag("reason", "too_large").register(registry), pool, "too_large");
            series(now, "fulcrum.mirror.skipped", () -> FunctionCounter.builder("fulcrum.mirror.skipped", this,
                            m -> m.mirrored(pool, mirror -> mirror.counts().dropped()))
                    .description("Requests not mirrored to a pool, by reason")
                    .tag("pool", pool).tag("reason", "dropped").register(registry), pool, "dropped");
        }
        routeMeters.entrySet().removeIf(e -> {
            if (now.contains(e.getKey())) {
                return false;
            }
            registry.remove(e.getValue());
            return true;
        });
    }

    /** Registers a series once by its name and tag values, and notes it is still wanted. */
    private void series(Set<String> now, String name, java.util.function.Supplier<Meter> register, String... tags) {
        String key = name + "\u0000" + String.join("\u0000", tags);
        now.add(key);
        routeMeters.computeIfAbsent(key, k -> register.get());
    }

    private interface ArmValue {
        double of(ArmStats stats, int weight);
    }

    /** A figure of route {@code index}'s arm sending to {@code pool}, or NaN when the route has no such arm now. */
    private double arm(int index, String pool, ArmValue value) {
        Router.Route r = engine.router().route(index);
        Router.Route.Arms arms = r == null ? null : r.arms();
        int i = arms == null ? -1 : arms.split().indexOf(pool);
        return i < 0 ? Double.NaN : value.of(arms.stats()[i], arms.split().arms().get(i).weight());
    }

    private double shed(int index) {
        Router.Route r = engine.router().route(index);
        return r == null || r.ceiling() == null ? Double.NaN : r.ceiling().shedCount();
    }

    private double rollbacks(int index) {
        LongAdder n = guardRollbacks.get(index);
        return n == null ? 0 : n.sum();
    }

    /** A count summed over the mirrors sending to {@code pool}. */
    private double mirrored(String pool, java.util.function.ToLongFunction<Mirror> count) {
        long sum = 0;
        for (Router.Route r : engine.router().written()) {
            Mirror m = r.mirror();
            if (m != null && m.pool().equals(pool)) {
                sum += count.applyAsLong(m);
            }
        }
        return sum;
    }

    /**
     * {@code fulcrum_plugin_failures_total{pool,strategy}}: the times a plugin strategy failed and its pool's fallback
     * took over (docs/PLUGINS.md). A series appears with its first failure, read from the engine when scraped.
     */
    private void countPluginFailures() {
        for (Pool p : engine.pools()) {
            for (String type : p.pluginFailures().keySet()) {
                String pool = p.name();
                if (pluginCounted.add(pool + "\u0000" + type)) {
                    io.micrometer.core.instrument.FunctionCounter.builder("fulcrum.plugin.failures", this,
                                    m -> m.pluginFailures(pool, type))
                            .description("Times a plugin strategy failed and the pool's fallback took over")
                            .tag("pool", pool).tag("strategy", type).register(registry);
                }
            }
        }
    }

    private double pluginFailures(String pool, String type) {
        Pool p = engine.pool(pool);
        Long n = p == null ? null : p.pluginFailures().get(type);
        return n == null ? 0 : n;
    }

    private void register(String id) {
        Gauge.builder("fulcrum.active.requests", () -> value(id, v -> v.activeRequests()))
                .description("Requests in flight to the backend").tag("backend", id).register(registry);
        Gauge.builder("fulcrum.backend.up", () -> value(id, v -> v.state() == BackendState.UP ? 1 : 0))
                .description("1 when the backend takes traffic").tag("backend", id).register(registry);
        // every attempt, retried ones included (fulcrum_requests_total counts answers by the backend that gave them:
        // a backend whose every attempt failed and was retried elsewhere would have no series at all)
        io.micrometer.core.instrument.FunctionCounter.builder("fulcrum.backend.attempts", this,
                        m -> m.value(id, v -> v.totalRequests()))
                .description("Attempts sent to the backend, retried ones included").tag("backend", id).register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("fulcrum.backend.attempt.failures", this,
                        m -> m.value(id, v -> v.failures()))
                .description("Attempts that failed on the backend (5xx, connect errors, timeouts)").tag("backend", id)
                .register(registry);
        for (CircuitBreaker.State s : CircuitBreaker.State.values()) {
            Gauge.builder("fulcrum.breaker.state", () -> value(id, v -> v.breaker() == s ? 1 : 0))
                    .description("1 for the breaker's current state").tag("backend", id).tag("state", s.name())
                    .register(registry);
        }
    }

    private double value(String id, java.util.function.ToDoubleFunction<BackendView> f) {
        BackendView v = views.get(id);
        return v == null ? Double.NaN : f.applyAsDouble(v);
    }
}
