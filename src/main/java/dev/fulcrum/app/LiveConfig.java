package dev.fulcrum.app;

import dev.fulcrum.config.BackendConfig;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.demo.DemoBackend;
import dev.fulcrum.demo.DemoFleet;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.Pool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The running config as it is now: the config applied last, with each pool's members, weights, labels and strategy
 * as the engine has them and each demo backend's faults as it runs them. It is what {@code GET /api/config} answers
 * and a save writes, so a save keeps what the operator changed live. Backends a discovery source added are left out:
 * its source brings them back.
 *
 * <p>Example: the config lists {@code a} (weight 1) and demo backend {@code d} (latency 5 ms); the operator set
 * {@code a} to weight 3, added {@code b} and gave {@code d} 200 ms. The live config lists {@code a} weight 3,
 * {@code b}, and {@code d} with {@code latencyMs} 200; everything else is the config's.
 */
final class LiveConfig {
    private LiveConfig() {
    }

    static FulcrumConfig of(FulcrumConfig c, Engine engine, DemoFleet demos, Set<String> discovered) {
        Map<String, List<BackendView>> byPool = new HashMap<>();
        for (BackendView v : engine.backends()) {
            byPool.computeIfAbsent(v.pool(), k -> new ArrayList<>()).add(v);
        }
        Map<String, PoolConfig> pools = new LinkedHashMap<>();
        PoolConfig def = null;
        for (Map.Entry<String, PoolConfig> e : c.allPools().entrySet()) {
            Pool pool = engine.pool(e.getKey());
            PoolConfig pc = e.getValue();
            Set<String> demoIds = new TreeSet<>();
            for (DemoBackendConfig d : pc.demoBackends()) {
                demoIds.add(d.id());
            }
            List<DemoBackendConfig> demosNow = new ArrayList<>();
            List<BackendConfig> backends = new ArrayList<>();
            for (BackendView v : byPool.getOrDefault(e.getKey(), List.of())) {
                if (discovered.contains(v.id())) {
                    continue; // the source's answer, not the config's
                }
                if (demoIds.contains(v.id())) {
                    DemoBackend d = demos.get(v.id());
                    demosNow.add(new DemoBackendConfig(v.id(), d == null ? 0 : d.spec().port(), v.weight(),
                            d == null ? 5 : Math.round(d.latencyMs()), d == null ? 0 : d.errorRate(), v.labels()));
                } else {
                    backends.add(new BackendConfig(v.id(), v.url(), v.weight(), v.maxInFlight(), v.backup(),
                            v.labels()));
                }
            }
            PoolConfig next = new PoolConfig(pool == null ? pc.strategy() : pool.snapshot().spec(), backends, demosNow,
                    pc.discovery(), pool == null ? pc.fallback() : pool.fallback(),
                    pool == null ? pc.pluginBudgetMs() : pool.pluginBudgetMs());
            if (e.getKey().equals(Engine.DEFAULT_POOL)) {
                def = next;
            } else {
                pools.put(e.getKey(), next);
            }
        }
        FulcrumConfig out = def == null ? c : c.withDefaultPool(def);
        return out.withPools(pools);
    }
}
