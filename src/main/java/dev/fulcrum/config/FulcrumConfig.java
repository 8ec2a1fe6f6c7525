package dev.fulcrum.config;

import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.Router;
import dev.fulcrum.engine.strategy.StrategySpec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole config file (docs/REFERENCE.md §2.1). Every component name is the JSON field name. Read one with
 * {@link ConfigLoader}, write one with {@link ConfigWriter}; {@link ConfigValidator} checks one built in code.
 *
 * <p>The top-level {@code strategy}, {@code backends} and {@code demoBackends} form the pool named {@code default}
 * ({@link #defaultPool()}); {@code pools} adds named pools, and {@code routes} send paths to them.
 *
 * <p>The compact constructor replaces null parts by their defaults and null lists and maps by empty ones, so code can
 * build a config from the parts it cares about. Strategies get the defaults of their type
 * ({@link StrategySpec#withDefaults()}), which makes a loaded config equal to itself written and loaded again.
 */
public record FulcrumConfig(ProxyConfig proxy, AdminConfig admin, StrategySpec strategy, List<BackendConfig> backends,
                            List<DemoBackendConfig> demoBackends, HealthCheckConfig healthCheck,
                            OutlierConfig outlierDetection, BreakerConfig circuitBreaker, RetryConfig retries,
                            TimeoutConfig timeouts, long slowStartMs, StickyConfig stickySession,
                            Map<String, PoolConfig> pools, List<RouteConfig> routes, List<DiscoveryConfig> discovery,
                            StrategySpec fallback, long pluginBudgetMs) {

    /**
     * Every field at its docs/REFERENCE.md §2.1 default. Not a valid config on its own: it has no backend.
     */
    public static final FulcrumConfig DEFAULT = new FulcrumConfig(ProxyConfig.DEFAULT, AdminConfig.DEFAULT,
            PoolConfig.DEFAULT_STRATEGY, List.of(), List.of(), HealthCheckConfig.DEFAULT, OutlierConfig.DEFAULT,
            BreakerConfig.DEFAULT, RetryConfig.DEFAULT, TimeoutConfig.DEFAULT, 0, StickyConfig.DEFAULT, Map.of(),
            List.of(), List.of(), PoolConfig.DEFAULT_FALLBACK, PoolConfig.DEFAULT_PLUGIN_BUDGET_MS);

    public FulcrumConfig {
        proxy = proxy == null ? ProxyConfig.DEFAULT : proxy;
        admin = admin == null ? AdminConfig.DEFAULT : admin;
        strategy = strategy == null ? PoolConfig.DEFAULT_STRATEGY : strategy.withDefaults();
        backends = backends == null ? List.of() : List.copyOf(backends);
        demoBackends = demoBackends == null ? List.of() : List.copyOf(demoBackends);
        healthCheck = healthCheck == null ? HealthCheckConfig.DEFAULT : healthCheck;
        outlierDetection = outlierDetection == null ? OutlierConfig.DEFAULT : outlierDetection;
        circuitBreaker = circuitBreaker == null ? BreakerConfig.DEFAULT : circuitBreaker;
        retries = retries == null ? RetryConfig.DEFAULT : retries;
        timeouts = timeouts == null ? TimeoutConfig.DEFAULT : timeouts;
        stickySession = stickySession == null ? StickyConfig.DEFAULT : stickySession;
        // insertion order is kept: the window lists pools in the order the file declares them
        pools = pools == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(pools));
        routes = routes == null ? List.of() : List.copyOf(routes);
        discovery = discovery == null ? List.of() : List.copyOf(discovery);
        fallback = fallback == null ? PoolConfig.DEFAULT_FALLBACK : fallback.withDefaults();
    }

    /** A config whose default pool has the default fallback and plugin budget. */
    public FulcrumConfig(ProxyConfig proxy, AdminConfig admin, StrategySpec strategy, List<BackendConfig> backends,
                         List<DemoBackendConfig> demoBackends, HealthCheckConfig healthCheck,
                         OutlierConfig outlierDetection, BreakerConfig circuitBreaker, RetryConfig retries,
                         TimeoutConfig timeouts, long slowStartMs, StickyConfig stickySession,
                         Map<String, PoolConfig> pools, List<RouteConfig> routes, List<DiscoveryConfig> discovery) {
        this(proxy, admin, strategy, backends, demoBackends, healthCheck, outlierDetection, circuitBreaker, retries,
                timeouts, slowStartMs, stickySession, pools, routes, discovery, PoolConfig.DEFAULT_FALLBACK,
                PoolConfig.DEFAULT_PLUGIN_BUDGET_MS);
    }

    /** A config without discovery in the default pool. */
    public FulcrumConfig(ProxyConfig proxy, AdminConfig admin, StrategySpec strategy, List<BackendConfig> backends,
                         List<DemoBackendConfig> demoBackends, HealthCheckConfig healthCheck,
                         OutlierConfig outlierDetection, BreakerConfig circuitBreaker, RetryConfig retries,
                         TimeoutConfig timeouts, long slowStartMs, StickyConfig stickySession,
                         Map<String, PoolConfig> pools, List<RouteConfig> routes) {
        this(proxy, admin, strategy, backends, demoBackends, healthCheck, outlierDetection, circuitBreaker, retries,
                timeouts, slowStartMs, stickySession, pools, routes, List.of());
    }

    /** A config with the given backends and demo backends in the default pool and every other field at its default. */
    public static FulcrumConfig of(StrategySpec strategy, List<BackendConfig> backends,
                                   List<DemoBackendConfig> demoBackends) {
        return DEFAULT.withDefaultPool(new PoolConfig(strategy, backends, demoBackends));
    }

    /** The pool named {@code default}: the top-level strategy, backends and demo backends. */
    public PoolConfig defaultPool() {
        return new PoolConfig(strategy, backends, demoBackends, discovery, fallback, pluginBudgetMs);
    }

    /** Every pool by name, {@code default} first, then {@code pools} in file order. */
    public Map<String, PoolConfig> allPools() {
        Map<String, PoolConfig> all = new LinkedHashMap<>();
        all.put(Engine.DEFAULT_POOL, defaultPool());
        all.putAll(pools);
        return Collections.unmodifiableMap(all);
    }

    /** The engine-wide settings: slow start, outlier detection, breaker, and the health check's rise and fall. */
    public EngineSettings toEngineSettings() {
        return new EngineSettings(slowStartMs, outlierDetection.toSpec(), circuitBreaker.toSpec(), healthCheck.rise(),
                healthCheck.fall());
    }

    /** The engine's router for {@code routes} (longest prefix first). */
    public Router toRouter() {
        List<Router.Route> rs = new ArrayList<>(routes.size());
        routes.forEach(r -> rs.add(r.toRoute()));
        return new Router(rs);
    }

    /** This config with the proxy's HTTP port replaced (the {@code --proxy-port} override; 0 = any free port). */
    public FulcrumConfig withProxyPort(int port) {
        return new FulcrumConfig(proxy.withPort(port), admin, strategy, backends, demoBackends, healthCheck,
                outlierDetection, circuitBreaker, retries, timeouts, slowStartMs, stickySession, pools, routes, discovery,
                fallback, pluginBudgetMs);
    }

    /** This config with the HTTPS port replaced (the {@code --tls-port} override; 0 = any free port). */
    public FulcrumConfig withTlsPort(int port) {
        return new FulcrumConfig(proxy.withTls(proxy.tls().withPort(port)), admin, strategy, backends, demoBackends,
                healthCheck, outlierDetection, circuitBreaker, retries, timeouts, slowStartMs, stickySession, pools,
                routes, discovery, fallback, pluginBudgetMs);
    }

    /** This config with the admin API's port replaced (the {@code --admin-port} override; 0 = any free port). */
    public FulcrumConfig withAdminPort(int port) {
        return new FulcrumConfig(proxy, admin.withPort(port), strategy, backends, demoBackends, healthCheck,
                outlierDetection, circuitBreaker, retries, timeouts, slowStartMs, stickySession, pools, routes, discovery,
                fallback, pluginBudgetMs);
    }

    /**
     * This config with the default pool's strategy, backends, demo backends, fallback and plugin budget replaced
     * (its discovery kept).
     */
    public FulcrumConfig withDefaultPool(PoolConfig pool) {
        return new FulcrumConfig(proxy, admin, pool.strategy(), pool.backends(), pool.demoBackends(), healthCheck,
                outlierDetection, circuitBreaker, retries, timeouts, slowStartMs, stickySession, pools, routes, discovery,
                pool.fallback(), pool.pluginBudgetMs());
    }

    /** This config with the named pools replaced (not {@code default}: use {@link #withDefaultPool}). */
    public FulcrumConfig withPools(Map<String, PoolConfig> newPools) {
        return new FulcrumConfig(proxy, admin, strategy, backends, demoBackends, healthCheck, outlierDetection,
                circuitBreaker, retries, timeouts, slowStartMs, stickySession, newPools, routes, discovery, fallback,
                pluginBudgetMs);
    }
}
