package dev.fulcrum.admin;

import dev.fulcrum.engine.BackendState;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.proxy.RequestListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code GET /metrics} through Micrometer's Prometheus registry: {@code fulcrum_requests_total{backend,code}},
 * {@code fulcrum_active_requests{backend}}, {@code fulcrum_backend_up{backend}},
 * {@code fulcrum_backend_attempts_total{backend}}, {@code fulcrum_backend_attempt_failures_total{backend}},
 * {@code fulcrum_breaker_state{backend,state}}, {@code fulcrum_request_duration_seconds} and
 * {@code fulcrum_backend_connections_opened_total} (divided by the requests, how well backend connections are
 * reused: near 0 means kept alive).
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

    Metrics(Engine engine) {
        this.engine = engine;
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
        return registry.scrape();
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
