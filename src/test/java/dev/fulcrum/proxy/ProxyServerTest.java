package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.TestSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ProxyServerTest {
    private final List<RecordingBackend> backends = new ArrayList<>();
    private RunningFulcrum f;

    @AfterEach
    void stop() {
        if (f != null) {
            f.close();
        }
        backends.forEach(RecordingBackend::close);
    }

    private RecordingBackend backend(String name) {
        RecordingBackend b = new RecordingBackend(name);
        backends.add(b);
        return b;
    }

    private void start(ProxySettings settings, RecordingBackend... bs) {
        f = proxyOn(settings, bs).start();
    }

    private void start(RecordingBackend... bs) {
        start(ProxySettings.defaults(0), bs);
    }

    private static RunningFulcrum.BareProxy proxyOn(ProxySettings settings, RecordingBackend... bs) {
        RunningFulcrum.BareProxy p = RunningFulcrum.bareProxy(settings);
        for (RecordingBackend b : bs) {
            p.backend(b.name, b.url());
        }
        return p;
    }

    private HttpResponse<String> get(String path) throws Exception {
        return f.http().send(HttpRequest.newBuilder(URI.create(f.url() + path)).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
    }


    @Test
    void roundRobinSpreadsRequestsAndNamesTheBackendInAHeader() throws Exception {
        RecordingBackend a = backend("a");
        RecordingBackend b = backend("b");
        start(a, b);
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> r = get("/hello");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("X-Fulcrum-Backend")).hasValue(r.body());
            seen.add(r.body());
        }
        assertThat(seen).containsExactlyInAnyOrder("a", "a", "b", "b");
    }

    @Test
    void ioThreadsSetsHowManyThreadsRunTheSocketsAndEveryOneServes() throws Exception {
        RecordingBackend a = backend("a");
        start(TestSettings.proxy().ioThreads(3).build(), a);
        assertThat(f.proxy().ioThreads()).isEqualTo(3);
        // connections are spread over the threads: each one's backend pool and read deadlines work
        List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> many = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            HttpClient c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            many.add(c.sendAsync(HttpRequest.newBuilder(URI.create(f.url() + "/t" + i)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (var r : many) {
            assertThat(r.get().body()).isEqualTo("a");
        }
        f.close();
        start(a);
        assertThat(f.proxy().ioThreads()).as("0, the default: one per core, at least 2")
                .isEqualTo(Math.max(2, Runtime.getRuntime().availableProcessors()));
    }

    @Test
    void forwardedHeadersAreAddedAndHopByHopHeadersRemoved() throws Exception {
        RecordingBackend a = backend("a");
        start(a);
        String answer = raw("GET /x HTTP/1.0\r\nHost: 127.0.0.1:" + f.port() + "\r\nX-Forwarded-For: 10.1.2.3\r\n"
                + "X-Custom: kept\r\nX-Drop-Me: gone\r\nKeep-Alive: timeout=5\r\nConnection: X-Drop-Me\r\n\r\n");
        assertThat(answer).contains(" 200 ").contains("X-Fulcrum-Backend: a");
        assertThat(a.lastHeaders().get("x-forwarded-for")).isEqualTo("10.1.2.3, 127.0.0.1");
        assertThat(a.lastHeaders().get("x-forwarded-proto")).isEqualTo("http");
        assertThat(a.lastHeaders().get("x-forwarded-host")).startsWith("127.0.0.1:");
        assertThat(a.lastHeaders().get("host")).isEqualTo(a.lastHeaders().get("x-forwarded-host"));
        assertThat(a.lastHeaders()).containsEntry("x-custom", "kept").doesNotContainKey("x-drop-me")
                .doesNotContainKey("keep-alive");
    }

    @Test
    void queryStringsAndBodiesAreForwardedIntact() throws Exception {
        RecordingBackend a = backend("a");
        start(a);
        assertThat(get("/path?q=1&r=%20x").body()).isEqualTo("/path?q=1&r=%20x");
        String body = "x".repeat(300_000);
        HttpResponse<String> r = f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/echo-body"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.body()).isEqualTo(body);
    }

    @Test
    void noAvailableBackendAnswers503WithJson() throws Exception {
        RecordingBackend a = backend("a");
        start(a);
        f.engine().setWeight("a", 0);
        HttpResponse<String> r = get("/");
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(r.body()).startsWith("{\"error\":\"").endsWith(",\"status\":503}");
    }

    @Test
    void unreachableBackendAfterRetriesAnswers502WithJson() throws Exception {
        RecordingBackend a = backend("a");
        start(a);
        a.close();
        HttpResponse<String> r = get("/");
        assertThat(r.statusCode()).isEqualTo(502);
        assertThat(r.body()).contains("\"status\":502");
        await().atMost(Duration.ofSeconds(5)).until(() -> f.inFlight() == 0);
    }

    @Test
    void aBackendThatDoesNotAnswerInTimeGives504() throws Exception {
        RecordingBackend a = backend("a");
        a.delayMs = 3000;
        start(TestSettings.proxy().maxRetries(0).readMs(300).build(), a);
        HttpResponse<String> r = get("/slow");
        assertThat(r.statusCode()).isEqualTo(504);
        assertThat(r.body()).contains("\"status\":504");
        await().atMost(Duration.ofSeconds(5)).until(() -> f.inFlight() == 0);
    }

    @Test
    void getsFailOverToALiveBackendWhenOneIsDead() throws Exception {
        RecordingBackend a = backend("a");
        RecordingBackend b = backend("b");
        start(a, b);
        a.close();
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> r = get("/");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("b");
        }
    }

    @Test
    void aPostThatReachedAFailingBackendIsNotSentAgain() throws Exception {
        RecordingBackend a = backend("a");
        RecordingBackend b = backend("b");
        a.status = 500;
        b.status = 500;
        start(a, b);
        HttpResponse<String> r = f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/order"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(500);
        assertThat(a.count("POST") + b.count("POST")).isEqualTo(1);
    }

    @Test
    void killingABackendDuringLoadFailsNoGet() throws Exception {
        RecordingBackend a = backend("a");
        RecordingBackend b = backend("b");
        RecordingBackend c = backend("c");
        // a request the dying server accepted but will never answer is retried after readMs (a kill -9 would
        // reset it at once; stopping an in-process server can leave it hanging instead)
        start(TestSettings.proxy().readMs(2000).build(), a, b, c);
        AtomicInteger failed = new AtomicInteger();
        AtomicInteger ok = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            futures.add(pool.submit(() -> {
                for (int i = 0; i < 150; i++) {
                    try {
                        HttpResponse<String> r = get("/load");
                        (r.statusCode() == 200 ? ok : failed).incrementAndGet();
                    } catch (Exception e) {
                        failed.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> ok.get() > 100);
        b.kill();
        for (Future<?> f : futures) {
            f.get();
        }
        pool.shutdown();
        assertThat(failed.get()).isZero();
        assertThat(ok.get()).isEqualTo(600);
        await().atMost(Duration.ofSeconds(5)).until(() -> f.inFlight() == 0);
    }

    @Test
    void clientsThatAbortMidResponseLeaveNoInFlightCount() throws Exception {
        RecordingBackend a = backend("a");
        a.delayMs = 300;
        start(a);
        for (int i = 0; i < 10; i++) {
            try (Socket s = new Socket("127.0.0.1", f.port())) {
                s.getOutputStream().write("GET /abort HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
            }
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> f.inFlight() == 0);
        assertThat(get("/after").statusCode()).isEqualTo(200);
    }

    @Test
    void aClientThatHangsUpWhileItsRequestWaitsOnABackendIsNoticedAtOnce(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        // nginx notices too (EPOLLRDHUP): the lease goes back now, not when the slow backend answers
        RecordingBackend a = backend("a");
        a.delayMs = 15_000;
        start(ProxySettings.defaults(0).withTls(new ProxySettings.Tls(0, null, null, dir)), a);
        for (boolean tls : new boolean[] {false, true}) {
            for (boolean reset : new boolean[] {false, true}) {
                try (Socket s = client(tls)) {
                    s.getOutputStream().write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    s.getOutputStream().flush();
                    await().atMost(Duration.ofSeconds(5)).until(() -> f.inFlight() == 1);
                    if (reset) {
                        s.setSoLinger(true, 0);
                    }
                }
                await((tls ? "tls " : "") + (reset ? "reset" : "close")).atMost(Duration.ofSeconds(5)).until(() -> f.inFlight() == 0);
            }
        }
    }

    @Test
    void aRequestPipelinedWhileTheFirstWaitsIsAnsweredAfterIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        // the bytes of the second request arrive while the first waits on a backend; they are read (to see a
        // hang-up) and must still be parsed, in order, once the first is answered
        RecordingBackend a = backend("a");
        RecordingBackend b = backend("b");
        a.delayMs = 500;
        start(ProxySettings.defaults(0).withTls(new ProxySettings.Tls(0, null, null, dir)), a, b);
        for (boolean tls : new boolean[] {false, true}) {
            // round robin: the first request to a, the second to b
            try (Socket s = client(tls)) {
                s.setSoTimeout(10_000);
                OutputStream out = s.getOutputStream();
                out.write("GET /first HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                await().atMost(Duration.ofSeconds(5)).until(() -> f.inFlight() == 1);
                out.write("GET /second HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = s.getInputStream();
                assertThat(readResponse(in)).startsWith("HTTP/1.1 200").contains("X-Fulcrum-Backend: a");
                assertThat(readResponse(in)).startsWith("HTTP/1.1 200").contains("X-Fulcrum-Backend: b");
            }
        }
        assertThat(a.requests.get() + b.requests.get()).isEqualTo(4);
    }

    /** A plain socket to the proxy, or a TLS one (HTTP/1.1: no ALPN) with its handshake done. */
    private Socket client(boolean tls) throws Exception {
        if (!tls) {
            return new Socket("127.0.0.1", f.port());
        }
        javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) PassThroughTest.trustAll().getSocketFactory()
                .createSocket("127.0.0.1", f.proxy().tlsPort());
        s.startHandshake();
        return s;
    }

    /** One response with a Content-Length body, head and body as text. */
    private static String readResponse(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            assertThat(c).as("response so far: %s", head).isNotNegative();
            head.append((char) c);
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
        assertThat(m.find()).as("Content-Length in %s", head).isTrue();
        return head + new String(in.readNBytes(Integer.parseInt(m.group(1))), StandardCharsets.ISO_8859_1);
    }

    @Test
    void contentLengthWithTransferEncodingIsRefusedAndTheConnectionClosed() throws Exception {
        RecordingBackend a = backend("a");
        start(a);
        String answer = raw("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 400");
        assertThat(a.requests.get()).isZero();
    }

    @Test
    void twoDifferentContentLengthsAreRefused() throws Exception {
        RecordingBackend a = backend("a");
        start(a);
        String answer = raw("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\nabcde");
        assertThat(answer).startsWith("HTTP/1.1 400");
        assertThat(a.requests.get()).isZero();
    }

    @Test
    void headersOverTheLimitAnswer431() throws Exception {
        RecordingBackend a = backend("a");
        start(a);
        String answer = raw("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + "y".repeat(9000) + "\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 431");
        assertThat(a.requests.get()).isZero();
    }

    @Test
    void aClientThatNeverFinishesItsHeadersIsDisconnected() throws Exception {
        RecordingBackend a = backend("a");
        start(TestSettings.proxy().requestHeaderMs(500).build(), a);
        try (Socket s = new Socket("127.0.0.1", f.port())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            long start = System.nanoTime();
            int read = s.getInputStream().read();
            assertThat(read).isEqualTo(-1);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(9));
        }
    }

    @Test
    void drainLetsLongRequestsFinishAndSendsNoNewOnes() throws Exception {
        RecordingBackend a = backend("a");
        RecordingBackend b = backend("b");
        a.delayMs = 800;
        b.delayMs = 800;
        start(a, b);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<HttpResponse<String>>> slow = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            slow.add(pool.submit(() -> get("/long")));
        }
        // all four have reached their backends, which hold them 800 ms: what a got before the drain is settled (its
        // lease is taken before the request reaches it, so a lease alone is no count of what it got)
        await().atMost(Duration.ofSeconds(5)).until(() -> a.requests.get() + b.requests.get() >= 4);
        int before = a.requests.get();
        f.engine().drain("a");
        assertThat(state("a")).isEqualTo("DRAINING");
        for (Future<HttpResponse<String>> r : slow) {
            assertThat(r.get().statusCode()).isEqualTo(200);
        }
        b.delayMs = 0;
        for (int i = 0; i < 6; i++) {
            assertThat(get("/new").body()).isEqualTo("b");
        }
        assertThat(a.requests.get()).isEqualTo(before);
        await().atMost(Duration.ofSeconds(5)).until(() -> state("a").equals("DRAINED"));
        pool.shutdown();
    }

    private String state(String id) {
        return f.engine().backends().stream().filter(v -> v.id().equals(id)).findFirst().orElseThrow().state().name();
    }

    @Test
    void stickyCookiePinsAClientToOneBackendAcrossTwoInstances() throws Exception {
        RecordingBackend a = backend("a");
        RecordingBackend b = backend("b");
        byte[] secret = "same-config".getBytes(StandardCharsets.UTF_8);
        ProxySettings sticky = TestSettings.proxy().sticky(secret).build();
        start(sticky, a, b);
        HttpResponse<String> first = get("/s");
        String cookie = first.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie).startsWith("FULCRUM_STICKY=").doesNotContain("127.0.0.1").doesNotContain(String.valueOf(a.port()));
        assertThat(cookie).contains("; HttpOnly").contains("; SameSite=Lax").doesNotContain("Secure");
        String value = cookie.substring("FULCRUM_STICKY=".length(), cookie.indexOf(';'));
        // round robin: the next request without a cookie goes to the other backend and gets the other token
        HttpResponse<String> second = get("/s");
        assertThat(second.body()).isNotEqualTo(first.body());
        String other = second.headers().firstValue("Set-Cookie").orElseThrow();
        other = other.substring("FULCRUM_STICKY=".length(), other.indexOf(';'));
        // of two cookies with the same name the first wins (nginx's $cookie_, RFC 6265 5.4's longer path first)
        for (String[] pair : new String[][] {{value, other}, {other, value}}) {
            HttpResponse<String> r = f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/s"))
                    .header("Cookie", "x=1; FULCRUM_STICKY=" + pair[0] + "; FULCRUM_STICKY=" + pair[1]).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.body()).isEqualTo(pair[0].equals(value) ? first.body() : second.body());
        }
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> r = f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/s"))
                    .header("Cookie", "FULCRUM_STICKY=" + value).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.body()).isEqualTo(first.body());
        }
        // a second instance with the same config honours the cookie
        RunningFulcrum proxy2 = f.own(proxyOn(sticky, a, b).start());
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> r = f.http().send(HttpRequest.newBuilder(URI.create(proxy2.url() + "/s"))
                    .header("Cookie", "FULCRUM_STICKY=" + value).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.body()).isEqualTo(first.body());
            assertThat(r.headers().firstValue("Set-Cookie")).isEmpty();
        }
    }

    @Test
    void theAccessLogWritesOneJsonLinePerRequest(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        RecordingBackend a = backend("a");
        java.nio.file.Path log = dir.resolve("access.log");
        start(TestSettings.proxy().accessLog(log.toString()).build(), a);
        get("/logged?x=1");
        get("/again");
        // refused before any backend is asked: logged all the same (it was not)
        assertThat(f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/big")).header("X-Big", "x".repeat(20_000))
                .build(), HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(431);
        await().atMost(Duration.ofSeconds(5)).until(() -> java.nio.file.Files.exists(log)
                && java.nio.file.Files.readAllLines(log).size() == 3);
        List<String> lines = java.nio.file.Files.readAllLines(log);
        assertThat(lines.get(2)).contains("\"path\":\"/big\"").contains("\"status\":431").contains("\"backend\":null");
        com.fasterxml.jackson.databind.JsonNode first = new com.fasterxml.jackson.databind.ObjectMapper().readTree(lines.get(0));
        assertThat(first.get("method").asText()).isEqualTo("GET");
        assertThat(first.get("path").asText()).isEqualTo("/logged");
        assertThat(first.get("status").asInt()).isEqualTo(200);
        assertThat(first.get("backend").asText()).isEqualTo("a");
        assertThat(first.get("attempts").asInt()).isEqualTo(1);
        assertThat(first.get("bytes").asLong()).isEqualTo(1);
        assertThat(first.has("time")).isTrue();
        assertThat(first.get("latencyMs").asDouble()).isPositive();
    }

    @Test
    void backendConnectionsAreReused() throws Exception {
        RecordingBackend a = backend("a");
        start(a);
        for (int i = 0; i < 200; i++) {
            assertThat(get("/reuse").statusCode()).isEqualTo(200);
        }
        assertThat(f.proxy().backendConnectionsOpened()).isLessThanOrEqualTo(4);
    }

    private String raw(String request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", f.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) != -1) {
                got.write(buf, 0, n); // read until the proxy closes: proves the close
            }
            return got.toString(StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void aGracefulShutdownStopsAcceptingAndAnswersLateRequestsWithTheContracts503() throws Exception {
        // nginx closes its listening sockets on a graceful quit; Undertow's own refusal is a bare 503 that keeps
        // the connection open, and it goes on accepting new connections
        RecordingBackend a = backend("a");
        a.delayMs = 1500;
        start(TestSettings.proxy().drainTimeoutMs(10_000).build(), a);
        try (Socket kept = new Socket("127.0.0.1", f.port()); Socket slow = new Socket("127.0.0.1", f.port())) {
            kept.setSoTimeout(5_000);
            slow.setSoTimeout(10_000);
            slow.getOutputStream().write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            await().atMost(Duration.ofSeconds(5)).until(() -> f.inFlight() == 1);
            java.util.concurrent.CompletableFuture<Boolean> stopped = java.util.concurrent.CompletableFuture
                    .supplyAsync(f.proxy()::shutdownGracefully);
            int port = f.port();
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> org.assertj.core.api.Assertions.assertThatThrownBy(() -> {
                try (Socket fresh = new Socket()) {
                    fresh.connect(new java.net.InetSocketAddress("127.0.0.1", port), 1000);
                    fresh.setSoTimeout(1000);
                    fresh.getOutputStream().write("GET /new HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    if (fresh.getInputStream().read() < 0) {
                        throw new IOException("closed");
                    }
                }
            }).isInstanceOf(IOException.class));
            kept.getOutputStream().write("GET /late HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String late = readResponse(kept.getInputStream());
            assertThat(late).startsWith("HTTP/1.1 503").containsIgnoringCase("Connection: close")
                    .contains("application/json").contains("\"status\":503");
            assertThat(kept.getInputStream().read()).as("closed after the 503").isEqualTo(-1);
            assertThat(readResponse(slow.getInputStream())).startsWith("HTTP/1.1 200");
            assertThat(stopped.get(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aGracefulShutdownWaitsForTheRequestInFlightOnlyUntilTheDrainTimeout() throws Exception {
        // the in-flight count is what the stop waits on: counted, it holds the stop for the drain timeout and no more
        RecordingBackend a = backend("a");
        a.delayMs = 4000;
        start(TestSettings.proxy().drainTimeoutMs(400).build(), a);
        try (Socket slow = new Socket("127.0.0.1", f.port())) {
            slow.getOutputStream().write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            await().atMost(Duration.ofSeconds(5)).until(() -> f.inFlight() == 1);
            long t0 = System.nanoTime();
            boolean clean = f.proxy().shutdownGracefully();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(clean).as("a request was still in flight").isFalse();
            assertThat(ms).as("waited for the drain timeout").isGreaterThanOrEqualTo(390);
        }
    }
}
