package dev.fulcrum.ui;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.app.FulcrumApp;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.HealthCheckConfig;
import dev.fulcrum.config.OutlierConfig;
import dev.fulcrum.config.RetryConfig;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.StrategySpec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;
import javafx.stage.Stage;

/** Real engines for the window's tests: demo backends and every listener on port 0, loopback only. */
public final class UiTestSupport {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private UiTestSupport() {
    }

    /** Demo backends (id, errorRate, latencyMs) on port 0 with health checks and outlier detection off. */
    public static FulcrumConfig config(StrategySpec strategy, BreakerConfig breaker, List<DemoBackendConfig> demos) {
        FulcrumConfig c = FulcrumConfig.of(strategy, List.of(), demos).withProxyPort(0).withAdminPort(0);
        return new FulcrumConfig(c.proxy(), c.admin(), c.strategy(), c.backends(), c.demoBackends(),
                new HealthCheckConfig(false, "/health", 2000, 1000, 200, 2, 3),
                new OutlierConfig(false, 5, 30_000, 50), breaker, new RetryConfig(0, false), c.timeouts(),
                c.slowStartMs(), c.stickySession(), c.pools(), c.routes());
    }

    public static DemoBackendConfig demo(String id, int weight, long latencyMs, double errorRate) {
        return new DemoBackendConfig(id, 0, weight, latencyMs, errorRate);
    }

    /** Opens the whole window for {@code app} on {@code stage}, with preferences that are not the user's. */
    public static MainWindow open(Stage stage, FulcrumApp app) {
        UiSession session = new UiSession(new InProcessEngineClient(app), "embedded engine (test)");
        session.setBreakerConfig(app.currentConfig().circuitBreaker());
        MainWindow w = MainWindow.show(stage, session, testPrefs());
        stage.setWidth(1280);
        stage.setHeight(800);
        stage.show();
        session.start();
        return w;
    }

    static WindowPrefs testPrefs() {
        Preferences node = Preferences.userRoot().node("dev/fulcrum/test-window");
        try {
            node.clear();
        } catch (BackingStoreException e) {
            // a fresh node is as good: the tests only need the defaults
        }
        return new WindowPrefs(node);
    }

    /** Sends a GET through the proxy and returns the status (or -1 when the connection failed). */
    public static int get(FulcrumApp app, String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(app.proxyUrl() + path)).timeout(Duration.ofSeconds(5))
                    .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    /** Starts a GET that stays in flight while the backend is slow. */
    public static CompletableFuture<HttpResponse<Void>> getAsync(FulcrumApp app, String path) {
        return HTTP.sendAsync(HttpRequest.newBuilder(URI.create(app.proxyUrl() + path)).timeout(Duration.ofSeconds(20))
                .build(), HttpResponse.BodyHandlers.discarding());
    }

    public static BackendView backend(FulcrumApp app, String id) {
        return app.engine().backends().stream().filter(b -> b.id().equals(id)).findFirst().orElse(null);
    }
}
