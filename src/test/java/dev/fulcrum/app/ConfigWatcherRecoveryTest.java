package dev.fulcrum.app;

import static dev.fulcrum.app.ConfigWatcherTest.readOnceTheEditIsSeen;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.testkit.FreePort;
import dev.fulcrum.time.ManualClock;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The watcher keeps applying edits whatever an earlier one did: a byte order mark, a failed apply, an override. */
class ConfigWatcherRecoveryTest {
    private static final String CONFIG = """
            {
              "proxy": {"host": "127.0.0.1", "port": 0},
              "admin": {"host": "127.0.0.1", "port": 0},
              "strategy": {"type": "round-robin"},
              "backends": [ {"id": "a", "url": "http://127.0.0.1:9", "weight": WEIGHT} ],
              "healthCheck": {"enabled": false}
            }
            """;

    @TempDir
    Path dir;

    private static int weight(FulcrumApp app, String id) {
        return app.engine().backends().stream().filter(v -> v.id().equals(id)).mapToInt(BackendView::weight)
                .findFirst().orElse(-1);
    }

    /** A file saved with a UTF-8 byte order mark: the start reads it (ConfigLoader.read strips the mark), and so do edits. */
    @Test
    void anEditOfAConfigFileSavedWithAByteOrderMarkIsApplied() throws Exception {
        Path file = dir.resolve("fulcrum.json");
        Files.writeString(file, "\uFEFF" + CONFIG.replace("WEIGHT", "2"), StandardCharsets.UTF_8);
        try (FulcrumApp app = FulcrumApp.start(ConfigLoader.load(file), file)) {
            assertThat(weight(app, "a")).isEqualTo(2);
            ConfigWatcher watcher = ConfigWatcher.start(file, app);
            try {
                Files.writeString(file, "\uFEFF" + CONFIG.replace("WEIGHT", "5"), StandardCharsets.UTF_8);
                List<String> problems = watcher.reload();
                assertThat(problems).isEmpty();
                assertThat(weight(app, "a")).isEqualTo(5);
            } finally {
                watcher.close();
            }
        }
    }

    /** An edit whose apply throws is reported as rejected, and the next edit of the file is applied. */
    @Test
    void theWatcherSurvivesAnEditThatFailsToApply() throws Exception {
        Path file = dir.resolve("fulcrum.json");
        Files.writeString(file, CONFIG.replace("WEIGHT", "2"));
        try (FulcrumApp app = FulcrumApp.start(ConfigLoader.load(file), file)) {
            List<EngineEvent> events = new CopyOnWriteArrayList<>();
            app.engine().subscribe(events::add);
            AtomicInteger applies = new AtomicInteger();
            ManualClock clock = new ManualClock();
            ConfigWatcher watcher = ConfigWatcher.start(file, next -> {
                if (applies.incrementAndGet() == 1) {
                    throw new IllegalStateException("the engine refused it");
                }
                return app.apply(next);
            }, app.engine(), clock);
            try {
                Files.writeString(file, CONFIG.replace("WEIGHT", "3"));
                readOnceTheEditIsSeen(clock);
                assertThat(events).anyMatch(e -> e.type().equals("config")
                        && e.to().equals("rejected: $: could not be applied: the engine refused it (got: " + file + ")"));
                assertThat(weight(app, "a")).isEqualTo(2);

                Files.writeString(file, CONFIG.replace("WEIGHT", "4"));
                readOnceTheEditIsSeen(clock);
                assertThat(weight(app, "a")).isEqualTo(4);
            } finally {
                watcher.close();
            }
        }
    }

