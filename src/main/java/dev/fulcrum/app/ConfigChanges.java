package dev.fulcrum.app;

import dev.fulcrum.config.BackendConfig;
import dev.fulcrum.config.ConfigValidator;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a new config changes in a running Fulcrum, worked out from a {@link Running} picture of it before anything is
 * touched: the changes it refuses ({@link #refusals}) and the steps that make the engine and the demo backends match
 * it ({@link #steps}). Nothing here changes anything; {@link ConfigReload} does the steps. Keeping the two apart
 * lets a reload be refused whole (docs/REFERENCE.md §1: all of it or none of it) and lets the diff be tested
 * without a server.
 *
 * <p>Refused: every field a restart sets (the proxy's listeners, TLS, limits, timeouts, retries, the sticky key,
 * the admin listener; not {@code proxy.logDecisions}, which a reload changes), one problem per field; a new URL for a
 * running backend id; a new port for a running demo backend; an id a discovery source already added; dropping the
 * admin token of an admin API on a public address.
 *
 * <p>Example: the default pool runs {@code a} (weight 1) and {@code b} (weight 2), round robin. The next config
 * lists {@code b} with weight 5, a new {@code c}, and switches to least-requests. Its steps are, in order:
 * <pre>
 *   remove a
 *   strategy default least-requests
 *   keep b
 *   weight b 2-&gt;5
 *   add default/c
 * </pre>
 * Removals come first so an id may move between pools; a backend whose pool, {@code maxInFlight} or
 * {@code backup} changed is moved ({@code move api/b}: a new entry, in-flight requests finish on the old one);
 * {@code keep} calls off a removal under way (a DELETE, an earlier config); a weight step appears only when the
 * weight changed, and a labels step ({@code labels b {zone=b}}) only when the labels did, so new labels never reset
 * a breaker or a counter; pools the next config drops are removed last.
 */
final class ConfigChanges {
    private ConfigChanges() {
    }

    /**
     * What runs now, as the diff reads it.
     *
     * @param config     the config last applied (the command line's overrides included)
     * @param backends   the engine's backends, every pool
     * @param strategies each engine pool's strategy, by pool name
     * @param demoPorts  each running demo backend's port, by id
     * @param discovered ids a discovery source added: neither the config's to list nor to remove
     * @param adminHost  where the admin API listens; null when it does not
     */
    record Running(FulcrumConfig config, List<BackendView> backends, Map<String, StrategySpec> strategies,
                   Map<String, Integer> demoPorts, Set<String> discovered, String adminHost) {
    }

    /** One thing to do to the engine or the demo fleet; its {@code toString} is the line of the class example. */
    sealed interface Step {
    }

    record RemoveBackend(String id) implements Step {
        @Override
        public String toString() {
            return "remove " + id;
        }
    }

    /** Stops a demo backend the next config no longer has, so its port is free for a later config. */
    record StopDemo(String id) implements Step {
        @Override
        public String toString() {
            return "stop demo " + id;
        }
    }

    record AddPool(String pool, StrategySpec strategy) implements Step {
        @Override
        public String toString() {
            return "add pool " + pool + " " + strategy.type();
        }
    }

    record SetStrategy(String pool, StrategySpec strategy) implements Step {
        @Override
        public String toString() {
            return "strategy " + pool + " " + strategy.type();
        }
    }

    /** A pool's fallback strategy and plugin budget (docs/REFERENCE.md §2.1), new or changed. */
    record SetFallback(String pool, StrategySpec fallback, long pluginBudgetMs) implements Step {
        @Override
        public String toString() {
            return "fallback " + pool + " " + fallback.type() + " " + pluginBudgetMs + "ms";
        }
    }

    /** Sets a running demo backend's latency and error rate to the config's. */
    record UpdateDemo(DemoBackendConfig demo) implements Step {
        @Override
        public String toString() {
            return "demo " + demo.id() + " " + demo.latencyMs() + "ms " + demo.errorRate();
        }
    }

    /** A backend new to the engine, added with slow start. */
    record AddBackend(String pool, BackendSpec spec) implements Step {
        @Override
        public String toString() {
            return "add " + pool + "/" + spec.id();
        }
    }

    /** A running backend in another pool or with another {@code maxInFlight} or {@code backup}: a new entry. */
    record MoveBackend(String pool, BackendSpec spec) implements Step {
        @Override
        public String toString() {
            return "move " + pool + "/" + spec.id();
        }
    }

    /** A running backend the config still lists; a removal under way is called off. */
    record KeepBackend(String id) implements Step {
        @Override
        public String toString() {
            return "keep " + id;
        }
    }

    record SetWeight(String id, int from, int to) implements Step {
        @Override
        public String toString() {
            return "weight " + id + " " + from + "->" + to;
        }
    }

    /** A running backend the config gives other labels: changed in place, its breaker and counters kept. */
    record Relabel(String id, Map<String, String> labels) implements Step {
        @Override
        public String toString() {
            return "labels " + id + " " + labels;
        }
    }

    record RemovePool(String pool) implements Step {
        @Override
        public String toString() {
            return "remove pool " + pool;
        }
    }

    /** The JSON path of {@code path} in {@code pool}'s part of the config: the default pool's fields are at the top. */
    static String inPool(String pool, String path) {
        return pool.equals(Engine.DEFAULT_POOL) ? path : "pools." + pool + "." + path;
    }

    /** What {@code next} changes that a running process cannot change in place, one problem per field. */
    static List<String> refusals(Running now, FulcrumConfig next) {
        List<String> out = new ArrayList<>();
        // an id a discovery source added is taken: the config cannot also list it
        next.allPools().forEach((pool, pc) -> {
            for (int i = 0; i < pc.backends().size(); i++) {
                String id = pc.backends().get(i).id();
                if (now.discovered().contains(id)) {
                    out.add(inPool(pool, "backends[" + i + "].id") + ": already taken by a discovered backend (got: "
                            + id + ")");
                }
            }
        });
        // a running demo backend keeps its port: to move it, remove it and add it again
        Map<String, Integer> configuredPorts = new HashMap<>();
        now.config().allPools().values()
                .forEach(pc -> pc.demoBackends().forEach(d -> configuredPorts.put(d.id(), d.port())));
        next.allPools().forEach((pool, pc) -> {
            for (int i = 0; i < pc.demoBackends().size(); i++) {
                DemoBackendConfig d = pc.demoBackends().get(i);
                Integer was = configuredPorts.get(d.id());
                Integer live = now.demoPorts().get(d.id());
                if (was != null && live != null && d.port() != was && d.port() != live) {
                    out.add(inPool(pool, "demoBackends[" + i + "].port") + ": a running demo backend keeps its port "
                            + "until a restart, or until it is removed and added again (it listens on " + live
                            + ") (got: " + d.port() + ")");
                }
            }
        });
        // listeners keep their address until a restart; a token must not be dropped from one that is public
        if (next.admin().token() == null && now.adminHost() != null && !ConfigValidator.isLoopback(now.adminHost())) {
            out.add("admin.token: required while the admin API listens on " + now.adminHost()
                    + " (a non-loopback host; restart to change admin.host) (got: null)");
        }
        // the proxy's settings are fixed when its listeners start (ports, TLS, limits, timeouts, retries, the sticky
        // key): a config that changes them is refused, not answered "applied" while the old ones go on
        FulcrumConfig running = now.config();
        // proxy.logDecisions is read per request: a reload turns it on or off (ConfigReload)
        restartOnly("proxy", running.proxy(), next.proxy().withLogDecisions(running.proxy().logDecisions()), out);
        restartOnly("admin.host", running.admin().host(), next.admin().host(), out);
        restartOnly("admin.port", running.admin().port(), next.admin().port(), out);
        restartOnly("retries", running.retries(), next.retries(), out);
        restartOnly("timeouts", running.timeouts(), next.timeouts(), out);
        restartOnly("stickySession", running.stickySession(), next.stickySession(), out);
        Map<String, String> urls = new HashMap<>();
        for (BackendView v : now.backends()) {
            urls.put(v.id(), v.url());
        }
        next.allPools().forEach((pool, pc) -> {
            for (int i = 0; i < pc.backends().size(); i++) {
                BackendConfig b = pc.backends().get(i);
                String was = urls.get(b.id());
                if (was != null && !sameUrl(was, b.url())) {
                    out.add(inPool(pool, "backends[" + i + "].url") + ": a running backend keeps its URL; remove it "
                            + "and add it under a new id (got: " + b.url() + ")");
                }
            }
        });
        return out;
    }

    /** One problem per field (of a record, field by field) whose value differs between the running and next config. */
    private static void restartOnly(String path, Object running, Object next, List<String> out) {
        if (Objects.equals(running, next)) {
            return;
        }
        if (running != null && next != null && running.getClass().isRecord() && running.getClass() == next.getClass()) {
            for (RecordComponent c : running.getClass().getRecordComponents()) {
                try {
                    restartOnly(path + "." + c.getName(), c.getAccessor().invoke(running), c.getAccessor().invoke(next),
                            out);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
            return;
        }
        // a secret is never echoed
        boolean secret = path.endsWith(".secret");
        out.add(path + ": takes effect at a restart; the running process keeps "
                + (secret ? "its own" : String.valueOf(running)) + " (got: " + (secret ? "another secret" : next) + ")");
    }

    private static boolean sameUrl(String a, String b) {
        return stripSlash(a).equals(stripSlash(b));
    }

    private static String stripSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    /**
     * The steps that make the engine and the demo fleet match {@code next}, in the order they must run (the class
     * example). Every demo backend of {@code next} is expected to run already: {@link ConfigReload} starts the new
     * ones first, since binding a port is the one step that can fail.
     */
    static List<Step> steps(Running now, FulcrumConfig next) {
        List<Step> out = new ArrayList<>();
        Map<String, PoolConfig> after = next.allPools();
        Map<String, BackendView> live = new HashMap<>();
        for (BackendView v : now.backends()) {
            live.put(v.id(), v);
        }
        Set<String> wantedIds = new TreeSet<>();
        for (PoolConfig pc : after.values()) {
            for (BackendSpec s : ConfigSpecs.backendSpecs(pc, now.demoPorts())) {
                wantedIds.add(s.id());
            }
        }
        // removals first, so ids can move between pools; an id that moves is moved below in one step, not drained
        for (BackendView v : now.backends()) {
            if (!wantedIds.contains(v.id()) && !now.discovered().contains(v.id())) {
                out.add(new RemoveBackend(v.id()));
            }
        }
        Set<String> demosWanted = new TreeSet<>();
        after.values().forEach(pc -> pc.demoBackends().forEach(d -> demosWanted.add(d.id())));
        for (String id : now.demoPorts().keySet()) {
            if (!demosWanted.contains(id)) {
                out.add(new StopDemo(id)); // its engine entry drains away as above
            }
        }
        for (Map.Entry<String, PoolConfig> e : after.entrySet()) {
            String pool = e.getKey();
            StrategySpec running = now.strategies().get(pool);
            StrategySpec wanted = e.getValue().strategy();
            if (running == null) {
                out.add(new AddPool(pool, wanted));
            } else if (!running.equals(wanted)) {
                out.add(new SetStrategy(pool, wanted));
            }
            PoolConfig before = running == null ? PoolConfig.DEFAULTS : now.config().allPools().get(pool);
            PoolConfig want = e.getValue();
            if (before == null || !before.fallback().equals(want.fallback())
                    || before.pluginBudgetMs() != want.pluginBudgetMs()) {
                out.add(new SetFallback(pool, want.fallback(), want.pluginBudgetMs()));
            }
            e.getValue().demoBackends().forEach(d -> out.add(new UpdateDemo(d)));
            for (BackendSpec s : ConfigSpecs.backendSpecs(e.getValue(), now.demoPorts())) {
                BackendView v = live.get(s.id());
                if (v == null) {
                    out.add(new AddBackend(pool, s));
                } else if (!v.pool().equals(pool) || !sameEntry(v, s)) {
                    out.add(new MoveBackend(pool, s)); // a URL change is refused above
                } else {
                    out.add(new KeepBackend(s.id()));
                    if (s.weight() != v.weight()) {
                        out.add(new SetWeight(s.id(), v.weight(), s.weight()));
                    }
                    if (!s.labels().equals(v.labels())) {
                        out.add(new Relabel(s.id(), s.labels()));
                    }
                }
            }
        }
        for (String pool : now.config().allPools().keySet()) {
            if (!after.containsKey(pool)) {
                out.add(new RemovePool(pool));
            }
        }
        return out;
    }

    /** Whether a running backend already is what {@code s} describes, its weight apart. */
    private static boolean sameEntry(BackendView v, BackendSpec s) {
        int cap = v.maxInFlight() == null ? 0 : v.maxInFlight();
        int wanted = s.maxInFlight() == null ? 0 : s.maxInFlight();
        return v.url().equals(s.url()) && cap == wanted && v.backup() == s.backup();
    }
}
