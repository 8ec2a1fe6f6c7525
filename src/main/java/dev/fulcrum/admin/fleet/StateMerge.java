package dev.fulcrum.admin.fleet;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.admin.EngineState.BreakerInfo;
import dev.fulcrum.admin.EngineState.PoolInfo;
import dev.fulcrum.admin.EngineState.RouteInfo;
import dev.fulcrum.admin.Json;
import dev.fulcrum.config.BackendConfig;
import dev.fulcrum.config.ConfigWriter;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One fleet view from the shared config and the instances' {@code GET /api/state} answers (pure):
 * <ul>
 *   <li>pools, strategies and backends (id, pool, url, weight, maxInFlight, backup, labels) as the config says them,
 *       in its order: pool {@code default} (the top level) first, then {@code pools} as written;</li>
 *   <li>a backend's {@code activeRequests}, {@code totalRequests}, {@code failures} and {@code rps} summed over the
 *       instances; {@code errorRate} the failures' share of those rates; latency percentiles, health, breaker and
 *       state the worst any instance reports (a backend one instance cannot reach is not fully up);</li>
 *   <li>{@code state} DRAINING (requests still in flight) or DRAINED when {@code PREFIX/drained/ID} exists;</li>
 *   <li>backends the instances report that the config does not list (from discovery, or demo backends each instance
 *       starts itself) after the config's, merged the same way;</li>
 *   <li>routes as the first instance answering reports them, their shed counts and arms' figures summed;</li>
 *   <li>the engine's request counts summed. With no instance answering, the config alone: figures 0, health
 *       UNKNOWN, no breaker.</li>
 * </ul>
 */
final class StateMerge {
    private StateMerge() {
    }

    static EngineState merge(String proxy, FulcrumConfig config, Map<String, EngineState> instances,
                             Set<String> drained) {
        Map<String, PoolInfo> pools = new LinkedHashMap<>();
        Map<String, List<BackendConfig>> members = new LinkedHashMap<>();
        members.put("default", config.backends());
        pools.put("default", pool("default", config.strategy(), instances));
        config.pools().forEach((name, p) -> {
            members.put(name, p.backends());
            pools.put(name, pool(name, p.strategy(), instances));
        });
        List<BackendInfo> backends = new ArrayList<>();
        Set<String> listed = new java.util.HashSet<>();
        members.forEach((pool, list) -> {
            for (BackendConfig b : list) {
                listed.add(b.id());
                backends.add(backend(b.id(), pool, b.url(), b.weight(), b.maxInFlight(), b.backup(), b.labels(),
                        reports(b.id(), instances), drained.contains(b.id())));
            }
        });
        for (EngineState s : instances.values()) {
            for (BackendInfo b : s.backends()) {
                if (listed.add(b.id())) {
                    backends.add(backend(b.id(), b.pool(), b.url(), b.weight(), b.maxInFlight(), b.backup(),
                            b.labels(), reports(b.id(), instances), drained.contains(b.id())));
                }
            }
        }
        return new EngineState(proxy, strategyMap(config.strategy()), pools, routes(instances), backends,
                requests(instances));
    }

