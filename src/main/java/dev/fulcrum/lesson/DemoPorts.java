package dev.fulcrum.lesson;

import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * A config with the port of every demo backend, in every pool, replaced: 0 for a fresh lesson engine (free ports),
 * the port it already listens on for a lesson applied to a running engine (a running demo backend keeps its port).
 */
final class DemoPorts {
    private DemoPorts() {
    }

    static FulcrumConfig set(FulcrumConfig config, ToIntFunction<DemoBackendConfig> port) {
        FulcrumConfig c = config.withDefaultPool(set(config.defaultPool(), port));
        Map<String, PoolConfig> pools = new LinkedHashMap<>();
        c.pools().forEach((name, pool) -> pools.put(name, set(pool, port)));
        return c.withPools(pools);
    }

    private static PoolConfig set(PoolConfig pool, ToIntFunction<DemoBackendConfig> port) {
        List<DemoBackendConfig> demos = pool.demoBackends().stream()
                .map(d -> new DemoBackendConfig(d.id(), port.applyAsInt(d), d.weight(), d.latencyMs(), d.errorRate()))
                .toList();
        return new PoolConfig(pool.strategy(), pool.backends(), demos, pool.discovery());
    }
}
