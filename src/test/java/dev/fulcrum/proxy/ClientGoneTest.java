package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.testkit.RawBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.TestSettings;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLSocket;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A client that goes away while its request waits on a backend, over each way Fulcrum is reached (HTTP/2 over TLS, h2c
 * on the plain port, HTTP/1.1 over TLS, a WebSocket tunnel): the backend's in-flight slot goes back at once, the
 * exchange completes (logged as 499 with the backend it waited on), and a graceful stop with a 30 s drain timeout
 * finds nothing in flight and ends within a second (docs/REFERENCE.md §1: SIGTERM lets in-flight requests finish up
 * to drainTimeoutMs). The backend holds every answer until the test ends, so only the client's leaving can end an
 * exchange.
 */
class ClientGoneTest {
    /** How an HTTP/2 client reaches the proxy: over TLS (ALPN), or h2c with prior knowledge on the plain port. */
    enum H2 { TLS, H2C }

    private static final long DRAIN_TIMEOUT_MS = 30_000;

    private final CountDownLatch release = new CountDownLatch(1);
    /** Requests that reached the backend, which is holding them. */
    private final AtomicInteger holding = new AtomicInteger();
    /** The status each completed exchange was counted with. */
    private final List<Integer> completed = new CopyOnWriteArrayList<>();
    private RunningFulcrum f;
    @TempDir
    Path dir;

    @AfterEach
    void stop() {
        release.countDown();
        if (f != null) {
            f.close();
        }
    }

