package dev.fulcrum.admin;

import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.config.RouteConfig;
import dev.fulcrum.config.RouteMatchConfig;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.BackendState;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.StrategySpec;

import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a config export writes, gathered once from the running engine and the config: the pools to export with their
 * live members, and the routes between them. The three writers ({@code ExportNginx}, {@code ExportHaproxy},
 * {@code ExportEnvoy}) only turn this plan into text.
 *
 * <p>Membership, weights and DRAINING / DRAINED come from the engine ({@link Engine#backends()}), because the operator
 * may have changed them since the config was loaded; the strategy and every policy (health check, outlier detection,
 * breaker, slow start, sticky sessions, timeouts, retries) come from the config. A pool the engine knows but the
 * config does not (added through the admin API) takes its strategy from the engine.
 *
 * @param config the running config
 * @param pools  the pools to export, {@code default} first
 * @param routes the routes to export in the order Fulcrum tries them (longest prefix first when every route matches on
 *               its path prefix alone, else as written); empty when one pool was asked for
 */
public record ExportPlan(FulcrumConfig config, List<ExportPool> pools, List<RouteConfig> routes) {

    /**
     * One pool.
     *
     * @param name     the pool name as Fulcrum knows it
     * @param ident    the name made safe for the target proxy: letters, digits, '_', '-' and '.' only
     * @param strategy its strategy with defaults filled in
     * @param servers  members in engine order
     */
    public record ExportPool(String name, String ident, StrategySpec strategy, List<ExportServer> servers) {
        /** The non-backup members. */
        public List<ExportServer> primaries() {
            return servers.stream().filter(s -> !s.backup()).toList();
        }

        public List<ExportServer> backups() {
            return servers.stream().filter(ExportServer::backup).toList();
        }

        /** True when this pool's Fulcrum strategy reads no weights (its descriptor says so), so none are exported. */
        public boolean ignoresWeights() {
            return !strategy.readsWeights();
        }
    }

    /**
     * One member.
     *
     * @param weight      the configured weight 0..1000 (not the slow-start ramp, which is transient)
     * @param state       UP, DOWN, EJECTED, DRAINING or DRAINED at export time
     * @param maxInFlight the in-flight cap, or null
     */
    public record ExportServer(String id, String host, int port, int weight, BackendState state, boolean backup,
                               Integer maxInFlight) {
        /** True when the target proxy must send this member no new requests: draining, drained, or weight 0. */
        public boolean takesNoTraffic() {
            return state == BackendState.DRAINING || state == BackendState.DRAINED || weight == 0;
        }

        /** {@code host:port}, with brackets around an IPv6 literal. */
        public String address() {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }

        /** True when the host is an IP literal (Envoy can then use a STATIC cluster). */
        public boolean hostIsIp() {
            return host.matches("[0-9.]+") || host.indexOf(':') >= 0;
        }
    }

    /**
     * Builds the plan.
     *
     * @param pool null for every pool and the routes between them, else only that pool (404 if unknown)
     */
    public static ExportPlan of(FulcrumConfig config, Engine engine, String pool) {
        Map<String, StrategySpec> strategies = new LinkedHashMap<>();
        for (Map.Entry<String, PoolConfig> e : config.allPools().entrySet()) {
            strategies.put(e.getKey(), e.getValue().strategy());
        }
        for (Pool p : engine.pools()) {
            strategies.putIfAbsent(p.name(), p.snapshot().spec());
        }
        if (pool != null && !strategies.containsKey(pool)) {
            throw new EngineException(404, "pool: no such pool (got: " + pool + ")");
        }
        Map<String, List<ExportServer>> members = new LinkedHashMap<>();
        for (BackendView v : engine.backends()) {
            members.computeIfAbsent(v.pool(), k -> new ArrayList<>()).add(server(v.id(), v.url(), v.weight(),
                    v.state(), v.backup(), v.maxInFlight()));
        }
        List<ExportPool> pools = new ArrayList<>();
        List<String> idents = new ArrayList<>();
        for (Map.Entry<String, StrategySpec> e : strategies.entrySet()) {
            String name = e.getKey();
            List<ExportServer> servers = members.get(name);
            if (servers == null && engine.pool(name) == null) {
                // a configured pool the engine does not run (yet): export it as configured
                servers = new ArrayList<>();
                for (BackendSpec s : config.allPools().get(name).backendSpecs()) {
                    servers.add(server(s.id(), s.url(), s.weight(), BackendState.UP, s.backup(), s.maxInFlight()));
                }
            }
            String ident = uniqueIdent(name, idents);
            idents.add(ident);
            if (pool == null || pool.equals(name)) {
                pools.add(new ExportPool(name, ident, e.getValue().withDefaults(),
                        servers == null ? List.of() : List.copyOf(servers)));
            }
        }
        List<RouteConfig> routes = new ArrayList<>();
        if (pool == null) {
            for (RouteConfig r : config.routes()) {
                if (targets(r).stream().allMatch(strategies::containsKey)) {
                    routes.add(r);
                }
            }
            // the order Fulcrum tries them in (Router): longest prefix first when every route matches on its path
            // prefix alone, else as written, the first that matches winning
            if (routes.stream().allMatch(ExportPlan::prefixAlone)) {
                routes.sort(Comparator.comparingInt((RouteConfig r) -> r.prefix().length()).reversed());
            }
        }
        return new ExportPlan(config, List.copyOf(pools), List.copyOf(routes));
    }

    /** The pools a route sends its requests to: its pool, or its split's arms (not its mirror). */
    static List<String> targets(RouteConfig r) {
        if (r.split() != null) {
            return r.split().stream().map(a -> a.pool()).toList();
        }
        return r.pool() == null ? List.of() : List.of(r.pool());
    }

    /** True when the route matches on its path prefix alone (Fulcrum then tries the longest prefix first). */
    static boolean prefixAlone(RouteConfig r) {
        RouteMatchConfig m = r.match();
        return r.prefix() != null && (m == null || m.host() == null && (m.method() == null || m.method().isEmpty())
                && (m.headers() == null || m.headers().isEmpty()) && (m.cookies() == null || m.cookies().isEmpty())
                && (m.query() == null || m.query().isEmpty()));
    }

    /**
     * True when the route is a path prefix to one pool and nothing more: what every export wrote before routes could
     * match, split and mirror, and still writes the same way.
     */
    static boolean plain(RouteConfig r) {
        return prefixAlone(r) && r.pool() != null && r.split() == null && r.mirror() == null && r.strategy() == null
                && r.maxInFlightPerBackend() == null && r.guard() == null;
    }

    /** True when every exported route is {@link #plain}. */
    public boolean plainRoutes() {
        return routes.stream().allMatch(ExportPlan::plain);
    }

    /** The exported pool a route goes to, or null when that pool is not exported. */
    public ExportPool pool(String name) {
        for (ExportPool p : pools) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }

    /**
     * What route {@code index} (in {@link #routes} order) sends to {@code pool}: the pool itself, or, when the route
     * gives its own strategy or a class ceiling, a copy of the pool under the name {@code IDENT_rINDEX} with the
     * route's strategy, so the target proxy counts that route's requests apart. Null when the pool is not exported.
     */
    public ExportPool routePool(int index, String pool) {
        ExportPool p = pool(pool);
        RouteConfig r = routes.get(index);
        if (p == null || r.strategy() == null && r.maxInFlightPerBackend() == null) {
            return p;
        }
        String ident = p.ident() + "_r" + index;
        while (identTaken(ident)) {
            ident = ident + "_";
        }
        // the class ceiling is a cap on each member of this copy only: the nearest the targets have
        Integer ceiling = r.maxInFlightPerBackend();
        List<ExportServer> servers = new ArrayList<>();
        for (ExportServer m : p.servers()) {
            Integer cap = m.maxInFlight();
            if (ceiling != null) {
                cap = cap == null ? ceiling : Integer.valueOf(Math.min(ceiling, cap));
            }
            servers.add(new ExportServer(m.id(), m.host(), m.port(), m.weight(), m.state(), m.backup(), cap));
        }
        return new ExportPool(p.name(), ident, r.strategy() == null ? p.strategy() : r.strategy().withDefaults(),
                List.copyOf(servers));
    }

    private boolean identTaken(String ident) {
        for (ExportPool p : pools) {
            if (p.ident().equalsIgnoreCase(ident)) {
                return true;
            }
        }
        return false;
    }

    /** Every route's own pool copies ({@link #routePool}), in route order, each once. */
    public List<ExportPool> routePools() {
        List<ExportPool> out = new ArrayList<>();
        for (int i = 0; i < routes.size(); i++) {
            for (String t : targets(routes.get(i))) {
                ExportPool p = routePool(i, t);
                if (p != null && !p.ident().equals(pool(t).ident())
                        && out.stream().noneMatch(o -> o.ident().equals(p.ident()))) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /** The pool unmatched requests go to: {@code default}, or the only pool exported. */
    public ExportPool fallbackPool() {
        ExportPool d = pool(Engine.DEFAULT_POOL);
        return d != null ? d : pools.isEmpty() ? null : pools.get(0);
    }

    private static ExportServer server(String id, String url, int weight, BackendState state, boolean backup,
                                       Integer maxInFlight) {
        URI u = URI.create(url);
        String host = u.getHost();
        if (host == null) {
            throw new EngineException(400, "url: no host (got: " + url + ")");
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = u.getPort() >= 0 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
        return new ExportServer(id, host, port, weight, state, backup, maxInFlight);
    }

    private static String uniqueIdent(String name, List<String> taken) {
        String base = name.replaceAll("[^A-Za-z0-9_.-]", "_");
        if (base.isEmpty()) {
            base = "pool";
        }
        String ident = base;
        for (int i = 2; taken.contains(ident.toLowerCase(Locale.ROOT)) || taken.contains(ident); i++) {
            ident = base + "_" + i;
        }
        return ident;
    }
}
