package dev.fulcrum.app;

import dev.fulcrum.admin.AdminRuntime;
import dev.fulcrum.admin.AdminServer;
import dev.fulcrum.admin.ConfigExport;
import dev.fulcrum.config.BackendConfig;
import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.ConfigProblem;
import dev.fulcrum.config.ConfigValidator;
import dev.fulcrum.config.ConfigWriter;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.HealthCheckConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.config.DiscoveryConfig;
import dev.fulcrum.demo.DemoBackend;
import dev.fulcrum.discovery.Discovery;
import dev.fulcrum.demo.DemoFleet;
import dev.fulcrum.demo.DemoSpec;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.health.HealthCheckSpec;
import dev.fulcrum.health.HealthChecker;
import dev.fulcrum.health.MetricsPoller;
import dev.fulcrum.health.ProbeResult;
import dev.fulcrum.proxy.ProxyServer;
import dev.fulcrum.proxy.ProxySettings;
import dev.fulcrum.proxy.TlsContexts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running Fulcrum: engine, demo backends, proxy, admin API, health checks and the metrics poller,
 * wired from a config. The window and headless mode both run exactly this.
 *
 * <p>Threading: {@link #applyConfig} and the admin commands are serialised on this object's monitor; the
 * engine's own control thread owns pool state. Start-up is all or nothing: a port in use stops everything
 * already started and reports which listener failed.
 */
public final class FulcrumApp implements AdminRuntime, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FulcrumApp.class);

    private final Engine engine;
    private final DemoFleet demos;
    private volatile ProxyServer proxy;
    private final AdminServer admin;
    private final HealthChecker health;
    private final MetricsPoller metricsPoller;
    private final Discovery discovery;
    private final Path configFile;
    private volatile FulcrumConfig config;
    private volatile ConfigWatcher watcher;
    private volatile java.util.function.UnaryOperator<FulcrumConfig> overrides = c -> c;

    private FulcrumApp(FulcrumConfig config, Path configFile) {
        this.config = config;
        this.configFile = configFile;
        this.engine = Engine.start(config.toEngineSettings());
        DemoFleet fleet = null;
        ProxyServer p = null;
        AdminServer a = null;
        HealthChecker h = null;
        MetricsPoller m = null;
        Discovery disc = null;
        try {
            fleet = DemoFleet.start(demoSpecs(config));
            DemoFleet demosStarted = fleet;
            engine.batch(() -> { // each pool built once, not once per backend (1000 backends: 6.4 s to ready)
                for (Map.Entry<String, PoolConfig> e : config.allPools().entrySet()) {
                    engine.addPool(e.getKey(), e.getValue().strategy());
                    addBackends(e.getKey(), e.getValue(), demosStarted, false);
                }
            });
            engine.setRouter(config.toRouter());
            p = listening("proxy.port", config.proxy().host(), config.proxy().port(),
                    () -> new ProxyServer(engine, proxySettings(config)).start());
            this.proxy = p;
            a = listening("admin.port", config.admin().host(), config.admin().port(),
                    () -> new AdminServer(this, config.admin().host(), config.admin().port(), config.admin().token()).start());
            p.setRequestListener(a.requestListener());
            a.countBackendConnections(p::backendConnectionsOpened);
            h = new HealthChecker(engine, healthSpec(config.healthCheck()));
            if (config.healthCheck().enabled()) {
                h.start();
            }
            m = new MetricsPoller(engine).start();
            disc = new Discovery(engine);
            disc.configure(discoveryByPool(config));
        } catch (RuntimeException e) {
            closeQuietly(disc, m, h, a, p, fleet, engine);
            throw e;
        }
        this.discovery = disc;
        this.demos = fleet;
        this.admin = a;
        this.health = h;
        this.metricsPoller = m;
    }

    /** The JSON path of {@code path} in {@code pool}'s part of the config: the default pool's fields are at the top. */
    private static String inPool(String pool, String path) {
        return pool.equals(Engine.DEFAULT_POOL) ? path : "pools." + pool + "." + path;
    }

    /** Whether a running backend already is what {@code s} describes, its weight apart. */
    private static boolean sameEntry(BackendView v, BackendSpec s) {
        int cap = v.maxInFlight() == null ? 0 : v.maxInFlight();
        int wanted = s.maxInFlight() == null ? 0 : s.maxInFlight();
        return v.url().equals(s.url()) && cap == wanted && v.backup() == s.backup();
    }

    /** Starts a listener; a port in use is reported with the field and the address ("java.net.BindException" was all). */
    private static <T> T listening(String field, String host, int port, java.util.function.Supplier<T> start) {
        try {
            return start.get();
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof java.net.BindException b) {
                    throw new IllegalStateException(field + ": cannot listen on " + host + ":" + port + " ("
                            + b.getMessage() + ")", e);
                }
            }
            throw e;
        }
    }

    /** Starts everything the config describes; throws if a listener cannot bind. */
    public static FulcrumApp start(FulcrumConfig config, Path configFile) {
        return new FulcrumApp(config, configFile);
    }

    public Engine engine() {
        return engine;
    }

    public ProxyServer proxy() {
        return proxy;
    }

    public AdminServer admin() {
        return admin;
    }

    public DemoFleet demos() {
        return demos;
    }

    public Path configFile() {
        return configFile;
    }

    public FulcrumConfig currentConfig() {
        return config;
    }

    /** The docs/REFERENCE.md §1 ready line. */
    public String readyLine() {
        return "fulcrum ready proxy=" + proxy.url() + " admin=" + admin.url();
    }

    @Override
    public String proxyUrl() {
        ProxyServer p = proxy;
        return p == null ? null : p.url();
    }

    @Override
    public Object config() {
        return ConfigWriter.toTree(liveConfig());
    }

    /** The running config with the live membership and weights, so a save keeps what the operator changed. */
    public synchronized FulcrumConfig liveConfig() {
        FulcrumConfig c = config;
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
            List<DemoBackendConfig> demosNow = new ArrayList<>();
            for (DemoBackendConfig d : pc.demoBackends()) {
                demoIds.add(d.id());
            }
            List<BackendConfig> backends = new ArrayList<>();
            Set<String> discovered = discovery == null ? Set.of() : discovery.ownedIds();
            for (BackendView v : byPool.getOrDefault(e.getKey(), List.of())) {
                if (discovered.contains(v.id())) {
                    continue; // discovery brings it back; the file keeps the source, not its answers
                }
                if (demoIds.contains(v.id())) {
                    DemoBackend d = demos.get(v.id());
                    demosNow.add(new DemoBackendConfig(v.id(), d == null ? 0 : d.spec().port(), v.weight(),
                            d == null ? 5 : Math.round(d.latencyMs()), d == null ? 0 : d.errorRate()));
                } else {
                    backends.add(new BackendConfig(v.id(), v.url(), v.weight(), v.maxInFlight(), v.backup()));
                }
            }
            PoolConfig next = new PoolConfig(pool == null ? pc.strategy() : pool.snapshot().spec(), backends, demosNow);
            if (e.getKey().equals(Engine.DEFAULT_POOL)) {
                def = next;
            } else {
                pools.put(e.getKey(), next);
            }
        }
        FulcrumConfig out = def == null ? c : c.withDefaultPool(def);
        return out.withPools(pools);
    }

    // ---------------------------------------------------------------- applying a new config

    @Override
    public synchronized List<String> applyConfig(String json) {
        FulcrumConfig next;
        try {
            next = ConfigLoader.parse(json);
        } catch (ConfigException e) {
            return e.problems().stream().map(ConfigProblem::describe).toList();
        }
        return apply(next);
    }

    /** Applies a valid config: pools, backends, weights, strategies, routes, demo faults, health checks. */
    public synchronized List<String> apply(FulcrumConfig given) {
        FulcrumConfig next = overrides.apply(given);
        List<String> problems = changeProblems(next);
        if (!problems.isEmpty()) {
            return problems;
        }
        problems = startNewDemos(next);
        if (!problems.isEmpty()) {
            return problems;
        }
        FulcrumConfig prev = config;
        // one rebuild per pool at the end, not one per backend: 1000 reweighted backends took 25 s (a 160,000-point
        // ring rebuilt each time) and traffic saw the pool half applied meanwhile
        engine.batch(() -> applyToEngine(prev, next));
        discovery.configure(discoveryByPool(next));
        admin.setToken(next.admin().token());
        health.setSpec(healthSpec(next.healthCheck()));
        if (next.healthCheck().enabled() && !health.isRunning()) {
            health.start();
        }
        config = next;
        engine.publish("config", null, null, null, "applied");
        return List.of();
    }

    /** The engine's side of {@link #apply}: pools, strategies, demo backends, members, weights and routes. */
    private void applyToEngine(FulcrumConfig prev, FulcrumConfig next) {
        engine.setSettings(next.toEngineSettings());
        Map<String, PoolConfig> before = prev.allPools();
        Map<String, PoolConfig> after = next.allPools();
        // removed backends (and pools) first, so ids can move between pools
        Map<String, String> liveIds = new HashMap<>();
        Map<String, BackendView> liveViews = new HashMap<>();
        for (BackendView v : engine.backends()) {
            liveIds.put(v.id(), v.pool());
            liveViews.put(v.id(), v);
        }
        Set<String> wanted = new TreeSet<>();
        for (Map.Entry<String, PoolConfig> e : after.entrySet()) {
            for (BackendSpec s : specs(e.getValue(), demos)) {
                wanted.add(e.getKey() + "/" + s.id());
            }
        }
        Set<String> wantedIds = new TreeSet<>();
        wanted.forEach(w -> wantedIds.add(w.substring(w.indexOf('/') + 1)));
        Set<String> discovered = discovery.ownedIds();
        for (Map.Entry<String, String> live : liveIds.entrySet()) {
            // an id that moves to another pool is moved below in one step, not drained away
            if (!wantedIds.contains(live.getKey()) && !discovered.contains(live.getKey())) {
                engine.remove(live.getKey());
            }
        }
        // a demo backend the new config no longer has is stopped, so its port is free and a later config may
        // start it again (on another port); its engine entry drains away as above
        Set<String> demosWanted = new TreeSet<>();
        for (PoolConfig pc : after.values()) {
            for (DemoBackendConfig d : pc.demoBackends()) {
                demosWanted.add(d.id());
            }
        }
        for (DemoBackend d : demos.all()) {
            if (!demosWanted.contains(d.id())) {
                demos.remove(d.id());
            }
        }
        for (Map.Entry<String, PoolConfig> e : after.entrySet()) {
            Pool p = engine.pool(e.getKey());
            if (p == null) {
                engine.addPool(e.getKey(), e.getValue().strategy());
            } else if (!p.snapshot().spec().equals(e.getValue().strategy())) {
                engine.setStrategy(e.getKey(), e.getValue().strategy());
            }
            for (DemoBackendConfig d : e.getValue().demoBackends()) {
                DemoBackend running = demos.get(d.id());
                if (running == null) {
                    demos.add(new DemoSpec(d.id(), d.port(), d.weight(), d.latencyMs(), d.errorRate()));
                } else {
                    running.update((double) d.latencyMs(), d.errorRate(), null);
                }
            }
            for (BackendSpec s : specs(e.getValue(), demos)) {
                String pool = liveIds.get(s.id());
                if (pool == null) {
                    engine.addBackend(e.getKey(), s, true);
                } else if (!pool.equals(e.getKey()) || !sameEntry(liveViews.get(s.id()), s)) {
                    // another pool, maxInFlight or backup (a URL change is refused above): a new entry (the edit
                    // was answered 'applied' and then ignored); in-flight requests finish on the old one
                    engine.move(s.id(), e.getKey(), s, true);
                } else {
                    engine.keep(s.id()); // a removal under way (DELETE, an earlier config) is called off
                    if (s.weight() != liveViews.get(s.id()).weight()) {
                        engine.setWeight(s.id(), s.weight()); // only a change: every apply said "weight a 1->1"
                    }
                }
            }
        }
        for (String name : before.keySet()) {
            if (!after.containsKey(name)) {
                engine.removePool(name);
            }
        }
        engine.setRouter(next.toRouter());
    }

    /**
     * Starts the demo backends {@code next} adds, before anything else changes: binding a port is the one step
     * of applying that can fail, so a port in use stops the ones just started and reports it, with nothing
     * changed (PUT /api/config is all or nothing).
     */
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
                    demos.add(new DemoSpec(d.id(), d.port(), d.weight(), d.latencyMs(), d.errorRate()));
                    started.add(d.id());
                } catch (RuntimeException ex) {
                    for (String id : started) {
                        demos.remove(id);
                    }
                    String path = inPool(e.getKey(), "demoBackends[" + i + "].port");
                    return List.of(path + ": demo backend " + d.id() + " cannot listen on 127.0.0.1:" + d.port() + " ("
                            + ex.getMessage() + ") (got: " + d.port() + ")");
                }
            }
        }
        return List.of();
    }

    /** What a running process cannot change in place; reported as problems so nothing is half applied. */
    private List<String> changeProblems(FulcrumConfig next) {
        List<String> out = new ArrayList<>();
        // an id a discovery source added is taken: the config cannot also list it
        Set<String> discovered = discovery.ownedIds();
        next.allPools().forEach((pool, pc) -> {
            for (int i = 0; i < pc.backends().size(); i++) {
                String id = pc.backends().get(i).id();
                if (discovered.contains(id)) {
                    String path = inPool(pool, "backends[" + i + "].id");
                    out.add(path + ": already taken by a discovered backend (got: " + id + ")");
                }
            }
        });
        // a running demo backend keeps its port (PUT answered 200 and left it where it was): remove it, add it again
        Map<String, Integer> configuredPorts = new HashMap<>();
        config.allPools().values().forEach(pc -> pc.demoBackends().forEach(d -> configuredPorts.put(d.id(), d.port())));
        next.allPools().forEach((pool, pc) -> {
            for (int i = 0; i < pc.demoBackends().size(); i++) {
                DemoBackendConfig d = pc.demoBackends().get(i);
                Integer was = configuredPorts.get(d.id());
                DemoBackend live = demos.get(d.id());
                if (was != null && live != null && d.port() != was && d.port() != live.port()) {
                    String path = inPool(pool, "demoBackends[" + i + "].port");
                    out.add(path + ": a running demo backend keeps its port until a restart, or until it is removed and "
                            + "added again (it listens on " + live.port() + ") (got: " + d.port() + ")");
                }
            }
        });
        // listeners keep their address until a restart; a token must not be dropped from one that is public
        if (next.admin().token() == null && admin != null && !ConfigValidator.isLoopback(admin.host())) {
            out.add("admin.token: required while the admin API listens on " + admin.host()
                    + " (a non-loopback host; restart to change admin.host) (got: null)");
        }
        // the proxy's settings are fixed when its listeners start (ports, TLS, limits, timeouts, retries, the sticky
        // key): a config that changes them is refused, not answered "applied" while the old ones go on
        FulcrumConfig now = config;
        restartProblems("proxy", now.proxy(), next.proxy(), out);
        restartProblems("admin.host", now.admin().host(), next.admin().host(), out);
        restartProblems("admin.port", now.admin().port(), next.admin().port(), out);
        restartProblems("retries", now.retries(), next.retries(), out);
        restartProblems("timeouts", now.timeouts(), next.timeouts(), out);
        restartProblems("stickySession", now.stickySession(), next.stickySession(), out);
        Map<String, String> urls = new HashMap<>();
        for (BackendView v : engine.backends()) {
            urls.put(v.id(), v.url());
        }
        next.allPools().forEach((pool, pc) -> {
            for (int i = 0; i < pc.backends().size(); i++) {
                BackendConfig b = pc.backends().get(i);
                String was = urls.get(b.id());
                if (was != null && !sameUrl(was, b.url())) {
                    String path = inPool(pool, "backends[" + i + "].url");
                    out.add(path + ": a running backend keeps its URL; remove it and add it under a new id (got: " + b.url() + ")");
                }
            }
        });
        return out;
    }

    /** One problem per field (of a record, field by field) whose value differs between the running and next config. */
    private static void restartProblems(String path, Object running, Object next, List<String> out) {
        if (java.util.Objects.equals(running, next)) {
            return;
        }
        if (running != null && next != null && running.getClass().isRecord() && running.getClass() == next.getClass()) {
            for (java.lang.reflect.RecordComponent c : running.getClass().getRecordComponents()) {
                try {
                    restartProblems(path + "." + c.getName(), c.getAccessor().invoke(running), c.getAccessor().invoke(next), out);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
            return;
        }
        // a secret is never echoed
        String got = path.endsWith(".secret") ? "another secret" : String.valueOf(next);
        out.add(path + ": takes effect at a restart; the running process keeps "
                + (path.endsWith(".secret") ? "its own" : String.valueOf(running)) + " (got: " + got + ")");
    }

    private static boolean sameUrl(String a, String b) {
        return stripSlash(a).equals(stripSlash(b));
    }

    private static String stripSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    // ---------------------------------------------------------------- demo, export, health

    @Override
    public void updateDemo(String id, Double latencyMs, Double errorRate, Boolean down) {
        DemoBackend d = demos.get(id);
        if (d == null) {
            throw new EngineException(404, "demo backend: no such id (got: " + id + ")");
        }
        try {
            d.update(latencyMs, errorRate, down);
        } catch (IllegalArgumentException e) {
            throw new EngineException(400, e.getMessage());
        }
    }

    @Override
    public Map<String, Map<String, Object>> demoState() {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        for (DemoBackend d : demos.all()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", d.id());
            m.put("port", d.port());
            m.put("latencyMs", d.latencyMs());
            m.put("errorRate", d.errorRate());
            m.put("down", d.isDown());
            m.put("inFlight", d.inFlight());
            out.put(d.id(), m);
        }
        return out;
    }

    @Override
    public String export(String format, String pool) {
        return ConfigExport.export(liveConfig(), engine, format, pool);
    }

    @Override
    public Map<String, List<Map<String, Object>>> probeHistory() {
        Map<String, List<Map<String, Object>>> out = new LinkedHashMap<>();
        for (BackendView v : engine.backends()) {
            List<Map<String, Object>> list = new ArrayList<>();
            for (ProbeResult r : health.history(v.id())) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("at", r.atMillis());
                m.put("ok", r.ok());
                m.put("latencyMs", r.latencyMs());
                m.put("status", r.status());
                m.put("error", r.error());
                list.add(m);
            }
            out.put(v.id(), list);
        }
        return out;
    }

    // ---------------------------------------------------------------- wiring helpers

    static ProxySettings proxySettings(FulcrumConfig c) {
        return new ProxySettings(c.proxy().host(), c.proxy().port(), c.proxy().maxHeaderBytes(),
                c.proxy().drainTimeoutMs(), c.proxy().accessLog(), c.proxy().preserveHost(), c.retries().maxRetries(),
                c.retries().retryNonIdempotent(), c.timeouts().connectMs(), c.timeouts().readMs(),
                c.timeouts().idleMs(), c.timeouts().requestHeaderMs(), c.stickySession().enabled(),
                c.stickySession().cookie(), c.stickySession().ttlSeconds(), stickySecret(c),
                c.proxy().tls().enabled() ? new ProxySettings.Tls(c.proxy().tls().port(), c.proxy().tls().certificate(),
                        c.proxy().tls().privateKey(), c.proxy().tls().http2(), TlsContexts.defaultDir()) : null,
                c.proxy().ioThreads());
    }

    /**
     * The sticky-cookie key: a digest of {@code stickySession.secret} (when set), the cookie name and every
     * backend's id and URL, so any instance started with the same config honours the same cookies. Without a
     * secret nothing in it is secret: cookies are opaque but can be forged by whoever guesses the backends.
     */
    static byte[] stickySecret(FulcrumConfig c) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(("fulcrum-sticky|" + c.stickySession().cookie()).getBytes(StandardCharsets.UTF_8));
            String secret = c.stickySession().secret();
            if (secret != null) {
                d.update(("|secret|" + secret.length() + "|" + secret).getBytes(StandardCharsets.UTF_8));
            }
            for (Map.Entry<String, PoolConfig> e : c.allPools().entrySet()) {
                d.update(("|" + e.getKey()).getBytes(StandardCharsets.UTF_8));
                for (BackendConfig b : e.getValue().backends()) {
                    d.update(("|" + b.id() + "=" + b.url()).getBytes(StandardCharsets.UTF_8));
                }
                for (DemoBackendConfig b : e.getValue().demoBackends()) {
                    d.update(("|" + b.id() + "=demo").getBytes(StandardCharsets.UTF_8));
                }
            }
            return d.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static HealthCheckSpec healthSpec(HealthCheckConfig h) {
        return new HealthCheckSpec(h.enabled(), h.path(), h.intervalMs(), h.timeoutMs(), h.expectedStatus());
    }

    private static Map<String, List<DiscoveryConfig>> discoveryByPool(FulcrumConfig c) {
        Map<String, List<DiscoveryConfig>> out = new LinkedHashMap<>();
        c.allPools().forEach((name, p) -> out.put(name, p.discovery()));
        return out;
    }

    public Discovery discovery() {
        return discovery;
    }

    private static List<DemoSpec> demoSpecs(FulcrumConfig c) {
        List<DemoSpec> out = new ArrayList<>();
        for (PoolConfig p : c.allPools().values()) {
            for (DemoBackendConfig d : p.demoBackends()) {
                out.add(new DemoSpec(d.id(), d.port(), d.weight(), d.latencyMs(), d.errorRate()));
            }
        }
        return out;
    }

    /** The engine specs of a pool: its static backends, and its demo backends at their actual ports. */
    private static List<BackendSpec> specs(PoolConfig p, DemoFleet fleet) {
        List<BackendSpec> out = new ArrayList<>();
        for (BackendConfig b : p.backends()) {
            out.add(b.toSpec());
        }
        for (DemoBackendConfig d : p.demoBackends()) {
            DemoBackend running = fleet.get(d.id());
            out.add(running != null ? d.toSpec(running.port()) : d.toSpec());
        }
        return out;
    }

    private void addBackends(String pool, PoolConfig p, DemoFleet fleet, boolean slowStart) {
        for (BackendSpec s : specs(p, fleet)) {
            engine.addBackend(pool, s, slowStart);
        }
    }

    /** What the command line sets over every config this process applies (--proxy-port, --admin-port). */
    public FulcrumApp overriding(java.util.function.UnaryOperator<FulcrumConfig> overrides) {
        this.overrides = overrides;
        return this;
    }

    /** Applies valid edits of the config file live from now on (no-op without a file). */
    public FulcrumApp watchConfigFile() {
        if (configFile != null && watcher == null) {
            watcher = ConfigWatcher.start(configFile, this);
        }
        return this;
    }

    /**
     * What an operator's signals ask of a running Fulcrum besides stopping, as nginx: SIGHUP reads the config file
     * again (applied when valid, the running config kept otherwise), SIGUSR1 reopens the access log file. Both killed
     * the process at once before (exit 129 and 138), with requests in flight cut off.
     */
    public void handleOperatorSignals() {
        sun.misc.Signal.handle(new sun.misc.Signal("HUP"), s -> {
            ConfigWatcher w = watcher;
            if (w == null) {
                LOG.info("SIGHUP: no config file to read again");
                return;
            }
            LOG.info("SIGHUP: reading {} again", configFile);
            w.reloadNow();
        });
        sun.misc.Signal.handle(new sun.misc.Signal("USR1"), s -> {
            LOG.info("SIGUSR1: reopening the access log");
            proxy.reopenAccessLog();
        });
    }

    /** Graceful stop: refuse new requests, let in-flight ones finish (up to drainTimeoutMs), close all. */
    public boolean shutdownGracefully() {
        boolean clean = proxy.shutdownGracefully();
        close();
        return clean;
    }

    @Override
    public void close() {
        closeQuietly(watcher, discovery, metricsPoller, health, admin, proxy, demos, engine);
    }

    private static void closeQuietly(AutoCloseable... cs) {
        for (AutoCloseable c : cs) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    LOG.debug("close failed", e);
                }
            }
        }
    }
}