    @ParameterizedTest
    @EnumSource(H2.class)
    void anHttp2StreamResetByItsClientEndsItsExchangeAtOnce(H2 how) throws Exception {
        start(heldAnswers());
        RawH2 c = h2(how);
        int id = c.get(authority(), "/slow");
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> holding.get() == 1 && f.inFlight() == 1);
        c.rst(id); // the connection stays open: only the stream is gone
        awaitAllGone(1);
        assertThat(c.closed).as("the connection is still open").isFalse();
        assertStopsWithinASecond();
    }

    @ParameterizedTest
    @EnumSource(H2.class)
    void anHttp2ConnectionClosedWhileItsStreamsWaitEndsEveryExchange(H2 how) throws Exception {
        start(heldAnswers());
        RawH2 c = h2(how);
        c.get(authority(), "/slow/1");
        c.get(authority(), "/slow/2");
        // both read by the held backend and both in flight; a failure names the two counts
        Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat("held " + holding.get() + ", in flight " + f.inFlight()).isEqualTo("held 2, in flight 2"));
        c.close();
        awaitAllGone(2);
        assertStopsWithinASecond();
    }

    @Test
    void anHttp2StreamResetWhileItsAnswerStreamsEndsItsExchangeAtOnce() throws Exception {
        // server-sent events: the backend sent one event and is quiet; the client leaves the page
        start(peer -> {
            if (peer.readHead() != null) {
                holding.incrementAndGet();
                peer.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "f\r\ndata: event 1\n\n\r\n");
                release.await(60, TimeUnit.SECONDS);
                peer.write("f\r\ndata: event 2\n\n\r\n0\r\n\r\n");
            }
        });
        RawH2 c = h2(H2.TLS);
        int id = c.get(authority(), "/events");
        RawH2.Stream s = c.streams.get(id);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> {
            synchronized (s.body) {
                return s.body.toString().contains("data: event 1");
            }
        });
        c.rst(id);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> f.inFlight() == 0 && completed.size() == 1);
        assertThat(completed).as("the answer's status, as nginx logs a client gone mid-body").containsExactly(200);
        assertStopsWithinASecond();
    }

    @Test
    void aRealHttp2ClientThatGivesUpOnItsRequestsLeavesNothingInFlight() throws Exception {
        // java.net.http resets the stream of a request that timed out, as curl --max-time and browsers do
        start(heldAnswers());
        HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .sslContext(PassThroughTest.trustAll()).build();
        for (int i = 1; i <= 3; i++) {
            HttpRequest r = HttpRequest.newBuilder(URI.create("https://localhost:" + f.proxy().tlsPort() + "/slow/" + i))
                    .timeout(Duration.ofMillis(300)).build();
            int seen = i;
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
                try {
                    h2.sendAsync(r, HttpResponse.BodyHandlers.discarding()).get(10, TimeUnit.SECONDS);
                    throw new AssertionError("answered, though the backend holds every answer");
                } catch (ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(HttpTimeoutException.class);
                }
                return holding.get() >= seen; // a first request may time out in the TLS handshake
            });
        }
        // a request reset before its backend saw it completes too, so at least one per request held
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> f.inFlight() == 0 && completed.size() >= holding.get());
        assertThat(completed).containsOnly(ProxyExchange.CLIENT_CLOSED);
        assertStopsWithinASecond();
    }

    @Test
    void aTlsHttp11ClientThatHangsUpEndsItsExchangeAtOnce() throws Exception {
        start(heldAnswers());
        for (int i = 1; i <= 2; i++) {
            SSLSocket s = (SSLSocket) PassThroughTest.trustAll().getSocketFactory()
                    .createSocket("127.0.0.1", f.proxy().tlsPort());
            s.startHandshake();
            assertThat(s.getApplicationProtocol()).isIn("", "http/1.1", null);
            s.getOutputStream().write(("GET /slow/" + i + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            int seen = i;
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> holding.get() == seen && f.inFlight() == 1);
            if (i == 1) {
                s.close(); // close_notify, then FIN
            } else {
                s.setSoLinger(true, 0);
                s.close(); // a reset: the client's process died
            }
            awaitAllGone(i);
        }
        assertStopsWithinASecond();
    }

    @ParameterizedTest(name = "over TLS {0}")
    @ValueSource(booleans = {false, true})
    void aWebSocketTunnelWhoseClientVanishesClosesAndReleasesItsSlot(boolean tls) throws Exception {
        start(peer -> {
            if (peer.readHead() != null) {
                holding.incrementAndGet();
                peer.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n");
                RawBackend.blackHole().serve(peer); // a quiet socket: nothing but the client's leaving ends it
            }
        });
        Socket s = tls ? PassThroughTest.trustAll().getSocketFactory().createSocket("127.0.0.1", f.proxy().tlsPort())
                : new Socket("127.0.0.1", f.port());
        s.setSoTimeout(5_000);
        OutputStream out = s.getOutputStream();
        out.write(("GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        assertThat(readHead(s.getInputStream())).startsWith("HTTP/1.1 101");
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> f.proxy().openTunnels() == 1 && f.inFlight() == 1);
        s.setSoLinger(true, 0);
        s.close(); // gone without a close frame
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> f.proxy().openTunnels() == 0 && f.inFlight() == 0);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> completed.contains(101));
        assertStopsWithinASecond();
    }

    // ---------------------------------------------------------------- fixtures

    /** Reads each request head and answers it only when the test ends. */
    private RawBackend.Behaviour heldAnswers() {
        return peer -> {
            while (peer.readHead() != null) {
                holding.incrementAndGet();
                release.await(60, TimeUnit.SECONDS);
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            }
        };
    }

    private void start(RawBackend.Behaviour backend) throws Exception {
        ProxySettings settings = TestSettings.proxy().readMs(60_000).drainTimeoutMs(DRAIN_TIMEOUT_MS).build()
                .withTls(new ProxySettings.Tls(0, null, null, dir));
        f = RunningFulcrum.bareProxy(settings).backend("held", RawBackend.start(backend)).start();
        f.proxy().setRequestListener((id, status, latency) -> completed.add(status));
    }

    /** Every one of {@code n} exchanges completed as a client abort, its slot back, while the backend still holds. */
    private void awaitAllGone(int n) {
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> f.inFlight() == 0 && completed.size() == n);
        assertThat(completed).as("each logged as the client's hang-up").containsOnly(ProxyExchange.CLIENT_CLOSED);
        assertThat(release.getCount()).as("the backend never answered").isOne();
    }

    private void assertStopsWithinASecond() {
        long start = System.nanoTime();
        boolean clean = f.proxy().shutdownGracefully();
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(clean).as("no request left in flight (drain timeout %d ms)", DRAIN_TIMEOUT_MS).isTrue();
        assertThat(took).isLessThan(Duration.ofSeconds(1));
    }

    private RawH2 h2(H2 how) throws Exception {
        RawH2 c = how == H2.TLS ? new RawH2("127.0.0.1", f.proxy().tlsPort(), true) : new RawH2("127.0.0.1", f.port(), false);
        return f.own(c);
    }

    private String authority() {
        return "localhost:" + f.proxy().tlsPort();
    }

    private static String readHead(InputStream in) throws java.io.IOException {
        StringBuilder b = new StringBuilder();
        while (!b.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            b.append((char) c);
        }
        return b.toString();
    }
}