    private static PoolInfo pool(String name, StrategySpec strategy, Map<String, EngineState> instances) {
        boolean panic = false;
        int inFlight = 0;
        for (EngineState s : instances.values()) {
            PoolInfo p = s.pools() == null ? null : s.pools().get(name);
            if (p != null) {
                panic |= p.panic();
                inFlight += p.inFlight();
            }
        }
        return new PoolInfo(strategyMap(strategy), panic, inFlight);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> strategyMap(StrategySpec spec) {
        return Json.MAPPER.convertValue(ConfigWriter.toTree(spec), Map.class);
    }

    private static List<BackendInfo> reports(String id, Map<String, EngineState> instances) {
        List<BackendInfo> out = new ArrayList<>();
        for (EngineState s : instances.values()) {
            BackendInfo b = s.backend(id);
            if (b != null) {
                out.add(b);
            }
        }
        return out;
    }

    private static BackendInfo backend(String id, String pool, String url, int weight, Integer maxInFlight,
                                       boolean backup, Map<String, String> labels, List<BackendInfo> reports,
                                       boolean drainMark) {
        int active = 0;
        long total = 0;
        long failures = 0;
        double rps = 0;
        double errorRps = 0;
        double p50 = 0;
        double p99 = 0;
        double effective = 0;
        int ejected = 0;
        long ejectedFor = 0;
        String state = null;
        String health = reports.isEmpty() ? "UNKNOWN" : null;
        BreakerInfo breaker = null;
        boolean unverified = false;
        for (BackendInfo b : reports) {
            active += b.activeRequests();
            total += b.totalRequests();
            failures += b.failures();
            rps += b.rps();
            errorRps += b.rps() * b.errorRate();
            p50 = Math.max(p50, b.latencyP50Ms());
            p99 = Math.max(p99, b.latencyP99Ms());
            effective = Math.max(effective, b.effectiveWeight());
            ejected += b.timesEjected();
            ejectedFor = Math.max(ejectedFor, b.ejectedForMs());
            unverified |= b.unverified();
            state = worse(STATES, state, b.state());
            health = worse(HEALTH, health, b.health());
            if (b.breaker() != null && (breaker == null
                    || rank(BREAKERS, b.breaker().state()) > rank(BREAKERS, breaker.state()))) {
                breaker = b.breaker();
            }
        }
        if (drainMark) {
            state = active > 0 ? "DRAINING" : "DRAINED";
        } else if (state == null) {
            state = "UP";
        }
        if (reports.isEmpty()) {
            effective = drainMark ? 0 : weight;
        }
        double errorRate = rps > 0 ? Math.min(1, errorRps / rps) : 0;
        return new BackendInfo(id, pool, url, weight, effective, state, health, breaker, active, total, failures,
                rps, errorRate, p50, p99, backup, maxInFlight, ejected, ejectedFor, unverified, labels);
    }

    /** Better to worse; a value not listed counts as the worst (an engine newer than this window). */
    private static final List<String> STATES = List.of("UP", "DRAINING", "DRAINED", "EJECTED", "DOWN");
    private static final List<String> HEALTH = List.of("UP", "UNKNOWN", "DOWN");
    private static final List<String> BREAKERS = List.of("CLOSED", "HALF_OPEN", "OPEN");

    private static String worse(List<String> order, String a, String b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return rank(order, b) > rank(order, a) ? b : a;
    }

    private static int rank(List<String> order, String v) {
        int i = order.indexOf(v);
        return i < 0 ? order.size() : i;
    }

    private static List<RouteInfo> routes(Map<String, EngineState> instances) {
        List<RouteInfo> first = null;
        for (EngineState s : instances.values()) {
            if (s.routes() != null) {
                first = s.routes();
                break;
            }
        }
        if (first == null) {
            return List.of();
        }
        List<RouteInfo> out = new ArrayList<>();
        for (RouteInfo r : first) {
            long shed = 0;
            List<EngineState.ArmInfo> arms = r.split() == null ? null : new ArrayList<>(r.split());
            for (EngineState s : instances.values()) {
                RouteInfo same = s.routes() == null ? null : s.routes().stream()
                        .filter(x -> x.index() == r.index()).findFirst().orElse(null);
                if (same == null) {
                    continue;
                }
                shed += same.shed();
                if (arms != null && same != r && same.split() != null && same.split().size() == arms.size()) {
                    for (int i = 0; i < arms.size(); i++) {
                        EngineState.ArmInfo a = arms.get(i);
                        EngineState.ArmInfo o = same.split().get(i);
                        arms.set(i, new EngineState.ArmInfo(a.pool(), a.weight(), a.share(), a.measuredShare(),
                                a.requests() + o.requests(), a.errors() + o.errors(), a.rps() + o.rps(),
                                a.errorRate(), Math.max(a.p50Ms(), o.p50Ms()), Math.max(a.p99Ms(), o.p99Ms())));
                    }
                }
            }
            out.add(new RouteInfo(r.index(), r.pathPrefix(), r.pool(), r.stripPrefix(), r.match(), r.routeClass(),
                    r.strategy(), r.maxInFlightPerBackend(), arms, r.stickyBy(), r.mirror(), r.guard(), shed));
        }
        return out;
    }

    private static EngineState.RequestCounts requests(Map<String, EngineState> instances) {
        long total = 0;
        long errors = 0;
        double rps = 0;
        double errorRps = 0;
        boolean any = false;
        for (EngineState s : instances.values()) {
            if (s.requests() != null) {
                any = true;
                total += s.requests().total();
                errors += s.requests().errors();
                rps += s.requests().rps();
                errorRps += s.requests().errorRps();
            }
        }
        return any || instances.isEmpty() ? new EngineState.RequestCounts(total, errors, rps, errorRps) : null;
    }
}
