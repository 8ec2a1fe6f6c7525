package dev.fulcrum.proxy;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.StrategySpec;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * What the proxy's integration tests share: an engine with one round-robin pool, the proxy in front of it on
 * an OS-chosen port, an HTTP/1.1 client, and whatever else a test opens, all closed after each test.
 */
abstract class ProxyTestBase {
    protected final List<AutoCloseable> closeables = new ArrayList<>();
    protected final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    protected Engine engine;
    protected ProxyServer proxy;

    @AfterEach
    void closeAll() throws Exception {
        if (proxy != null) {
            proxy.close();
        }
        if (engine != null) {
            engine.close();
        }
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    /** Starts the engine and the proxy; {@code idUrlPairs} are the default pool's backends, weight 1. */
    protected void start(EngineSettings engineSettings, ProxySettings settings, String... idUrlPairs) {
        engine = Engine.start(engineSettings);
        engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.ROUND_ROBIN));
        for (int i = 0; i < idUrlPairs.length; i += 2) {
            engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec(idUrlPairs[i], idUrlPairs[i + 1], 1, null, false), false);
        }
        proxy = new ProxyServer(engine, settings).start();
    }

    protected void start(ProxySettings settings, String... idUrlPairs) {
        start(EngineSettings.DEFAULT, settings, idUrlPairs);
    }

    /** Requests in flight over every backend. */
    protected int inFlight() {
        return engine.backends().stream().mapToInt(BackendView::activeRequests).sum();
    }
}
