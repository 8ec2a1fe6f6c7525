package dev.fulcrum.lesson;

import dev.fulcrum.config.AdminConfig;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.config.ProxyConfig;
import dev.fulcrum.config.RetryConfig;
import dev.fulcrum.config.StickyConfig;
import dev.fulcrum.config.TimeoutConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * A lesson's config made fit for the engine it runs on: every demo backend's port replaced (0 for a fresh engine's
 * free ports, the port it already listens on for a running engine, where a demo backend keeps its port), and the
 * parts an engine fixes when it starts (its listeners, retries, timeouts, sticky sessions) set to given ones.
 */
final class LessonConfigs {
    private LessonConfigs() {
    }

    /** {@code config} with the port of each demo backend, in every pool, replaced by {@code port}'s answer. */
    static FulcrumConfig demoPorts(FulcrumConfig config, ToIntFunction<DemoBackendConfig> port) {
        FulcrumConfig c = config.withDefaultPool(set(config.defaultPool(), port));
        Map<String, PoolConfig> pools = new LinkedHashMap<>();
        c.pools().forEach((name, pool) -> pools.put(name, set(pool, port)));
        return c.withPools(pools);
    }

    /** {@code config} with the parts a running engine takes only at a restart replaced by these. */
    static FulcrumConfig withRestartParts(FulcrumConfig c, ProxyConfig proxy, AdminConfig admin, RetryConfig retries,
                                          TimeoutConfig timeouts, StickyConfig sticky) {
        return new FulcrumConfig(proxy, admin, c.strategy(), c.backends(), c.demoBackends(), c.healthCheck(),
                c.outlierDetection(), c.circuitBreaker(), retries, timeouts, c.slowStartMs(), sticky, c.pools(),
                c.routes(), c.discovery(), c.fallback(), c.pluginBudgetMs());
    }

    private static PoolConfig set(PoolConfig pool, ToIntFunction<DemoBackendConfig> port) {
        List<DemoBackendConfig> demos = pool.demoBackends().stream()
                .map(d -> d.withPort(port.applyAsInt(d)))
                .toList();
        return new PoolConfig(pool.strategy(), pool.backends(), demos, pool.discovery(), pool.fallback(),
                pool.pluginBudgetMs());
    }
}
