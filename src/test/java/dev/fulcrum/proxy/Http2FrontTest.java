package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.testkit.RawBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.TestSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTPS / HTTP/2 front (Undertow's h2) in front of the proxy's HTTP/1.1 backends, driven by a bare h2 client that
 * sends exactly what a test gives it, against a backend that records the bytes it receives. What holds for HTTP/1.1
 * clients must hold here too: nothing smuggled, streamed answers streamed, every exchange completed.
 */
class Http2FrontTest {
    private RunningFulcrum f;
    @TempDir
    Path dir;

    @AfterEach
    void stop() {
        if (f != null) {
            f.close();
        }
    }

    @Test
    void crOrLfInAnHttp2HeaderValueIsRefusedAndNeverReachesTheBackend() throws Exception {
        // HPACK carries any octet: written into the HTTP/1.1 head, this value would be a second request
        RawBackend b = RawBackend.ok();
        start(tls(TestSettings.proxy()), b);
        RawH2 c = h2();
        int id = c.request(List.of(new String[] {":method", "GET"}, new String[] {":scheme", "https"},
                new String[] {":authority", authority()}, new String[] {":path", "/public"},
                new String[] {"x-a", "1\r\n\r\nGET /admin/secret HTTP/1.1\r\nHost: internal\r\nX-B: 2"}), true);
        assertThat(c.streams.get(id).await(5_000)).isTrue();
        assertThat(c.streams.get(id).status).isEqualTo(400);
        assertThat(c.streams.get(id).body.toString()).contains("x-a: CR, LF or NUL in an HTTP/2 field value");
        assertThat(b.received.toString()).isEmpty();
    }

    @Test
    void aSpaceOrCrLfInAnHttp2PathNeverReachesTheBackendsRequestLine() throws Exception {
        RawBackend b = RawBackend.ok();
        start(tls(TestSettings.proxy()), b);
        RawH2 c = h2();
        for (String path : List.of("/a HTTP/1.1\r\nX-Injected: 1\r\nX-B:", "/a b", "/caf\u00e9")) {
            int id = c.request(List.of(new String[] {":method", "GET"}, new String[] {":scheme", "https"},
                    new String[] {":authority", authority()}, new String[] {":path", path}), true);
            assertThat(c.streams.get(id).await(5_000)).isTrue();
            assertThat(c.streams.get(id).status).as(path).isIn(-1, 400); // refused here, or reset by Undertow
        }
        assertThat(b.received.toString()).isEmpty();
    }

    @Test
    void aStreamedAnswerReachesAnHttp2ClientAsTheBackendWritesIt() throws Exception {
        // server-sent events over https: each event must go out when it comes, not when the stream ends
        CountDownLatch clientGotTheFirstEvent = new CountDownLatch(1);
        RawBackend b = RawBackend.start(eachRequest(peer -> {
            peer.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "f\r\ndata: event 1\n\n\r\n");
            clientGotTheFirstEvent.await(10, TimeUnit.SECONDS);
            peer.write("f\r\ndata: event 2\n\n\r\n0\r\n\r\n");
        }));
        start(tls(TestSettings.proxy()), b);
        RawH2 c = h2();
        RawH2.Stream s = c.streams.get(c.get(authority(), "/events"));
        try {
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> {
                synchronized (s.body) {
                    return s.body.toString().contains("data: event 1");
                }
            });
        } finally {
            clientGotTheFirstEvent.countDown();
        }
        assertThat(s.await(5_000)).isTrue();
        assertThat(s.body.toString()).isEqualTo("data: event 1\n\ndata: event 2\n\n");
    }

    @Test
    void anHttp2ExchangeCutOffByABackendDyingMidBodyCompletesAndShutdownStaysClean() throws Exception {
        CountDownLatch clientGotPartOfTheBody = new CountDownLatch(1);
        RawBackend b = RawBackend.start(eachRequest(peer -> {
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + "x".repeat(1000));
            clientGotPartOfTheBody.await(10, TimeUnit.SECONDS);
            peer.out().close(); // gone mid-body
        }));
        start(tls(TestSettings.proxy().readMs(10_000).drainTimeoutMs(10_000)), b);
        AtomicInteger completed = new AtomicInteger();
        f.proxy().setRequestListener((backend, status, latency) -> completed.incrementAndGet());
        RawH2 c = h2();
        int id = c.get(authority(), "/mid");
        RawH2.Stream mid = c.streams.get(id);
        try {
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> {
                synchronized (mid.body) {
                    return mid.body.size() > 0;
                }
            });
        } finally {
            clientGotPartOfTheBody.countDown();
        }
        assertThat(c.streams.get(id).await(5_000)).isTrue();
        assertThat(c.streams.get(id).resetCode).as("the stream is reset, not ended as if complete").isNotNegative();
        // its completion is what the access log, the metrics and graceful shutdown wait for
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> completed.get() == 1);
        assertThat(f.inFlight()).isZero();
        assertThat(f.proxy().shutdownGracefully()).as("shutdown found nothing in flight").isTrue();
    }

    @Test
    void anEarlyAnswerToAnHttp2UploadReachesAClientThatIsStillUploading() throws Exception {
        RawBackend b = RawBackend.scripted(req -> List.of(
                "HTTP/1.1 413 Payload Too Large\r\nContent-Length: 7\r\n\r\ntoo big"));
        b.headOnly = true;
        start(tls(TestSettings.proxy()), b);
        RawH2 c = h2();
        int id = c.request(List.of(new String[] {":method", "POST"}, new String[] {":scheme", "https"},
                new String[] {":authority", authority()}, new String[] {":path", "/upload"},
                new String[] {"content-length", "10000000"}), false);
        c.data(id, new byte[16_000], false); // then waits for the answer, as a streaming upload may
        RawH2.Stream s = c.streams.get(id);
        assertThat(s.head.await(5, TimeUnit.SECONDS)).as("answer before the upload ends").isTrue();
        assertThat(s.status).isEqualTo(413);
    }

    @Test
    void splitCookieFieldsReachTheBackendAsOneCookieHeader() throws Exception {
        // RFC 9113 8.2.3: HTTP/2 may send each cookie as its own field; HTTP/1.1 allows one Cookie line
        RawBackend b = RawBackend.ok();
        start(tls(TestSettings.proxy()), b);
        RawH2 c = h2();
        int id = c.request(List.of(new String[] {":method", "GET"}, new String[] {":scheme", "https"},
                new String[] {":authority", authority()}, new String[] {":path", "/c"},
                new String[] {"cookie", "a=1"}, new String[] {"cookie", "b=2"}), true);
        assertThat(c.streams.get(id).await(5_000)).isTrue();
        String head = b.received.toString();
        assertThat(head).containsIgnoringCase("\r\nCookie: a=1; b=2\r\n");
        assertThat(head.toLowerCase().split("\r\ncookie:", -1)).hasSize(2);
    }

    @Test
    void xForwardedProtoSaysWhatTheConnectionIsNotWhatTheClientClaims() throws Exception {
        // h2c with prior knowledge on the plain port, claiming :scheme https
        RawBackend b = RawBackend.ok();
        start(tls(TestSettings.proxy()), b);
        RawH2 c = new RawH2("127.0.0.1", f.port(), false);
        f.own(c);
        int id = c.request(List.of(new String[] {":method", "GET"}, new String[] {":scheme", "https"},
                new String[] {":authority", "x"}, new String[] {":path", "/h2c"}), true);
        assertThat(c.streams.get(id).await(5_000)).isTrue();
        assertThat(b.received.toString()).contains("\r\nX-Forwarded-Proto: http\r\n");
        RawH2 secure = h2();
        assertThat(secure.streams.get(secure.get(authority(), "/h2")).await(5_000)).isTrue();
        assertThat(b.received.toString()).contains("\r\nX-Forwarded-Proto: https\r\n");
    }

    @Test
    void h2cOnThePlainPortNeedsNoTlsListenerBesideIt() throws Exception {
        // a gRPC client, or curl --http2-prior-knowledge, at a development proxy that has no HTTPS port
        RawBackend b = RawBackend.ok();
        start(TestSettings.proxy().build(), b);
        assertThat(f.proxy().tlsPort()).isEqualTo(-1);
        RawH2 c = new RawH2("127.0.0.1", f.port(), false);
        f.own(c);
        int id = c.get("app.test", "/h2c?q=1");
        assertThat(c.streams.get(id).await(5_000)).isTrue();
        assertThat(c.streams.get(id).status).isEqualTo(200);
        assertThat(b.received.toString()).startsWith("GET /h2c?q=1 HTTP/1.1\r\n")
                .contains("\r\nX-Forwarded-Proto: http\r\n");
    }

    @Test
    void withHttp2OffThePlainPortRefusesTheConnectionPrefaceAndForwardsNothing() throws Exception {
        RawBackend b = RawBackend.ok();
        start(TestSettings.proxy().build().withHttp2(false), b);
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", f.port())) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            String answer = new String(s.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1);
            assertThat(answer).isEqualTo("HTTP/1.1 400");
        }
        assertThat(b.received.toString()).isEmpty();
    }

    @Test
    void anHttp2RequestWithoutAuthorityIsRefusedNotSentWithTheBackendsHost() throws Exception {
        // Undertow sets Host from :authority and drops a host field; as HTTP/1.1 without Host, the answer is 400
        RawBackend b = RawBackend.ok();
        start(tls(TestSettings.proxy()), b);
        RawH2 c = h2();
        for (List<String[]> host : List.of(List.<String[]>of(), List.<String[]>of(new String[] {"host", "app.example:8443"}))) {
            List<String[]> fields = new java.util.ArrayList<>(List.of(new String[] {":method", "GET"},
                    new String[] {":scheme", "https"}, new String[] {":path", "/h"}));
            fields.addAll(host);
            int id = c.request(fields, true);
            assertThat(c.streams.get(id).await(5_000)).isTrue();
            assertThat(c.streams.get(id).status).isEqualTo(400);
            assertThat(c.streams.get(id).body.toString()).contains("HTTP/2 request without :authority");
        }
        assertThat(b.received.toString()).isEmpty();
        int ok = c.get(authority(), "/with-authority");
        assertThat(c.streams.get(ok).await(5_000)).isTrue();
        assertThat(c.streams.get(ok).status).isEqualTo(200);
        assertThat(b.received.toString()).contains("\r\nHost: " + authority() + "\r\n");
    }

    @Test
    void anHttp2ClientThatHangsUpWhileItsRequestsWaitIsNoticedAtOnce() throws Exception {
        // the connection's close reaches every stream's exchange: the leases go back now, not at the answer or readMs
        CountDownLatch release = new CountDownLatch(1);
        RawBackend b = RawBackend.start(eachRequest(peer -> {
            release.await(20, TimeUnit.SECONDS);
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        }));
        start(tls(TestSettings.proxy().readMs(20_000)), b);
        try {
            for (int round = 0; round < 2; round++) {
                RawH2 c = h2();
                c.get(authority(), "/slow/1");
                c.get(authority(), "/slow/2");
                Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> f.inFlight() == 2);
                c.close();
                Awaitility.await("round " + round).atMost(Duration.ofSeconds(5)).until(() -> f.inFlight() == 0);
            }
        } finally {
            release.countDown();
        }
        // streams that ended normally leave nothing behind on a connection that stays open
        RawH2 c = h2();
        for (int i = 0; i < 3; i++) {
            RawH2.Stream s = c.streams.get(c.get(authority(), "/ok/" + i));
            assertThat(s.await(5_000)).isTrue();
            assertThat(s.status).isEqualTo(200);
        }
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> f.inFlight() == 0);
    }

    // ---------------------------------------------------------------- fixtures

    private void start(ProxySettings settings, RawBackend b) {
        f = RunningFulcrum.bareProxy(settings).backend("r", b).start();
    }

    /** Reads each request head (the backend's bytes are recorded as they come) and answers it with {@code answer}. */
    private static RawBackend.Behaviour eachRequest(RawBackend.Behaviour answer) {
        return peer -> {
            while (peer.readHead() != null) {
                answer.serve(peer);
            }
        };
    }

    private ProxySettings tls(TestSettings t) {
        return t.build().withTls(new ProxySettings.Tls(0, null, null, dir));
    }

    private RawH2 h2() throws Exception {
        RawH2 c = new RawH2("127.0.0.1", f.proxy().tlsPort(), true);
        f.own(c);
        return c;
    }

    private String authority() {
        return "localhost:" + f.proxy().tlsPort();
    }
}
