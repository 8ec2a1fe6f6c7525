package dev.fulcrum.app;

import dev.fulcrum.admin.AdminServer;
import dev.fulcrum.app.ConfigChanges.AddBackend;
import dev.fulcrum.app.ConfigChanges.AddPool;
import dev.fulcrum.app.ConfigChanges.KeepBackend;
import dev.fulcrum.app.ConfigChanges.MoveBackend;
import dev.fulcrum.app.ConfigChanges.Relabel;
import dev.fulcrum.app.ConfigChanges.RemoveBackend;
import dev.fulcrum.app.ConfigChanges.RemovePool;
import dev.fulcrum.app.ConfigChanges.Running;
import dev.fulcrum.app.ConfigChanges.SetStrategy;
import dev.fulcrum.app.ConfigChanges.SetWeight;
import dev.fulcrum.app.ConfigChanges.Step;
import dev.fulcrum.app.ConfigChanges.StopDemo;
import dev.fulcrum.app.ConfigChanges.UpdateDemo;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.demo.DemoBackend;
import dev.fulcrum.demo.DemoFleet;
import dev.fulcrum.discovery.Discovery;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.health.HealthChecker;
import dev.fulcrum.proxy.ProxyServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies a new config to a running Fulcrum in place, all of it or none of it (docs/REFERENCE.md §1, §4): what a
 * {@code PUT /api/config}, a saved {@code --config} file and SIGHUP do. Pools, backends, weights, strategies,
 * routes, health checks, breakers, slow start, discovery sources, the admin token and the demo backends change
 * without a restart; what only a restart can change is refused, one problem per field.
 *
 * <p>The order makes it all or nothing:
 * <ol>
 *   <li>{@link ConfigChanges#refusals} against what runs now: any problem, and nothing is touched;</li>
 *   <li>the demo backends the config adds are started: binding a port is the one step that can fail, so a port in
 *       use stops the ones just started and is reported, with nothing else changed;</li>
 *   <li>in one engine batch (one rebuild per pool at the end, so a pool of 1,000 reweighted backends rebuilds its
 *       ring once and traffic never sees it half applied): the engine settings (breakers, slow start, outlier
 *       detection), the {@link ConfigChanges#steps} worked out from the engine as it is inside the batch, the
 *       routes, and last the pools the config drops;</li>
 *   <li>discovery sources, the admin token, the health checks and {@code proxy.logDecisions} (from the next
 *       request on).</li>
 * </ol>
 *
 * <p>Example: the running config has demo backend {@code d} and the next one adds {@code e} on a port another
 * process holds. Step 2 fails: {@code e} is not started, the answer is
 * {@code demoBackends[1].port: demo backend e cannot listen on 127.0.0.1:9102 (<the bind error>) (got: 9102)}
 * and {@code d}, the pools and the engine stay as they were. Had {@code e}'s port been free, {@code e} would be
 * listening before the batch, and the batch's steps would add it to the pool at that port.
 *
 * <p>Recording the applied config as the running one, and announcing it, is the caller's ({@link FulcrumApp}).
 */
final class ConfigReload {
    private final Engine engine;
    private final DemoFleet demos;
    private final Discovery discovery;
    private final AdminServer admin;
    private final HealthChecker health;
    /** The proxy, whose {@code proxy.logDecisions} a reload changes; null when there is none to change. */
    private final ProxyServer proxy;

    ConfigReload(Engine engine, DemoFleet demos, Discovery discovery, AdminServer admin, HealthChecker health) {
        this(engine, demos, discovery, admin, health, null);
    }

    ConfigReload(Engine engine, DemoFleet demos, Discovery discovery, AdminServer admin, HealthChecker health,
                 ProxyServer proxy) {
        this.engine = engine;
        this.demos = demos;
        this.discovery = discovery;
        this.admin = admin;
        this.health = health;
        this.proxy = proxy;
    }

    /**
     * Makes the running components match {@code next}.
     *
     * @param running the config applied last
     * @return the problems (each {@code <json path>: <what> (got: <value>)}), nothing changed; empty when applied
     */
    synchronized List<String> apply(FulcrumConfig running, FulcrumConfig next) {
        List<String> problems = ConfigChanges.refusals(running(running), next);
        if (!problems.isEmpty()) {
            return problems;
        }
        problems = startNewDemos(next);
        if (!problems.isEmpty()) {
            return problems;
        }
        engine.batch(() -> {
            engine.setSettings(next.toEngineSettings());
            List<Step> steps = ConfigChanges.steps(running(running), next);
            // the new routes before the pools they stop naming are removed (the steps' last): a request that reads
            // the router never finds a route to a pool that is gone
            run(steps.stream().filter(s -> !(s instanceof RemovePool)).toList());
            engine.setRouter(next.toRouter());
            run(steps.stream().filter(s -> s instanceof RemovePool).toList());
        });
        discovery.configure(ConfigSpecs.discoveryByPool(next));
        admin.setToken(next.admin().token());
        health.setSpec(ConfigSpecs.healthSpec(next.healthCheck()));
        if (next.healthCheck().enabled() && !health.isRunning()) {
            health.start();
        }
        if (proxy != null) {
            proxy.logDecisions(next.proxy().logDecisions());
        }
        return List.of();
    }

    /** What runs now, for the diff. */
    private Running running(FulcrumConfig config) {
        Map<String, StrategySpec> strategies = new HashMap<>();
        for (Pool p : engine.pools()) {
            strategies.put(p.name(), p.snapshot().spec());
        }
        return new Running(config, engine.backends(), strategies, ConfigSpecs.demoPorts(demos), discovery.ownedIds(),
                admin.host());
    }

    /** Starts the demo backends {@code next} adds; a port in use stops the ones just started and is the answer. */
    private List<String> startNewDemos(FulcrumConfig next) {
        List<String> started = new ArrayList<>();
        for (Map.Entry<String, PoolConfig> e : next.allPools().entrySet()) {
            List<DemoBackendConfig> ds = e.getValue().demoBackends();
            for (int i = 0; i < ds.size(); i++) {
                DemoBackendConfig d = ds.get(i);
                if (demos.get(d.id()) != null) {
                    continue;
                }
                try {
                    demos.add(ConfigSpecs.demoSpec(d));
                    started.add(d.id());
                } catch (RuntimeException ex) {
                    for (String id : started) {
                        demos.remove(id);
                    }
                    String path = ConfigChanges.inPool(e.getKey(), "demoBackends[" + i + "].port");
                    return List.of(path + ": demo backend " + d.id() + " cannot listen on 127.0.0.1:" + d.port() + " ("
                            + ex.getMessage() + ") (got: " + d.port() + ")");
                }
            }
        }
        return List.of();
    }

    /** Does the diff's steps, in their order, on the engine's control thread (inside the batch). */
    private void run(List<Step> steps) {
        for (Step s : steps) {
            if (s instanceof RemoveBackend r) {
                engine.remove(r.id());
            } else if (s instanceof StopDemo d) {
                demos.remove(d.id());
            } else if (s instanceof AddPool p) {
                engine.addPool(p.pool(), p.strategy());
            } else if (s instanceof SetStrategy p) {
                engine.setStrategy(p.pool(), p.strategy());
            } else if (s instanceof ConfigChanges.SetFallback f) {
                engine.setFallback(f.pool(), f.fallback(), f.pluginBudgetMs());
            } else if (s instanceof UpdateDemo u) {
                DemoBackend d = demos.get(u.demo().id());
                if (d == null) {
                    demos.add(ConfigSpecs.demoSpec(u.demo())); // startNewDemos started every new one; this is a guard
                } else {
                    d.update((double) u.demo().latencyMs(), u.demo().errorRate(), null);
                }
            } else if (s instanceof AddBackend a) {
                engine.addBackend(a.pool(), a.spec(), true);
            } else if (s instanceof MoveBackend m) {
                engine.move(m.spec().id(), m.pool(), m.spec(), true); // in-flight requests finish on the old entry
            } else if (s instanceof KeepBackend k) {
                engine.keep(k.id());
            } else if (s instanceof SetWeight w) {
                engine.setWeight(w.id(), w.to());
            } else if (s instanceof Relabel l) {
                engine.relabel(l.id(), l.labels());
            } else if (s instanceof RemovePool p) {
                engine.removePool(p.pool());
            } else {
                throw new IllegalStateException("a step this reload cannot do: " + s);
            }
        }
    }
}
