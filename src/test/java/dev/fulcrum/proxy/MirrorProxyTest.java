package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.engine.routing.Mirror;
import dev.fulcrum.testkit.FreePort;
import dev.fulcrum.testkit.RawBackend;
import dev.fulcrum.testkit.RecordingBackend;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mirroring (docs/REFERENCE.md §2.1 {@code routes[i].mirror}) over real sockets: the mirror pool's backend receives a
 * copy with {@code X-Fulcrum-Mirror: 1} and the client's body (whether it came with a Content-Length or chunked); the
 * client has its answer while the mirror backend still holds the copy; a mirror backend that resets or never answers
 * costs the client nothing and is counted once, never tried again; a body over {@code maxBodyBytes} is not copied
 * and is counted; copies are recorded as samples of their own, marked {@code mirror}, and are no client request.
 */
class MirrorProxyTest {
    private static final String ROUTES = """
            [{"pathPrefix": "/", "pool": "live", "class": "shop",
              "mirror": {"pool": "shadow", "percent": 100, "maxBodyBytes": 1024}}]""";

    @TempDir
    Path dir;
    private RoutedProxy p;
    private final List<AutoCloseable> owned = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        if (p != null) {
            p.close();
        }
        for (AutoCloseable c : owned) {
            c.close();
        }
    }

    private Mirror mirror() {
        return p.f.engine().router().route(0).mirror();
    }

    private RunningAnswer post(String path, byte[] body, boolean chunked) {
        HttpRequest.BodyPublisher publisher = chunked
                ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))
                : HttpRequest.BodyPublishers.ofByteArray(body);
        var a = p.send(HttpRequest.newBuilder(URI.create(p.f.url() + path)).POST(publisher)
                .timeout(Duration.ofSeconds(20)).build());
        return new RunningAnswer(a.status(), a.body());
    }

    private record RunningAnswer(int status, String body) {
    }

    @Test
    void theShadowBackendGetsACopyMarkedAsAMirrorWithTheSameBody() {
        p = new RoutedProxy(dir).pool("default", "d").pool("live", "l").pool("shadow", "m").start(ROUTES);
        RecordingBackend shadow = p.backend("m");
        RecordingBackend live = p.backend("l");

        assertThat(p.who("/items?page=2", "X-User", "u1")).isEqualTo("l");
        await().atMost(Duration.ofSeconds(10)).until(() -> shadow.seen.size() == 1);
        RecordingBackend.Seen get = shadow.seen.get(0);
        assertThat(get.method()).isEqualTo("GET");
        assertThat(get.uri()).isEqualTo("/items");
        assertThat(get.query()).isEqualTo("page=2");
        assertThat(get.headers().get("x-fulcrum-mirror")).containsExactly("1");
        assertThat(get.headers().get("x-user")).containsExactly("u1");
        assertThat(get.body()).isEmpty();
        assertThat(live.seen.get(0).headers()).doesNotContainKey("x-fulcrum-mirror");

        byte[] body = "{\"order\": 42, \"note\": \"caf\u00e9\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(post("/orders", body, false).body()).isEqualTo("l");
        await().atMost(Duration.ofSeconds(10)).until(() -> shadow.seen.size() == 2);
        RecordingBackend.Seen sized = shadow.seen.get(1);
        assertThat(sized.method()).isEqualTo("POST");
        assertThat(sized.headers().get("x-fulcrum-mirror")).containsExactly("1");
        assertThat(sized.body().getBytes(StandardCharsets.ISO_8859_1)).isEqualTo(body);
        assertThat(live.seen.get(1).body().getBytes(StandardCharsets.ISO_8859_1)).isEqualTo(body);

        byte[] chunkedBody = "x".repeat(700).getBytes(StandardCharsets.ISO_8859_1);
        assertThat(post("/chunked", chunkedBody, true).body()).isEqualTo("l");
        await().atMost(Duration.ofSeconds(10)).until(() -> shadow.seen.size() == 3);
        RecordingBackend.Seen chunked = shadow.seen.get(2);
        assertThat(chunked.body()).isEqualTo("x".repeat(700));
        assertThat(chunked.headers().get("content-length")).containsExactly("700"); // framed by its length
        assertThat(chunked.headers()).doesNotContainKey("transfer-encoding");
        assertThat(live.seen.get(2).body()).isEqualTo("x".repeat(700));

        await().atMost(Duration.ofSeconds(10)).until(() -> mirror().counts().sent() == 3);
        assertThat(mirror().counts().errors()).isZero();
    }

    @Test
    void theClientHasItsAnswerWhileTheMirrorBackendStillHoldsTheCopy() throws Exception {
        CountDownLatch arrived = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RawBackend held = RawBackend.start(peer -> {
            if (peer.readMessage() == null) {
                return;
            }
            arrived.countDown();
            // holds the copy unanswered until the test has seen the client's answer
            release.await(20, TimeUnit.SECONDS);
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            peer.in().transferTo(OutputStream.nullOutputStream());
        });
        owned.add(held);
        p = new RoutedProxy(dir).pool("default", "d").pool("live", "l").poolAt("shadow", "m", held.url())
                .start(ROUTES);

        // the client's answer comes although the mirror backend never answers until released
        assertThat(p.who("/slow-mirror")).isEqualTo("l");
        assertThat(post("/slow-mirror-body", "abc".getBytes(StandardCharsets.ISO_8859_1), false).body())
                .isEqualTo("l");
        assertThat(arrived.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(mirror().counts().sent()).as("no copy answered yet").isZero();
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> mirror().counts().sent() == 2);
        assertThat(mirror().counts().errors()).isZero();
        assertThat(p.f.engine().answers().total()).isEqualTo(2);
    }

    @Test
    void aResettingMirrorBackendCostsTheClientNothingAndIsCountedOnceNeverRetried() throws Exception {
        RawBackend resetting = RawBackend.start(peer -> {
            peer.readHead();
            peer.reset();
        });
        owned.add(resetting);
        p = new RoutedProxy(dir).pool("default", "d").pool("live", "l").poolAt("shadow", "m", resetting.url())
                .retries(2).start(ROUTES);

        assertThat(p.who("/x")).isEqualTo("l");
        await().atMost(Duration.ofSeconds(10)).until(() -> mirror().counts().failed() == 1);
        Mirror.Counts c = mirror().counts();
        assertThat(c.sent()).isEqualTo(1);
        assertThat(c.errors()).isEqualTo(1);
        assertThat(resetting.accepted.get()).as("one connection: the copy is never sent twice").isEqualTo(1);
        assertThat(p.f.engine().answers().errors()).isZero();
    }

    @Test
    void aRefusedMirrorConnectionCostsTheClientNothingAndIsCountedOnce() throws Exception {
        int closedPort = FreePort.loopback(); // nothing listens there: connecting to it is refused
        p = new RoutedProxy(dir).pool("default", "d").pool("live", "l")
                .poolAt("shadow", "m", "http://127.0.0.1:" + closedPort).retries(2).start(ROUTES);

        assertThat(p.who("/x")).isEqualTo("l");
        await().atMost(Duration.ofSeconds(10)).until(() -> mirror().counts().failed() == 1);
        assertThat(mirror().counts().sent()).isEqualTo(1);
        assertThat(p.f.engine().answers().total()).isEqualTo(1);
        assertThat(p.f.engine().answers().errors()).isZero();
    }

    @Test
    void aMirrorPoolWithNoBackendToTakeTheCopyDropsIt() {
        p = new RoutedProxy(dir).pool("default", "d").pool("live", "l").pool("shadow", "m").start(ROUTES);
        assertThat(p.f.call("PUT", "/api/backends/m/weight", "{\"weight\": 0}").status()).isEqualTo(200);

        assertThat(p.who("/x")).isEqualTo("l");
        await().atMost(Duration.ofSeconds(10)).until(() -> mirror().counts().dropped() == 1);
        assertThat(mirror().counts().sent()).isZero();
        assertThat(p.backend("m").seen).isEmpty();
    }

    @Test
    void aMirrorBackendThatNeverAnswersIsGivenUpAfterReadMsAndTheClientDoesNotWait() throws Exception {
        RawBackend silent = RawBackend.start(RawBackend.blackHole());
        owned.add(silent);
        p = new RoutedProxy(dir).pool("default", "d").pool("live", "l").poolAt("shadow", "m", silent.url())
                .extra(",\"timeouts\": {\"connectMs\": 2000, \"readMs\": 300, \"idleMs\": 60000, "
                        + "\"requestHeaderMs\": 10000}")
                .start(ROUTES);

        assertThat(p.who("/x")).isEqualTo("l");
        await().atMost(Duration.ofSeconds(10)).until(() -> mirror().counts().failed() == 1);
        assertThat(silent.accepted.get()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> recordedMirror("/x") != null);
        JsonNode r = recordedMirror("/x");
        assertThat(r.get("status").asInt()).isEqualTo(504);
        assertThat(r.get("attempts").get(0).get("outcome").asText()).isEqualTo("timeout");
    }

    @Test
    void aBodyOverMaxBodyBytesIsNotCopiedAndIsCounted() {
        p = new RoutedProxy(dir).pool("default", "d").pool("live", "l").pool("shadow", "m").start(ROUTES);
        byte[] large = "y".repeat(2000).getBytes(StandardCharsets.ISO_8859_1);
        assertThat(post("/sized", large, false).body()).isEqualTo("l");
        assertThat(mirror().counts().tooLarge()).isEqualTo(1);
        assertThat(post("/chunked", large, true).body()).isEqualTo("l");
        await().atMost(Duration.ofSeconds(10)).until(() -> mirror().counts().tooLarge() == 2);
        assertThat(p.backend("l").seen.get(1).body()).isEqualTo("y".repeat(2000));

        // a copy after them goes through, and is the only one the shadow ever saw
        assertThat(post("/small", "z".getBytes(StandardCharsets.ISO_8859_1), false).body()).isEqualTo("l");
        await().atMost(Duration.ofSeconds(10)).until(() -> mirror().counts().sent() == 1);
        assertThat(p.backend("m").seen).hasSize(1);
        assertThat(p.backend("m").seen.get(0).uri()).isEqualTo("/small");
    }

    @Test
    void copiesAreSamplesOfTheirOwnAndNoClientRequest() throws Exception {
        p = new RoutedProxy(dir).pool("default", "d").pool("live", "l").pool("shadow", "m").start(ROUTES);
        for (int i = 0; i < 3; i++) {
            assertThat(p.who("/r" + i)).isEqualTo("l");
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> mirror().counts().sent() == 3);
        assertThat(p.f.engine().answers().total()).isEqualTo(3);
        await().atMost(Duration.ofSeconds(10)).until(() -> p.requests().size() == 6);
        for (int i = 0; i < 3; i++) {
            JsonNode copy = recordedMirror("/r" + i);
            assertThat(copy).isNotNull();
            assertThat(copy.get("pool").asText()).isEqualTo("shadow");
            assertThat(copy.get("backend").asText()).isEqualTo("m");
            assertThat(copy.get("status").asInt()).isEqualTo(200);
            assertThat(copy.get("route").asInt()).isZero();
            assertThat(copy.get("class").asText()).isEqualTo("shop");
            assertThat(copy.has("arm")).isFalse();
        }
        long clients = p.requests().stream().filter(r -> !r.has("mirror")).count();
        assertThat(clients).isEqualTo(3);
        await().atMost(Duration.ofSeconds(10)).until(() -> p.logLines().size() >= 3);
        assertThat(p.logLines()).hasSize(3).allSatisfy(l -> assertThat(l.get("backend").asText()).isEqualTo("l"));
    }

    private JsonNode recordedMirror(String path) throws Exception {
        for (JsonNode r : p.requests()) {
            if (r.get("path").asText().equals(path) && r.path("mirror").asBoolean()) {
                return r;
            }
        }
        return null;
    }
}
