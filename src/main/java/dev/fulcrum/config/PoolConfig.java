package dev.fulcrum.config;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.strategy.StrategySpec;

import java.util.ArrayList;
import java.util.List;

/**
 * A named pool ({@code pools.NAME}, docs/REFERENCE.md §2.1), and also the shape of the top-level {@code default} pool.
 *
 * @param strategy     its strategy, with the docs/REFERENCE.md §2.2 defaults of its type filled in; never null
 * @param backends     real backends; never null
 * @param demoBackends demo backends Fulcrum starts itself; never null
 * @param discovery    sources of further backends (DNS, a watched file); never null
 * @param fallback     the built-in strategy that takes over when a plugin strategy fails (docs/PLUGINS.md); never
 *                     null, round robin unless set
 * @param pluginBudgetMs how long a plugin strategy's picks may take on average over a second (1-1000)
 */
public record PoolConfig(StrategySpec strategy, List<BackendConfig> backends, List<DemoBackendConfig> demoBackends,
                         List<DiscoveryConfig> discovery, StrategySpec fallback, long pluginBudgetMs) {
    public static final StrategySpec DEFAULT_STRATEGY = StrategySpec.of(StrategySpec.SMOOTH_WRR);
    /** The fallback of a pool that names none. */
    public static final StrategySpec DEFAULT_FALLBACK = StrategySpec.of(StrategySpec.ROUND_ROBIN);
    /** A plugin's budget when none is set: a guess at "clearly slower than any strategy should be". */
    public static final long DEFAULT_PLUGIN_BUDGET_MS = 5;
    public static final PoolConfig DEFAULTS = new PoolConfig(DEFAULT_STRATEGY, List.of(), List.of(), List.of());

    public PoolConfig {
        strategy = strategy == null ? DEFAULT_STRATEGY : strategy.withDefaults();
        fallback = fallback == null ? DEFAULT_FALLBACK : fallback.withDefaults();
        backends = backends == null ? List.of() : List.copyOf(backends);
        demoBackends = demoBackends == null ? List.of() : List.copyOf(demoBackends);
        discovery = discovery == null ? List.of() : List.copyOf(discovery);
    }

    /** A pool with the default fallback and plugin budget. */
    public PoolConfig(StrategySpec strategy, List<BackendConfig> backends, List<DemoBackendConfig> demoBackends,
                      List<DiscoveryConfig> discovery) {
        this(strategy, backends, demoBackends, discovery, DEFAULT_FALLBACK, DEFAULT_PLUGIN_BUDGET_MS);
    }

    /** This pool with another fallback and plugin budget. */
    public PoolConfig withFallback(StrategySpec newFallback, long budgetMs) {
        return new PoolConfig(strategy, backends, demoBackends, discovery, newFallback, budgetMs);
    }

    /** A pool with static members only. */
    public PoolConfig(StrategySpec strategy, List<BackendConfig> backends, List<DemoBackendConfig> demoBackends) {
        this(strategy, backends, demoBackends, List.of());
    }

    /**
     * The pool members as the engine takes them: real backends first, then demo backends at
     * {@code http://127.0.0.1:PORT} (a demo backend with port 0 must be added with its real port by whoever starts
     * it, through {@link DemoBackendConfig#toSpec(int)}).
     */
    public List<BackendSpec> backendSpecs() {
        List<BackendSpec> specs = new ArrayList<>(backends.size() + demoBackends.size());
        backends.forEach(b -> specs.add(b.toSpec()));
        demoBackends.forEach(d -> specs.add(d.toSpec()));
        return List.copyOf(specs);
    }

    /** How many backends, demo backends and discovery sources this pool declares. */
    public int size() {
        return backends.size() + demoBackends.size() + discovery.size();
    }
}
