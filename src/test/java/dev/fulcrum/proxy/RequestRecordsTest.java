package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.AdminModel;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.requests.RequestSample;
import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.TestSettings;
import dev.fulcrum.testkit.WebSocketEcho;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every finished exchange reaches the request stream (what the window and {@code /api/requests} show) and the
 * access log as the client saw it: the attempts with the retry's path, the key a hashing strategy hashed, a client
 * that hung up as 499 with the backend it was waiting on, an upgraded connection as 101 at its close with the bytes
 * that went each way.
 */
class RequestRecordsTest {
    @TempDir
    Path dir;
    private RunningFulcrum f;
    private WebSocketEcho wsServer;
    private final List<Integer> statuses = new CopyOnWriteArrayList<>();
    private final List<String> answeredBy = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        if (f != null) {
            f.close();
        }
        if (wsServer != null) {
            wsServer.close();
        }
    }

    private Path start(RecordingBackend... backends) {
        Path log = dir.resolve("access.log");
        RunningFulcrum.BareProxy p = RunningFulcrum.bareProxy(TestSettings.proxy().accessLog(log.toString()).build());
        for (RecordingBackend b : backends) {
            p.backend(b);
        }
        f = p.start();
        f.proxy().setRequestListener((backend, status, latency) -> {
            answeredBy.add(String.valueOf(backend));
            statuses.add(status);
        });
        return log;
    }

    private List<RequestSample> recent() {
        return f.proxy().requests().recent(100);
    }

    private static String logLine(Path log, String containing) {
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(log)
                && Files.readAllLines(log).stream().anyMatch(l -> l.contains(containing)));
        try {
            return Files.readAllLines(log).stream().filter(l -> l.contains(containing)).findFirst().orElseThrow();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aRequestIsRecordedWithItsHeadersAttemptsAndAnswer() throws Exception {
        start(new RecordingBackend("a"));
        HttpResponse<String> r = f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/hello?x=1"))
                .header("X-Test", "1").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(10)).until(() -> !recent().isEmpty());
        RequestSample s = recent().get(0);

        assertThat(s.method()).isEqualTo("GET");
        assertThat(s.path()).isEqualTo("/hello");
        assertThat(s.query()).isEqualTo("x=1");
        assertThat(s.pool()).isEqualTo(Engine.DEFAULT_POOL);
        assertThat(s.client()).isEqualTo("127.0.0.1");
        assertThat(s.protocol()).isEqualTo("HTTP/1.1");
        assertThat(s.backend()).isEqualTo("a");
        assertThat(s.status()).isEqualTo(200);
        assertThat(s.attempts()).singleElement().satisfies(a -> {
            assertThat(a.backend()).isEqualTo("a");
            assertThat(a.outcome()).isEqualTo("SUCCESS");
        });
        assertThat(s.retried()).isFalse();
        assertThat(s.refused()).isFalse();
        assertThat(s.key()).as("round robin hashes nothing").isNull();
        assertThat(s.latencyMs()).isPositive();
        assertThat(s.bytesOut()).isEqualTo(r.body().length());
        assertThat(s.requestHeaders()).contains(new RequestSample.Header("X-Test", "1"));
        assertThat(s.responseHeaders()).contains(new RequestSample.Header("X-Fulcrum-Backend", "a"));
    }

    @Test
    void anHttp2AnswerIsRecordedWithItsFieldsAndWithoutThePseudoHeaderStatus() throws Exception {
        start(new RecordingBackend("a"));
        try (RawH2 c = new RawH2("127.0.0.1", f.port(), false)) {
            int id = c.get("app.test", "/h2");
            assertThat(c.streams.get(id).await(5_000)).isTrue();
            assertThat(c.streams.get(id).status).isEqualTo(200);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> !recent().isEmpty());
        RequestSample s = recent().get(0);
        assertThat(s.protocol()).isEqualTo("HTTP/2.0");
        assertThat(s.status()).isEqualTo(200);
        assertThat(s.responseHeaders()).contains(new RequestSample.Header("X-Fulcrum-Backend", "a"))
                .noneMatch(h -> h.name().startsWith(":"));
        assertThat(s.requestHeaders()).noneMatch(h -> h.name().startsWith(":"));
    }

    @Test
    void aRetryShowsItsPathAndNoBackendIsARefusal() throws Exception {
        RecordingBackend dead = new RecordingBackend("dead");
        RecordingBackend live = new RecordingBackend("live");
        start(dead, live);
        dead.kill();
        for (int i = 0; i < 4; i++) {
            assertThat(f.status("/r" + i)).isEqualTo(200);
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> recent().stream().anyMatch(RequestSample::retried));
        RequestSample retried = recent().stream().filter(RequestSample::retried).findFirst().orElseThrow();
        assertThat(retried.attempts()).extracting(RequestSample.Attempt::backend).containsExactly("dead", "live");
        assertThat(retried.attempts()).extracting(RequestSample.Attempt::outcome)
                .containsExactly("CONNECT_FAILURE", "SUCCESS");
        assertThat(retried.backend()).isEqualTo("live");

        f.engine().drain("live");
        f.engine().drain("dead");
        await().atMost(Duration.ofSeconds(10)).until(() -> f.status("/none") == 503);
        await().atMost(Duration.ofSeconds(10)).until(() -> recent().get(0).status() == 503);
        RequestSample refused = recent().get(0);
        assertThat(refused.refused()).isTrue();
        assertThat(refused.attempts()).isEmpty();
        assertThat(refused.backend()).isNull();
    }

    @Test
    void theKeyAHashingStrategyHashedIsRecordedWithItsHash() throws Exception {
        start(new RecordingBackend("a"), new RecordingBackend("b"));
        f.engine().setStrategy(Engine.DEFAULT_POOL, StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "path"));
        assertThat(f.status("/k/alice")).isEqualTo(200);

        await().atMost(Duration.ofSeconds(10)).until(() -> !recent().isEmpty());
        RequestSample s = recent().get(0);

        assertThat(s.key()).isEqualTo("/k/alice");
        assertThat(s.keyHashText()).isEqualTo(AdminModel.lookup(f.engine().pool(Engine.DEFAULT_POOL), "/k/alice")
                .get("hash").toString());
        assertThat(s.backend()).isEqualTo(AdminModel.lookup(f.engine().pool(Engine.DEFAULT_POOL), "/k/alice")
                .get("backend"));
    }

    @Test
    void aClientThatHangsUpIsLogged499WithTheBackendItWaitedOn() throws Exception {
        RecordingBackend slow = new RecordingBackend("slow");
        slow.delayMs = 3_000;
        Path log = start(slow);
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", f.port()), 5_000);
            OutputStream out = s.getOutputStream();
            out.write("GET /waiting HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            await().atMost(Duration.ofSeconds(10)).until(() -> slow.requests.get() == 1);
        }

        String line = logLine(log, "/waiting");

        assertThat(line).contains("\"status\":499").contains("\"backend\":\"slow\"");
        await().atMost(Duration.ofSeconds(10)).until(() -> statuses.contains(499));
        assertThat(answeredBy).contains("slow");
        RequestSample r = recent().get(0);
        assertThat(r.status()).isEqualTo(499);
        assertThat(r.backend()).as("nobody answered").isNull();
        assertThat(r.attempts()).singleElement().satisfies(a -> {
            assertThat(a.backend()).isEqualTo("slow");
            assertThat(a.outcome()).isEqualTo("CLIENT_ABORT");
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> f.inFlight() == 0);
    }

    @Test
    void anUpgradedConnectionIsLogged101AtItsCloseWithTheBytesEachWay() throws Exception {
        wsServer = new WebSocketEcho();
        int port = wsServer.port();
        Path log = dir.resolve("access.log");
        f = RunningFulcrum.bareProxy(TestSettings.proxy().accessLog(log.toString()).build())
                .backend("ws", "http://127.0.0.1:" + port).start();
        CompletableFuture<String> echoed = new CompletableFuture<>();
        CompletableFuture<Integer> closed = new CompletableFuture<>();
        WebSocket ws = f.http().newWebSocketBuilder().buildAsync(URI.create(f.url().replace("http", "ws") + "/ws"),
                new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                        echoed.complete(data.toString());
                        w.request(1); // and the close frame after it
                        return null;
                    }

                    @Override
                    public CompletionStage<?> onClose(WebSocket w, int code, String reason) {
                        closed.complete(code);
                        return null;
                    }
                }).get(10, TimeUnit.SECONDS);
        ws.sendText("a message of some length", true).get(5, TimeUnit.SECONDS);
        assertThat(echoed.get(10, TimeUnit.SECONDS)).isEqualTo("echo: a message of some length");
        assertThat(Files.exists(log) && Files.readString(log).contains("/ws")).as("not logged while open").isFalse();
        ws.sendClose(1000, "done").get(5, TimeUnit.SECONDS);
        closed.get(10, TimeUnit.SECONDS);

        String line = logLine(log, "/ws");

        assertThat(line).contains("\"status\":101").contains("\"backend\":\"ws\"");
        await().atMost(Duration.ofSeconds(10)).until(() -> recent().stream().anyMatch(RequestSample::upgraded));
        RequestSample r = recent().stream().filter(RequestSample::upgraded).findFirst().orElseThrow();
        assertThat(r.status()).isEqualTo(101);
        assertThat(r.backend()).isEqualTo("ws");
        // a masked client frame of 24 bytes of text and its close frame; the echo (30 bytes) and the server's close
        assertThat(r.bytesIn()).isGreaterThanOrEqualTo(24 + 6);
        assertThat(r.bytesOut()).isGreaterThanOrEqualTo(30 + 2);
        assertThat(line).contains("\"bytes\":" + (r.bytesIn() + r.bytesOut()));
    }

    @Test
    void withNoRecentRequestsKeptThereIsNoStream() {
        f = RunningFulcrum.bareProxy(TestSettings.proxy().build().withRecentRequests(0)).start();
        assertThat(f.proxy().requests()).isNull();
        assertThat(f.status("/x")).isEqualTo(503);
    }
}
