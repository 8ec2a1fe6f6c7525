package dev.fulcrum.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DemoBackendTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final List<DemoBackend> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(DemoBackend::close);
    }

    private DemoBackend start(DemoSpec spec) {
        DemoBackend b = DemoBackend.start(spec);
        started.add(b);
        return b;
    }

    private HttpResponse<String> get(DemoBackend b, String path) throws IOException, InterruptedException {
        return send(b, HttpRequest.newBuilder(URI.create(b.url() + path)).GET());
    }

    private HttpResponse<String> send(DemoBackend b, HttpRequest.Builder req) throws IOException, InterruptedException {
        return http.send(req.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void listensOnAnOsChosenPortAndReportsIt() {
        DemoBackend b = start(DemoSpec.of("a", 0, 3));
        assertThat(b.port()).isPositive();
        assertThat(b.url()).isEqualTo("http://127.0.0.1:" + b.port());
        assertThat(b.backendSpec().url()).isEqualTo(b.url());
        assertThat(b.backendSpec().weight()).isEqualTo(3);
        assertThat(b.spec().port()).isEqualTo(b.port());
    }

    @Test
    void healthAnswersOkJsonWithTheBackendHeader() throws Exception {
        DemoBackend b = start(DemoSpec.of("demo-a", 0, 1));
        HttpResponse<String> r = get(b, "/health");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("{\"status\":\"ok\"}");
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(r.headers().firstValue("X-Demo-Backend")).hasValue("demo-a");
    }

    @Test
    void anyOtherPathSaysHelloWithTheBackendHeader() throws Exception {
        DemoBackend b = start(DemoSpec.of("demo-b", 0, 1));
        for (String path : List.of("/", "/anything/else?x=1", "/api/users/7")) {
            HttpResponse<String> r = get(b, path);
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            assertThat(r.body()).isEqualTo("hello from demo-b");
            assertThat(r.headers().firstValue("X-Demo-Backend")).hasValue("demo-b");
        }
        HttpResponse<String> post = send(b, HttpRequest.newBuilder(URI.create(b.url() + "/submit"))
                .POST(HttpRequest.BodyPublishers.ofString("ignored")));
        assertThat(post.body()).isEqualTo("hello from demo-b");
    }

    @Test
    void echoReturnsMethodPathQueryHeadersAndTheWholeBody() throws Exception {
        DemoBackend b = start(DemoSpec.of("echoer", 0, 1));
        String body = "x".repeat(200_000) + "ü"; // bigger than one read buffer, and not ASCII
        HttpResponse<String> r = send(b, HttpRequest.newBuilder(URI.create(b.url() + "/echo?a=1&a=2&b=x%20y"))
                .header("X-Custom", "hello").PUT(HttpRequest.BodyPublishers.ofString(body)));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("X-Demo-Backend")).hasValue("echoer");
        JsonNode echo = JSON.readTree(r.body());
        assertThat(echo.get("method").asText()).isEqualTo("PUT");
        assertThat(echo.get("path").asText()).isEqualTo("/echo");
        assertThat(echo.get("query").asText()).isEqualTo("a=1&a=2&b=x%20y");
        assertThat(echo.get("queryParams").get("a")).hasSize(2);
        assertThat(echo.get("queryParams").get("b").get(0).asText()).isEqualTo("x y");
        assertThat(echo.get("headers").get("X-Custom").asText()).isEqualTo("hello");
        assertThat(echo.get("body").asText()).isEqualTo(body);
        assertThat(echo.get("bodyBytes").asInt()).isEqualTo(200_002);
    }

    @Test
    void echoOfAGetHasAnEmptyBody() throws Exception {
        DemoBackend b = start(DemoSpec.of("echoer", 0, 1));
        JsonNode echo = JSON.readTree(get(b, "/echo").body());
        assertThat(echo.get("method").asText()).isEqualTo("GET");
        assertThat(echo.get("body").asText()).isEmpty();
        assertThat(echo.get("query").asText()).isEmpty();
    }

    @Test
    void metricsJsonReportsCpuInflightAndLatency() throws Exception {
        DemoBackend b = start(new DemoSpec("m", 0, 1, 20, 0));
        HttpResponse<String> r = get(b, "/metrics.json");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("X-Demo-Backend")).hasValue("m");
        JsonNode m = JSON.readTree(r.body());
        assertThat(m.get("cpu").asDouble()).isBetween(0.0, 1.0);
        assertThat(m.get("inflight").asInt()).isZero();
        // no traffic yet: the setting is the best guess
        assertThat(m.get("latencyMs").asDouble()).isEqualTo(20.0);
    }

    @Test
    void metricsJsonCountsRealInFlightRequestsAndRaisesCpu() throws Exception {
        DemoBackend b = start(new DemoSpec("busy", 0, 1, 60_000, 0));
        List<CompletableFuture<HttpResponse<String>>> parked = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            parked.add(http.sendAsync(HttpRequest.newBuilder(URI.create(b.url() + "/slow")).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> b.inFlight() == 5);
        JsonNode m = JSON.readTree(get(b, "/metrics.json").body());
        assertThat(m.get("inflight").asInt()).isEqualTo(5);
        assertThat(m.get("cpu").asDouble()).isGreaterThan(0.5).isLessThan(1.0);
        parked.forEach(f -> f.cancel(true));
    }

    @Test
    void cpuFollowsTheDocumentedWorkedExample() {
        assertThat(DemoBackend.syntheticCpu(0, 500)).isZero();
        assertThat(DemoBackend.syntheticCpu(20, 0)).isEqualTo(0.5);
        assertThat(DemoBackend.syntheticCpu(10, 100)).isEqualTo(0.5);
        assertThat(DemoBackend.syntheticCpu(100, 100)).isCloseTo(0.909, org.assertj.core.data.Offset.offset(0.001));
        assertThat(DemoBackend.syntheticCpu(100_000, 60_000)).isLessThan(1.0);
        DemoBackend b = start(new DemoSpec("f", 0, 1, 100, 0));
        assertThat(b.cpu()).isZero(); // idle
    }

    @Test
    void metricsLatencyIsTheRecentAverageOfServedRequests() throws Exception {
        DemoBackend b = start(new DemoSpec("lat", 0, 1, 80, 0));
        for (int i = 0; i < 3; i++) {
            assertThat(get(b, "/x").statusCode()).isEqualTo(200);
        }
        b.update(0.0, null, null); // the setting moves, the measured average still says ~80
        JsonNode m = JSON.readTree(get(b, "/metrics.json").body());
        assertThat(m.get("latencyMs").asDouble()).isGreaterThanOrEqualTo(70.0);
    }

    @Test
    void errorRateOneAnswers500AndZeroAnswers200() throws Exception {
        DemoBackend b = start(new DemoSpec("flaky", 0, 1, 0, 1));
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> r = get(b, "/x");
            assertThat(r.statusCode()).isEqualTo(500);
            assertThat(r.headers().firstValue("X-Demo-Backend")).hasValue("flaky");
        }
        b.update(null, 0.0, null);
        for (int i = 0; i < 20; i++) {
            assertThat(get(b, "/x").statusCode()).isEqualTo(200);
        }
        DemoCounters c = b.counters();
        assertThat(c.count(500)).isEqualTo(20);
        assertThat(c.count(200)).isEqualTo(20);
        assertThat(c.requests()).isEqualTo(40);
        await().atMost(Duration.ofSeconds(10)).until(() -> b.counters().inFlight() == 0);
    }

    @Test
    void errorRateHalfGivesBothAnswers() throws Exception {
        DemoBackend b = start(new DemoSpec("half", 0, 1, 0, 0.5));
        for (int i = 0; i < 200; i++) {
            get(b, "/x");
        }
        // 200 fair coin flips: P(fewer than 50 of either) is about 1e-12
        assertThat(b.counters().count(500)).isBetween(50L, 150L);
        assertThat(b.counters().count(200)).isBetween(50L, 150L);
    }

    @Test
    void healthAndMetricsAreNotCountedAsTraffic() throws Exception {
        DemoBackend b = start(DemoSpec.of("quiet", 0, 1));
        get(b, "/health");
        get(b, "/metrics.json");
        get(b, "/echo");
        assertThat(b.counters().requests()).isEqualTo(1);
    }

    @Test
    void latencyIsAppliedToOrdinaryRequests() throws Exception {
        DemoBackend b = start(new DemoSpec("slow", 0, 1, 300, 0));
        long t0 = System.nanoTime();
        assertThat(get(b, "/x").statusCode()).isEqualTo(200);
        assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThanOrEqualTo(250);
    }

    @Test
    void latencyIsNotAppliedToHealthChecks() throws Exception {
        DemoBackend b = start(new DemoSpec("slow", 0, 1, 60_000, 0));
        // with the setting at 60 s, an answer at all proves /health skipped the delay
        assertThat(get(b, "/health").statusCode()).isEqualTo(200);
    }

    @Test
    void aSpikeDelaysOnlyTheNextRequest() throws Exception {
        DemoBackend b = start(DemoSpec.of("spiky", 0, 1));
        b.spike(400);
        assertThat(b.pendingSpikeMs()).isEqualTo(400);
        long t0 = System.nanoTime();
        assertThat(get(b, "/x").statusCode()).isEqualTo(200);
        assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThanOrEqualTo(350);
        assertThat(b.pendingSpikeMs()).isZero();
    }

    @Test
    void slowRequestsWaitWithoutHoldingThreads() {
        // two IO and two worker threads serve 200 parked requests at once
        DemoBackend b = start(new DemoSpec("parked", 0, 1, 60_000, 0));
        List<CompletableFuture<HttpResponse<String>>> parked = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            parked.add(http.sendAsync(HttpRequest.newBuilder(URI.create(b.url() + "/p" + i)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> b.inFlight() == 200);
        parked.forEach(f -> f.cancel(true));
    }

    @Test
    void clientsThatHangUpWhileParkedDoNotLeakTheInFlightCount() throws Exception {
        DemoBackend b = start(new DemoSpec("aborted", 0, 1, 300, 0));
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Socket s = new Socket("127.0.0.1", b.port());
            s.getOutputStream().write("GET /p HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            sockets.add(s);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> b.inFlight() == 5);
        for (Socket s : sockets) {
            s.close();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> b.inFlight() == 0);
    }

    @Test
    void downRefusesConnectionsAndUpAcceptsAgainOnTheSamePort() throws Exception {
        DemoBackend b = start(DemoSpec.of("bouncy", 0, 1));
        int port = b.port();
        assertThat(get(b, "/health").statusCode()).isEqualTo(200);

        b.update(null, null, true);
        assertThat(b.isDown()).isTrue();
        assertThatThrownBy(() -> new Socket().connect(new InetSocketAddress("127.0.0.1", port), 2000))
                .isInstanceOf(ConnectException.class);

        b.update(null, null, false);
        assertThat(b.isDown()).isFalse();
        assertThat(b.port()).isEqualTo(port);
        HttpResponse<String> r = get(b, "/health");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(get(b, "/x").body()).isEqualTo("hello from bouncy");
    }

    @Test
    void goingDownDropsParkedRequestsAndTheInFlightCountStartsAfresh() throws Exception {
        DemoBackend b = start(new DemoSpec("dropper", 0, 1, 60_000, 0));
        CompletableFuture<HttpResponse<String>> parked = http.sendAsync(
                HttpRequest.newBuilder(URI.create(b.url() + "/p")).build(), HttpResponse.BodyHandlers.ofString());
        await().atMost(Duration.ofSeconds(10)).until(() -> b.inFlight() == 1);
        b.update(null, null, true);
        await().atMost(Duration.ofSeconds(10)).until(parked::isDone);
        assertThat(parked).isCompletedExceptionally();
        b.update(0.0, null, false);
        assertThat(b.inFlight()).isZero();
        assertThat(get(b, "/x").statusCode()).isEqualTo(200);
    }

    @Test
    void updateChangesOnlyTheGivenFields() {
        DemoBackend b = start(new DemoSpec("u", 0, 1, 5, 0.1));
        b.update(null, 0.3, null);
        assertThat(b.latencyMs()).isEqualTo(5.0);
        assertThat(b.errorRate()).isEqualTo(0.3);
        b.update(7.5, null, null);
        assertThat(b.latencyMs()).isEqualTo(7.5);
        assertThat(b.errorRate()).isEqualTo(0.3);
        assertThat(b.isDown()).isFalse();
    }

    @Test
    void updateRejectsOutOfRangeValuesNamingTheFieldAndChangesNothing() {
        DemoBackend b = start(new DemoSpec("v", 0, 1, 5, 0.1));
        assertThatThrownBy(() -> b.update(-1.0, 0.5, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("latencyMs: must be between 0 and 60000 (got: -1)");
        assertThatThrownBy(() -> b.update(70_000.0, null, null))
                .hasMessage("latencyMs: must be between 0 and 60000 (got: 70000)");
        assertThatThrownBy(() -> b.update(10.0, 1.5, true))
                .hasMessage("errorRate: must be between 0 and 1 (got: 1.5)");
        assertThatThrownBy(() -> b.update(null, Double.NaN, null))
                .hasMessage("errorRate: must be between 0 and 1 (got: NaN)");
        assertThat(b.latencyMs()).isEqualTo(5.0);
        assertThat(b.errorRate()).isEqualTo(0.1);
        assertThat(b.isDown()).isFalse();
        assertThatThrownBy(() -> b.spike(0)).hasMessage("spikeMs: must be between 1 and 60000 (got: 0)");
    }

    @Test
    void healthAndMetricsRefuseOtherMethods() throws Exception {
        DemoBackend b = start(DemoSpec.of("m405", 0, 1));
        HttpResponse<String> r = send(b, HttpRequest.newBuilder(URI.create(b.url() + "/health"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(r.statusCode()).isEqualTo(405);
        assertThat(r.headers().firstValue("Allow")).hasValue("GET, HEAD");
        assertThat(r.headers().firstValue("X-Demo-Backend")).hasValue("m405");
    }

    @Test
    void startingOnATakenPortFailsNamingThePort() {
        DemoBackend a = start(DemoSpec.of("first", 0, 1));
        assertThatThrownBy(() -> start(DemoSpec.of("second", a.port(), 1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("port: cannot listen on 127.0.0.1:" + a.port());
    }
}
