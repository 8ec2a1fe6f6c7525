package dev.fulcrum.app;

import dev.fulcrum.admin.AdminRuntime;
import dev.fulcrum.admin.AdminServer;
import dev.fulcrum.admin.ConfigExport;
import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.ConfigProblem;
import dev.fulcrum.config.ConfigWriter;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.demo.DemoBackend;
import dev.fulcrum.demo.DemoFleet;
import dev.fulcrum.discovery.Discovery;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.health.HealthChecker;
import dev.fulcrum.health.MetricsPoller;
import dev.fulcrum.health.ProbeResult;
import dev.fulcrum.proxy.ProxyServer;
import java.net.BindException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running Fulcrum: engine, demo backends, proxy, admin API, health checks, the metrics poller and discovery,
 * wired from a config, and their lifecycle (start, config file watch, operator signals, graceful stop). The window
 * (through {@link EmbeddedFulcrum}) and headless mode both run exactly this. A later config is applied by
 * {@link ConfigReload}; the running config with its live edits is {@link LiveConfig}.
 *
 * <p>Threading: {@link #applyConfig}, {@link #apply} and {@link #liveConfig} are serialised on this object's
 * monitor; the engine's own control thread owns pool state. Start-up is all or nothing: a port in use stops
 * everything already started and reports which listener failed.
 */
public final class FulcrumApp implements AdminRuntime, EmbeddedFulcrum {
    private static final Logger LOG = LoggerFactory.getLogger(FulcrumApp.class);

    private final Engine engine;
    private final DemoFleet demos;
    /** Set as soon as it listens: the admin API, started next, may ask for its URL before start-up ends. */
    private volatile ProxyServer proxy;
    private final AdminServer admin;
    private final HealthChecker health;
    private final MetricsPoller metricsPoller;
    private final Discovery discovery;
    private final ConfigReload reload;
    private final Path configFile;
    private volatile FulcrumConfig config;
    private volatile ConfigWatcher watcher;
    private volatile EtcdConfigSource etcd;
    private volatile UnaryOperator<FulcrumConfig> overrides = c -> c;

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
            fleet = DemoFleet.start(ConfigSpecs.demoSpecs(config));
            Map<String, Integer> demoPorts = ConfigSpecs.demoPorts(fleet);
            engine.batch(() -> { // each pool built once, not once per backend
                for (Map.Entry<String, PoolConfig> e : config.allPools().entrySet()) {
                    engine.addPool(e.getKey(), e.getValue().strategy());
                    engine.setFallback(e.getKey(), e.getValue().fallback(), e.getValue().pluginBudgetMs());
                    for (BackendSpec s : ConfigSpecs.backendSpecs(e.getValue(), demoPorts)) {
                        engine.addBackend(e.getKey(), s, false);
                    }
                }
            });
            engine.setRouter(config.toRouter());
            p = listening("proxy.port", config.proxy().host(), config.proxy().port(),
                    () -> new ProxyServer(engine, ConfigSpecs.proxySettings(config)).start());
            this.proxy = p;
            a = listening("admin.port", config.admin().host(), config.admin().port(),
                    () -> new AdminServer(this, config.admin().host(), config.admin().port(), config.admin().token()).start());
            p.setRequestListener(a.requestListener());
            a.countBackendConnections(p::backendConnectionsOpened);
            h = new HealthChecker(engine, ConfigSpecs.healthSpec(config.healthCheck()));
            if (config.healthCheck().enabled()) {
                h.start();
            }
            m = new MetricsPoller(engine).start();
            disc = new Discovery(engine);
            disc.configure(ConfigSpecs.discoveryByPool(config));
        } catch (RuntimeException e) {
            closeQuietly(disc, m, h, a, p, fleet, engine);
            throw e;
        }
        this.discovery = disc;
        this.demos = fleet;
        this.admin = a;
        this.health = h;
        this.metricsPoller = m;
        this.reload = new ConfigReload(engine, fleet, disc, a, h, p);
    }

    /** Starts a listener; a port in use is reported with the field and the address, not as a bare BindException. */
    private static <T> T listening(String field, String host, int port, Supplier<T> start) {
        try {
            return start.get();
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof BindException b) {
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

    @Override
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

    public Discovery discovery() {
        return discovery;
    }

    public Path configFile() {
        return configFile;
    }

    /** The config applied last (the command line's overrides included). */
    public FulcrumConfig currentConfig() {
        return config;
    }

    @Override
    public String readyLine() {
        String https = proxy.tlsUrl();
        return "fulcrum ready proxy=" + proxy.url() + " admin=" + admin.url() + (https == null ? "" : " https=" + https);
    }

    @Override
    public String portNote() {
        return overrides instanceof FreePorts f ? f.note() : null;
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
        Set<String> discovered = discovery == null ? Set.of() : discovery.ownedIds();
        return LiveConfig.of(config, engine, demos, discovered);
    }

    // ---------------------------------------------------------------- a new config

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

    /** Applies a valid config in place ({@link ConfigReload}); returns the problems, empty when applied. */
    public List<String> apply(FulcrumConfig given) {
        return apply(given, "applied");
    }

    /**
     * {@link #apply(FulcrumConfig)}, the {@code config} event saying {@code applied} (e.g. {@code applied revision 7}
     * for a config from etcd).
     */
    public synchronized List<String> apply(FulcrumConfig given, String applied) {
        FulcrumConfig next = overrides.apply(given);
        List<String> problems = reload.apply(config, next);
        if (problems.isEmpty()) {
            config = next;
            engine.publish("config", null, null, null, applied);
        }
        return problems;
    }

    /** What the command line sets over every config this process applies (--proxy-port, --admin-port). */
    public FulcrumApp overriding(UnaryOperator<FulcrumConfig> overrides) {
        this.overrides = overrides;
        return this;
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
            m.put("received", d.receivedByMethod());
            m.put("mirrored", d.mirrored());
            out.put(d.id(), m);
        }
        return out;
    }

    @Override
    public String export(String format, String pool) {
        return ConfigExport.export(liveConfig(), engine, format, pool);
    }

    @Override
    public dev.fulcrum.requests.RequestStream requests() {
        ProxyServer p = proxy;
        return p == null ? null : p.requests();
    }

    @Override
    public List<dev.fulcrum.requests.RequestSample> openTunnels() {
        ProxyServer p = proxy;
        return p == null ? List.of() : p.listOpenTunnels();
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

    // ---------------------------------------------------------------- what the window takes from an embedded engine

    @Override
    public EngineClient client() {
        return new InProcessEngineClient(this);
    }

    @Override
    public Pool pool(String name) {
        return engine.pool(name);
    }

    @Override
    public void spike(String demoId, long ms) {
        DemoBackend d = demos == null ? null : demos.get(demoId);
        if (d == null) {
            throw new IllegalArgumentException("spike: no demo backend with this id (got: " + demoId + ")");
        }
        d.spike(ms);
    }

    @Override
    public String stickyBackend(Pool pool, RequestContext request) {
        return proxy == null ? null : proxy.stickyBackend(pool, request);
    }

    @Override
    public String httpsUrl() {
        ProxyServer p = proxy;
        return p == null ? null : p.tlsUrl();
    }

    @Override
    public void trust(java.util.function.Consumer<String> line) {
        LocalTrust.forUser(printingLines(line)).trust(config.proxy().tls().names());
    }

    @Override
    public void untrust(java.util.function.Consumer<String> line) {
        LocalTrust.forUser(printingLines(line)).untrust();
    }

    /** A stream that hands each line printed to it, without its line end, to {@code line}. */
    static java.io.PrintStream printingLines(java.util.function.Consumer<String> line) {
        java.io.OutputStream splitter = new java.io.OutputStream() {
            private final java.io.ByteArrayOutputStream pending = new java.io.ByteArrayOutputStream();

            @Override
            public void write(int b) {
                if (b == '\n') {
                    line.accept(pending.toString(java.nio.charset.StandardCharsets.UTF_8).stripTrailing());
                    pending.reset();
                } else {
                    pending.write(b);
                }
            }
        };
        return new java.io.PrintStream(splitter, true, java.nio.charset.StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- lifecycle

    /**
     * Follows the config in etcd that {@code start} read and this app was started from (docs/REFERENCE.md §8):
     * applies its changes and drains, and registers this instance, until {@link #close()}.
     */
    public FulcrumApp follow(EtcdConfigSource.Start start) {
        if (etcd == null) {
            etcd = EtcdConfigSource.start(this, start);
        }
        return this;
    }

    /** The config in etcd this app follows, or null (a file, or the embedded default). */
    public EtcdConfigSource etcd() {
        return etcd;
    }

    @Override
    public Map<String, Object> configSource() {
        EtcdConfigSource e = etcd;
        return e == null ? null : e.describe();
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
     * again (applied when valid, the running config kept otherwise), SIGUSR1 reopens the access log file. Without
     * handlers both would end the process at once, cutting off requests in flight.
     */
    @Override
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

    @Override
    public boolean shutdownGracefully() {
        closeQuietly(etcd); // leaves the fleet first: a window on it stops sending this instance's operators here
        boolean clean = proxy.shutdownGracefully();
        close();
        return clean;
    }

    @Override
    public void close() {
        closeQuietly(etcd, watcher, discovery, metricsPoller, health, admin, proxy, demos, engine);
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