    /**
     * An edit that moves a backend with a request in flight to another pool is applied (the request finishes on the
     * old entry), and so is the next edit.
     */
    @Test
    void anEditMovingABackendWithARequestInFlightIsAppliedAndSoIsTheNext() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        HttpServer slow = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        slow.createContext("/", ex -> {
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        slow.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        slow.start();
        String url = "http://127.0.0.1:" + slow.getAddress().getPort();
        String cfg = """
                {
                  "proxy": {"host": "127.0.0.1", "port": 0},
                  "admin": {"host": "127.0.0.1", "port": 0},
                  "strategy": {"type": "round-robin"},
                  "backends": [ %s {"id": "other", "url": "http://127.0.0.1:9", "weight": %d} ],
                  "pools": {"api": {"backends": [ %s {"id": "x", "url": "http://127.0.0.1:10"} ]}},
                  "healthCheck": {"enabled": false}, "outlierDetection": {"enabled": false},
                  "circuitBreaker": {"enabled": false}, "retries": {"maxRetries": 0}
                }
                """;
        String slowJson = "{\"id\": \"slow\", \"url\": \"" + url + "\"},";
        Path file = dir.resolve("fulcrum.json");
        Files.writeString(file, cfg.formatted(slowJson, 0, ""));
        FulcrumApp app = FulcrumApp.start(ConfigLoader.load(file), file);
        List<EngineEvent> events = new CopyOnWriteArrayList<>();
        app.engine().subscribe(events::add);
        ManualClock clock = new ManualClock();
        ConfigWatcher watcher = ConfigWatcher.start(file, app, clock);
        try {
            CompletableFuture<HttpResponse<Void>> inFlight = HttpClient.newHttpClient().sendAsync(
                    HttpRequest.newBuilder(URI.create(app.proxy().url() + "/x")).build(),
                    HttpResponse.BodyHandlers.discarding());
            await().atMost(Duration.ofSeconds(10)).until(() -> app.engine().backends().stream()
                    .anyMatch(v -> v.id().equals("slow") && v.activeRequests() == 1));
            // edit 1: slow moves to pool api while its request is in flight
            Files.writeString(file, cfg.formatted("", 0, slowJson));
            readOnceTheEditIsSeen(clock);
            assertThat(events).anyMatch(e -> e.type().equals("config") && e.to().equals("applied"));
            release.countDown();
            inFlight.get(20, TimeUnit.SECONDS);
            // edit 2: a plain, valid weight change
            Files.writeString(file, cfg.formatted("", 9, ""));
            readOnceTheEditIsSeen(clock);
            assertThat(weight(app, "other")).isEqualTo(9);
        } finally {
            release.countDown();
            watcher.close();
            app.close();
            slow.stop(0);
        }
    }

    @Test
    void anEditOfAFileWhosePortTheCommandLineOverridesIsApplied() throws Exception {
        // --proxy-port holds for every later config too: the file's own port is not a change that needs a restart
        int port = FreePort.loopback();
        int overridden = port;
        Path file = dir.resolve("fulcrum.json");
        Files.writeString(file, CONFIG.replace("WEIGHT", "2"));
        java.util.function.UnaryOperator<dev.fulcrum.config.FulcrumConfig> overrides = c -> c.withProxyPort(overridden);
        try (FulcrumApp app = FulcrumApp.start(overrides.apply(ConfigLoader.load(file)), file).overriding(overrides)) {
            assertThat(app.proxy().port()).isEqualTo(port);
            ConfigWatcher watcher = ConfigWatcher.start(file, app);
            try {
                Files.writeString(file, CONFIG.replace("WEIGHT", "5"));
                assertThat(watcher.reload()).isEmpty();
                assertThat(weight(app, "a")).isEqualTo(5);
                assertThat(app.liveConfig().proxy().port()).isEqualTo(port);
                // a port the file changes is a restart's business
                Files.writeString(file, CONFIG.replace("WEIGHT", "6").replace("\"proxy\": {\"host\": \"127.0.0.1\", \"port\": 0}",
                        "\"proxy\": {\"host\": \"127.0.0.2\", \"port\": 0}"));
                assertThat(watcher.reload()).containsExactly(
                        "proxy.host: takes effect at a restart; the running process keeps 127.0.0.1 (got: 127.0.0.2)");
                assertThat(weight(app, "a")).isEqualTo(5);
            } finally {
                watcher.close();
            }
        }
    }
}
