package dev.fulcrum.testkit;

import dev.fulcrum.app.FulcrumApp;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.HealthCheckConfig;
import dev.fulcrum.config.OutlierConfig;
import dev.fulcrum.config.RetryConfig;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.proxy.ProxyServer;
import dev.fulcrum.proxy.ProxySettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Fulcrum running for a test, on ports of 127.0.0.1 the OS chose, in one of two shapes, with an HTTP/1.1 client
 * for it; {@link #close()} stops it and everything the test handed over.
 *
 * <ul>
 *   <li>{@link #bareProxy}: the proxy in front of an engine, wired as production wires them ({@code Engine.start},
 *   a round-robin default pool, {@link ProxyServer}): the proxy's own tests, against backends they script.
 *   Example: {@code RunningFulcrum.bareProxy(TestSettings.proxy().readMs(500).build()).backend("s", raw).start()}.
 *   <li>{@link #wholeApp}: a whole {@link FulcrumApp} (proxy, admin API, demo backends, health checks as its config
 *   says): the admin API's and the window's tests. {@link #demoApp()} starts the usual two demo backends.
 * </ul>
 */
public final class RunningFulcrum implements AutoCloseable {
    /** Two demo backends (weights 1 and 2) on round-robin, retries off; {@code %s}: admin token, then extra fields. */
    public static final String DEMO_JSON = """
            {
              "proxy": {"host": "127.0.0.1", "port": 0},
              "admin": {"host": "127.0.0.1", "port": 0%s},
              "strategy": {"type": "round-robin"},
              "demoBackends": [
                {"id": "demo-a", "port": 0, "weight": 1, "latencyMs": 0, "errorRate": 0.0},
                {"id": "demo-b", "port": 0, "weight": 2, "latencyMs": 0, "errorRate": 0.0}
              ],
              "retries": {"maxRetries": 0}%s
            }
            """;

    /** Health checks off, so no probe events interleave with what a test scripts. */
    public static final String QUIET = ", \"healthCheck\": {\"enabled\": false}";

    private final FulcrumApp app;
    private final Engine engine;
    private final ProxyServer proxy;
    private final String token;
    private final List<AutoCloseable> owned;
    /** Its own, so no connection pooled for an earlier test's port is reused. */
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private RunningFulcrum(FulcrumApp app, Engine engine, ProxyServer proxy, String token, List<AutoCloseable> owned) {
        this.app = app;
        this.engine = engine;
        this.proxy = proxy;
        this.token = token;
        this.owned = owned;
    }

    // ---------------------------------------------------------------- starting

    /** The proxy with {@code settings} in front of an engine; name its backends, then {@link BareProxy#start()}. */
    public static BareProxy bareProxy(ProxySettings settings) {
        return new BareProxy(settings);
    }

    /** A whole app with {@code config}; then {@link WholeApp#start()}. */
    public static WholeApp wholeApp(FulcrumConfig config) {
        return new WholeApp(config);
    }

    /** A whole app with the config in {@code json}. */
    public static WholeApp wholeApp(String json) {
        return wholeApp(ConfigLoader.parse(json));
    }

    /** The whole app on {@link #DEMO_JSON}, health checks off, no token. */
    public static RunningFulcrum demoApp() {
        return demoApp(null, QUIET);
    }

    /** The whole app on {@link #demoJson}{@code (token, extra)}, its client sending {@code token}. */
    public static RunningFulcrum demoApp(String token, String extra) {
        return wholeApp(demoJson(token, extra)).token(token).start();
    }

    /**
     * {@link #DEMO_JSON} with an admin token (or none) and {@code extra} top-level fields, starting with a comma,
     * e.g. {@code ,"circuitBreaker":{...}}.
     */
    public static String demoJson(String token, String extra) {
        return DEMO_JSON.formatted(token == null ? "" : ", \"token\": \"" + token + "\"", extra);
    }

    /** Demo backends (see {@link #demo}) on port 0 with health checks and outlier detection off, retries none. */
    public static FulcrumConfig demoConfig(StrategySpec strategy, BreakerConfig breaker, List<DemoBackendConfig> demos) {
        FulcrumConfig c = FulcrumConfig.of(strategy, List.of(), demos).withProxyPort(0).withAdminPort(0);
        return new FulcrumConfig(c.proxy(), c.admin(), c.strategy(), c.backends(), c.demoBackends(),
                new HealthCheckConfig(false, "/health", 2000, 1000, 200, 2, 3),
                new OutlierConfig(false, 5, 30_000, 50), breaker, new RetryConfig(0, false), c.timeouts(),
                c.slowStartMs(), c.stickySession(), c.pools(), c.routes());
    }

    /** A demo backend on port 0. */
    public static DemoBackendConfig demo(String id, int weight, long latencyMs, double errorRate) {
        return new DemoBackendConfig(id, 0, weight, latencyMs, errorRate);
    }

    /** Options for {@link #bareProxy}: the engine's settings and the default pool's backends (weight 1). */
    public static final class BareProxy {
        private final ProxySettings settings;
        private EngineSettings engineSettings = EngineSettings.DEFAULT;
        private final List<BackendSpec> backends = new ArrayList<>();
        private final List<AutoCloseable> owned = new ArrayList<>();

        private BareProxy(ProxySettings settings) {
            this.settings = settings;
        }

        public BareProxy engine(EngineSettings s) {
            engineSettings = s;
            return this;
        }

        public BareProxy backend(String id, String url) {
            backends.add(new BackendSpec(id, url, 1, null, false));
            return this;
        }

        /** A raw backend as {@code id}, closed with the proxy. */
        public BareProxy backend(String id, RawBackend b) {
            owned.add(b);
            return backend(id, b.url());
        }

        /** A recording backend under its name, closed with the proxy. */
        public BareProxy backend(RecordingBackend b) {
            owned.add(b);
            return backend(b.name, b.url());
        }

        public RunningFulcrum start() {
            Engine engine = Engine.start(engineSettings);
            engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.ROUND_ROBIN));
            for (BackendSpec b : backends) {
                engine.addBackend(Engine.DEFAULT_POOL, b, false);
            }
            return new RunningFulcrum(null, engine, new ProxyServer(engine, settings).start(), null, owned);
        }
    }

    /** Options for {@link #wholeApp}: the config file it reloads from and the admin token its client sends. */
    public static final class WholeApp {
        private final FulcrumConfig config;
        private Path file;
        private String token;

        private WholeApp(FulcrumConfig config) {
            this.config = config;
        }

        /** The file the app treats as its config (for reloads and saves); by default none. */
        public WholeApp configFile(Path f) {
            file = f;
            return this;
        }

        /** The bearer token {@link #call} sends; the config must name the same. */
        public WholeApp token(String t) {
            token = t;
            return this;
        }

        public RunningFulcrum start() {
            FulcrumApp app = FulcrumApp.start(config, file);
            return new RunningFulcrum(app, app.engine(), app.proxy(), token, new ArrayList<>());
        }
    }

    // ---------------------------------------------------------------- what runs

    /** The whole app; only for {@link #wholeApp}. */
    public FulcrumApp app() {
        if (app == null) {
            throw new IllegalStateException("a bare proxy has no app");
        }
        return app;
    }

    public Engine engine() {
        return engine;
    }

    public ProxyServer proxy() {
        return proxy;
    }

    /** The proxy's URL. */
    public String url() {
        return proxy.url();
    }

    public int port() {
        return proxy.port();
    }

    public String adminUrl() {
        return app().admin().url();
    }

    public String token() {
        return token;
    }

    /** Closes {@code c} after the proxy and engine. */
    public <T extends AutoCloseable> T own(T c) {
        owned.add(c);
        return c;
    }

    /** Requests in flight over every backend. */
    public int inFlight() {
        return engine.backends().stream().mapToInt(BackendView::activeRequests).sum();
    }

    /** The backend's view, or null when the engine has no backend {@code id}. */
    public BackendView backend(String id) {
        return engine.backends().stream().filter(v -> v.id().equals(id)).findFirst().orElse(null);
    }

    // ---------------------------------------------------------------- talking to it

    /** An HTTP/1.1 client (connect timeout 5 s) for requests a test builds itself. */
    public HttpClient http() {
        return http;
    }

    /** An answer with its body as text. */
    public record Answer(int status, String body, HttpResponse<String> raw) {
        public String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }
    }

    /** An admin GET with the token. */
    public Answer get(String path) {
        return call("GET", path, null);
    }

    /** An admin request with the token; {@code body} is JSON, or null for none. */
    public Answer call(String method, String path, String body) {
        return call(method, path, body, token);
    }

    /** An admin request; {@code auth} null sends no Authorization header. */
    public Answer call(String method, String path, String body, String auth) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(adminUrl() + path)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (auth != null) {
            b.header("Authorization", "Bearer " + auth);
        }
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return send(b.build());
    }

    /** A GET through the proxy. */
    public Answer proxied(String path) {
        return send(HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(20)).build());
    }

    /** A GET through the proxy with one extra header. */
    public Answer proxied(String path, String header, String value) {
        return send(HttpRequest.newBuilder(URI.create(url() + path)).header(header, value)
                .timeout(Duration.ofSeconds(20)).build());
    }

    /** A GET through the proxy; its status, or -1 when the connection failed (within 5 s). */
    public int status(String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** Starts a GET through the proxy that stays in flight while the backend is slow (at most 20 s). */
    public CompletableFuture<HttpResponse<Void>> getAsync(String path) {
        return http.sendAsync(HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.discarding());
    }

    /** Raw bytes to the proxy, read as {@link RawHttp#send} reads them. */
    public RawHttp.RawAnswer raw(byte[] request, int readTimeoutMs) throws IOException {
        return RawHttp.send(port(), request, readTimeoutMs);
    }

    private Answer send(HttpRequest r) {
        try {
            HttpResponse<String> resp = http.send(r, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Answer(resp.statusCode(), resp.body(), resp);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Stops the app (or the proxy, then the engine), then closes what the test handed over. */
    @Override
    public void close() {
        if (app != null) {
            app.close();
        } else {
            proxy.close();
            engine.close();
        }
        for (AutoCloseable c : owned) {
            try {
                c.close();
            } catch (Exception e) {
                // best effort teardown
            }
        }
    }
}
