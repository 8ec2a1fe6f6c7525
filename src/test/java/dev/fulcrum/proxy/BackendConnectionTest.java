package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.testkit.RawBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.SlowOnPurpose;
import dev.fulcrum.testkit.TestSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The proxy's own HTTP/1.1 client against a backend written on plain sockets, which answers with exactly
 * the bytes a test scripts: heads that arrive in pieces, interim answers, bare LF, every body framing, and the
 * malformed answers a proxy must refuse (502) rather than pass on. It also records the request bytes the
 * proxy sent, so the request side is checked on the wire.
 */
class BackendConnectionTest {
    private RunningFulcrum f;

    @AfterEach
    void stop() {
        if (f != null) {
            f.close();
        }
    }

    @Test
    void aHeadThatArrivesInPiecesIsGatheredAndTheConnectionServesAgain() throws Exception {
        RawBackend b = backend(req -> List.of("HTTP/1.1 200 OK\r\nContent-", "Type: text/plain\r\nContent-Length: 5\r\n", "\r\nhel", "lo"));
        start(b);
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> r = get("/x");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("hello");
            assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain");
        }
        assertThat(b.accepted.get()).as("connections the proxy opened").isEqualTo(1);
    }

    @Test
    void anInterimAnswerIsSkippedAndBareLineFeedsAreAccepted() throws Exception {
        RawBackend b = backend(req -> List.of("HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n",
                "HTTP/1.1 200 OK\nX-Lf: yes\nContent-Length: 2\n\nok"));
        start(b);
        HttpResponse<String> r = get("/x");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("ok");
        assertThat(r.headers().firstValue("X-Lf")).hasValue("yes");
        assertThat(r.headers().firstValue("Link")).isEmpty();
    }

    @Test
    void aChunkedAnswerStreamsAndTheConnectionIsReused() throws Exception {
        RawBackend b = backend(req -> List.of("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
                "6\r\n world\r\n", "0\r\n\r\n"));
        twoAnswers(b, "hello world", 1);
    }

    @Test
    void aBodyThatEndsWithTheConnectionIsPassedOnAndTheConnectionIsNotReused() throws Exception {
        RawBackend b = backend(req -> List.of("HTTP/1.0 200 OK\r\n\r\nuntil ", "close", RawBackend.CLOSE));
        twoAnswers(b, "until close", 2);
    }

    @Test
    void transferEncodingOverridesContentLength() throws Exception {
        // RFC 9112 6.3: with both, the chunked framing counts and the length must not reach the client, whose copy
        // it would cut short; the connection is not trusted again
        RawBackend both = backend(req -> List.of("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n"
                + "5\r\nhello\r\n0\r\n\r\n"));
        HttpResponse<String> r = twoAnswers(both, "hello", 2);
        assertThat(r.headers().firstValue("Content-Length")).isNotEqualTo(java.util.Optional.of("3"));
    }

    @Test
    void bytesAfterAChunkedBodysLastChunkMeanANewConnectionNextTime() throws Exception {
        // sent unasked: on a reused connection they would be read as the next request's answer
        RawBackend b = backend(req -> List.of("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
                "0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nstale"));
        twoAnswers(b, "hello", 2);
    }

    @Test
    void removingABackendClosesTheConnectionsPooledForIt() throws Exception {
        RawBackend b = backend(req -> List.of("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
        start(b);
        // several clients at once, so more than one I/O thread pools a connection
        List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> many = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            many.add(java.net.http.HttpClient.newHttpClient().sendAsync(HttpRequest.newBuilder(URI.create(f.url() + "/" + i))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()));
        }
        for (var r : many) {
            assertThat(r.get().body()).isEqualTo("ok");
        }
        assertThat(b.open.get()).as("idle pooled connections").isPositive();
        f.engine().remove("s");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(b.open.get()).isZero());
    }

    @Test
    void aBackendThatStallsMidBodyIsCutOffAfterReadMs() throws Exception {
        // nginx's proxy_read_timeout: readMs bounds every wait for the backend, not only the wait for its head
        RawBackend b = backend(req -> List.of("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello", "<pause 4000>", "world"));
        start(b, TestSettings.proxy().maxRetries(0).readMs(500).build());
        try (Socket c = new Socket(InetAddress.getLoopbackAddress(), f.port())) {
            c.setSoTimeout(3_000); // well before the backend would go on
            c.getOutputStream().write("GET /stall HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String got = new String(c.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(got).startsWith("HTTP/1.1 200 ").endsWith("hello"); // then the proxy closed the connection
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(f.inFlight()).isZero());
    }

    @Test
    void aClientThatHoldsUpAStreamedBodyIsNotTimedOut() throws Exception {
        // the wait is on the client's socket, not the backend: readMs does not apply (its reads all found bytes)
        int size = 8_000_000; // more than the proxy's socket buffers take, so the proxy really waits on the client
        String body = "x".repeat(size);
        RawBackend b = backend(req -> List.of("HTTP/1.1 200 OK\r\nContent-Length: " + size + "\r\n\r\n", body));
        start(b, TestSettings.proxy().maxRetries(0).readMs(300).build());
        try (Socket c = new Socket()) {
            c.setReceiveBufferSize(4096);
            c.setSoTimeout(10_000);
            c.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), f.port()));
            c.getOutputStream().write("GET /big HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            SlowOnPurpose.pause(1_500); // a client slow on purpose: reads nothing for five times readMs
            InputStream in = c.getInputStream();
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                head.append((char) in.read());
            }
            byte[] got = in.readNBytes(size);
            assertThat(got.length).isEqualTo(size);
            assertThat(new String(got, StandardCharsets.ISO_8859_1)).isEqualTo(body);
        }
    }

    @Test
    void aWebSocketClientThatHangsUpBeforeThe101ArrivesLeavesNothingInFlight() throws Exception {
        // the backend agrees to the upgrade after the client has gone: the 101 cannot be delivered, no tunnel opens,
        // and the request's lease must still be released
        RawBackend b = backend(req -> List.of("<pause 500>",
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n", "<pause 2000>"));
        start(b);
        try (Socket c = new Socket(InetAddress.getLoopbackAddress(), f.port())) {
            c.getOutputStream().write(("GET /ws HTTP/1.1\r\nHost: t\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                    + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> b.requests.size() == 1);
            c.setSoLinger(true, 0); // a reset, as a browser tab closing
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(f.inFlight()).isZero());
        assertThat(f.proxy().openTunnels()).isZero();
    }

    @Test
    void aWebSocketClientThatResetsWhileThe101IsFlushedLeavesNothingInFlight() throws Exception {
        // a client that resets while the 101 (with a large header) is on its way to it. On loopback the proxy's send
        // buffer takes the whole 101, so the flush itself completes and the tunnel opens and then closes; where the
        // flush cannot complete, the exchange keeps watching the client until the tunnel opens. Either way the
        // lease and the backend connection must go
        String big = "X-Big: " + "a".repeat(60_000) + "\r\n";
        // after the 101 the backend waits for its next bytes: it sees the proxy's close at once, and its own read
        // timeout (10 s) comes after the wait below (a pause here would sleep through the close, and the connection
        // would count as open until it ended)
        RawBackend b = backend(req -> List.of("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + big + "\r\n"));
        start(b);
        try (Socket c = new Socket()) {
            c.setReceiveBufferSize(2048);
            c.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), f.port()));
            c.getOutputStream().write(("GET /ws HTTP/1.1\r\nHost: t\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                    + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            // the 101 is on its way: its first bytes reach the client (which reads none of them)
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> c.getInputStream().available() > 0);
            c.setSoLinger(true, 0);
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(f.inFlight()).isZero();
            assertThat(b.open.get()).as("backend connections still open").isZero();
        });
        assertThat(f.proxy().openTunnels()).isZero();
    }

    @Test
    void aBackendThatAnswersAnUploadEarlyAndResetsIsNotBlamedAndItsAnswerArrives() throws Exception {
        // a 413 before the body is read, then a close with the upload unread (a reset): the upload's write error
        // comes after a complete answer and is not the backend's failure; the client gets the 413 whole
        RawBackend b = backend(req -> List.of("HTTP/1.1 413 Payload Too Large\r\nTransfer-Encoding: chunked\r\n"
                + "Connection: close\r\n\r\n7\r\ntoo big\r\n", "0\r\n\r\n", "<pause 300>", RawBackend.RESET));
        b.headOnly = true;
        start(b);
        long size = 200_000_000L;
        try (Socket c = new Socket(InetAddress.getLoopbackAddress(), f.port())) {
            c.setSoTimeout(10_000);
            OutputStream out = c.getOutputStream();
            out.write(("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: " + size + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            upload(out, size);
            String got = readUntil(c.getInputStream(), "\r\n0\r\n\r\n");
            assertThat(got).startsWith("HTTP/1.1 413 ").contains("\r\ntoo big\r\n");
            // the backend resets its side; with the client still there, the exchange ends without blaming it
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> b.open.get() == 0);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(f.inFlight()).isZero());
            assertThat(f.engine().backends().get(0).failures()).as("failures blamed on the backend").isZero();
            c.setSoLinger(true, 0);
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(f.inFlight()).isZero());
        assertThat(f.engine().backends().get(0).failures()).as("failures blamed on the backend").isZero();
    }

    @Test
    void aStreamedEarlyAnswerEndsTheExchangeThoughTheBackendNeitherReadsNorCloses() throws Exception {
        // once the answer is out, the rest of the upload is the proxy's to drain (as nginx discards it): waiting for
        // the backend to take it or hang up would hold the lease for as long as it pleases
        RawBackend b = backend(req -> List.of("HTTP/1.1 413 Payload Too Large\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "7\r\ntoo big\r\n", "0\r\n\r\n", "<pause 15000>"));
        b.headOnly = true;
        start(b, TestSettings.proxy().maxRetries(0).readMs(20_000).build());
        try (Socket c = new Socket(InetAddress.getLoopbackAddress(), f.port())) {
            c.setSoTimeout(10_000);
            long size = 200_000_000L;
            c.getOutputStream().write(("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: " + size + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            upload(c.getOutputStream(), size);
            assertThat(readUntil(c.getInputStream(), "\r\n0\r\n\r\n")).startsWith("HTTP/1.1 413 ");
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(f.inFlight()).isZero());
        }
        assertThat(f.engine().backends().get(0).failures()).isZero();
    }

    @Test
    void aClientThatCutsItsUploadShortIsNotTheBackendsFailure() throws Exception {
        // before the backend's head arrives and after it: the failed read is the client's; the lease goes at once
        // (not after readMs) and nothing counts against the backend
        for (String head : List.of("<pause 100>", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")) {
            RawBackend b = backend(req -> List.of(head, "<pause 15000>"));
            b.headOnly = true;
            start(b, TestSettings.proxy().maxRetries(0).readMs(20_000).build());
            try (Socket c = new Socket(InetAddress.getLoopbackAddress(), f.port())) {
                OutputStream out = c.getOutputStream();
                out.write("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 1000000\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.write(new byte[100_000]);
                out.flush();
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> b.requests.size() == 1);
                if (head.startsWith("HTTP/")) { // the backend's head has come through to the client
                    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> c.getInputStream().available() > 0);
                }
            } // a close half way through the body
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(f.inFlight()).as(head).isZero());
            assertThat(f.engine().backends().get(0).failures()).as(head).isZero();
            f.close();
            f = null;
        }
    }

    private static void upload(OutputStream out, long size) {
        Thread uploader = new Thread(() -> {
            byte[] chunk = new byte[64 * 1024];
            try {
                for (long sent = 0; sent < size; sent += chunk.length) {
                    out.write(chunk);
                }
            } catch (IOException e) {
                // the proxy closed the connection: fine once the answer is in
            }
        }, "uploader");
        uploader.setDaemon(true);
        uploader.start();
    }

    private static String readUntil(InputStream in, String end) throws IOException {
        StringBuilder got = new StringBuilder();
        while (!got.toString().endsWith(end)) {
            int ch = in.read();
            assertThat(ch).as("answer so far: %s", got).isNotNegative();
            got.append((char) ch);
        }
        return got.toString();
    }

    @Test
    void connectionCloseFromTheBackendMeansANewConnectionNextTime() throws Exception {
        RawBackend b = backend(req -> List.of("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"));
        twoAnswers(b, "ok", 2);
    }

    @Test
    void headAnd204AnswersHaveNoBodyAndKeepTheConnection() throws Exception {
        RawBackend b = backend(req -> req.startsWith("HEAD")
                ? List.of("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n")
                : List.of("HTTP/1.1 204 No Content\r\n\r\n"));
        start(b);
        HttpResponse<Void> head = f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/h"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValue("Content-Length")).hasValue("10");
        assertThat(get("/n").statusCode()).isEqualTo(204);
        assertThat(get("/n").statusCode()).isEqualTo(204);
        assertThat(b.accepted.get()).isEqualTo(1);
    }

    @Test
    void aLengthStatedTwiceAlikeFramesTheBody() throws Exception {
        RawBackend b = backend(req -> List.of("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok"));
        twoAnswers(b, "ok", 1);
    }

    @Test
    void anAnswerLongerThanItsContentLengthIsCutThereAndItsConnectionDropped() throws Exception {
        RawBackend b = backend(req -> List.of("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA"));
        twoAnswers(b, "ok", 2);
    }

    @Test
    void malformedAnswersAreRefusedWith502() throws Exception {
        for (String bad : List.of(
                "HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n",
                "HTTX/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
                "HTTP/1.1 200 OK\r\nX-A: 1\r\n  folded\r\nContent-Length: 0\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\nx",
                "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxy",
                "HTTP/1.1 200 OK\r\nContent-Length: +1\r\n\r\nx",
                "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
                "HTTP/1.1 200 OK\r\nBad Name: x\r\nContent-Length: 0\r\n\r\n",
                "HTTP/1.1 200 OK\r\nNoColon\r\nContent-Length: 0\r\n\r\n",
                // a 1xx is interim to the client: an upgrade nobody asked for would leave it waiting for ever
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
                // chunked taken off, gzip would reach the client undeclared; without a final chunked, no known end;
                // "xchunked" is not chunked (nginx: "upstream sent unknown Transfer-Encoding")
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nhello",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: xchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")) {
            RawBackend b = backend(req -> List.of(bad));
            start(b);
            HttpResponse<String> r = get("/x");
            assertThat(r.statusCode()).as(bad).isEqualTo(502);
            assertThat(r.body()).contains("unreachable");
            f.close();
            f = null;
        }
    }

    @Test
    void aHeadLargerThanTheLimitIsRefusedWith502() throws Exception {
        String big = "X-Big: " + "a".repeat(BackendConnection.MAX_HEAD) + "\r\n";
        RawBackend b = backend(req -> List.of("HTTP/1.1 200 OK\r\n", big, "Content-Length: 0\r\n\r\n"));
        start(b);
        assertThat(get("/x").statusCode()).isEqualTo(502);
    }

    @Test
    void theRequestGoesOutWithForwardedHeadersAndWithoutHopByHopOnes() throws Exception {
        RawBackend b = backend(req -> List.of("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
        start(b);
        try (Socket c = new Socket(InetAddress.getLoopbackAddress(), URI.create(f.url()).getPort())) {
            c.getOutputStream().write(("GET /p/q?x=1&y=%20 HTTP/1.1\r\nHost: example.test\r\nConnection: X-Secret\r\n"
                    + "X-Secret: s\r\nTE: trailers\r\nX-Kept: k\r\nX-Forwarded-For: 10.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            c.setSoTimeout(10_000);
            assertThat(RawBackend.readMessage(c.getInputStream(), false)).startsWith("HTTP/1.1 200"); // a head, read the same way
        }
        String req = b.requests.get(0);
        assertThat(req).startsWith("GET /p/q?x=1&y=%20 HTTP/1.1\r\n");
        assertThat(req).contains("\r\nX-Kept: k\r\n", "\r\nX-Forwarded-For: 10.0.0.1, 127.0.0.1\r\n",
                "\r\nX-Forwarded-Proto: http\r\n", "\r\nHost: example.test\r\n");
        assertThat(req).as("persistent by default in HTTP/1.1").doesNotContain("Connection");
        assertThat(req).contains("\r\nX-Forwarded-Host: example.test\r\n").doesNotContain("X-Secret").doesNotContain("TE:");
        assertThat(req).endsWith("\r\n\r\n");
    }

    @Test
    void theAnswerComesBackWithoutHopByHopHeadersWhereverTheConnectionHeaderNamesThem() throws Exception {
        // X-Early is named by a Connection line after it, X-Late by one before it; Content-Length stays whatever the
        // Connection header says (without it the client could not find the body's end)
        RawBackend b = backend(req -> List.of("HTTP/1.1 200 OK\r\nX-Early: e\r\nConnection: keep-alive, X-Late\r\n"
                + "Keep-Alive: timeout=5\r\nProxy-Connection: keep-alive\r\nTE: trailers\r\nTrailer: X-T\r\n"
                + "Proxy-Authenticate: Basic\r\nProxy-Authorization: Basic eA==\r\nExpect: 100-continue\r\nUpgrade: h2c\r\n"
                + "X-Late: l\r\nConnection:  x-early ,,content-length, \r\nX-Kept: k\r\nContent-Length: 2\r\n\r\nok"));
        start(b);
        // one client connection, so one I/O thread and its one backend connection: the second answer comes on the
        // kept backend connection, and nothing of the first answer's lingers
        try (Socket c = new Socket(InetAddress.getLoopbackAddress(), URI.create(f.url()).getPort())) {
            c.setSoTimeout(10_000);
            for (int i = 0; i < 2; i++) {
                c.getOutputStream().write("GET /x HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                String head = RawBackend.readMessage(c.getInputStream(), false).toLowerCase(java.util.Locale.ROOT);
                assertThat(head).startsWith("http/1.1 200").contains("\r\nx-kept: k\r\n", "\r\ncontent-length: 2\r\n");
                for (String gone : List.of("x-early", "x-late", "keep-alive", "proxy-connection", "te", "trailer",
                        "proxy-authenticate", "proxy-authorization", "expect", "upgrade")) {
                    assertThat(head).as(gone).doesNotContain("\r\n" + gone + ":");
                }
                // Undertow's own, for the client's connection; nothing of the backend's
                assertThat(head).doesNotContain("x-early", "x-late").containsOnlyOnce("connection");
                assertThat(head).satisfiesAnyOf(h -> assertThat(h).doesNotContain("\r\nconnection:"),
                        h -> assertThat(h).contains("\r\nconnection: keep-alive\r\n"));
            }
        }
        assertThat(b.accepted.get()).isEqualTo(1);
    }

    @Test
    void bodiesGoOutWithTheirLengthOrChunkedIncludingAnEmptyChunkedOne() throws Exception {
        RawBackend b = backend(req -> List.of("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
        start(b);
        f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/fixed"))
                .POST(HttpRequest.BodyPublishers.ofString("abc")).build(), HttpResponse.BodyHandlers.ofString());
        java.util.function.Supplier<InputStream> empty = () -> InputStream.nullInputStream();
        java.util.function.Supplier<InputStream> some = () -> new java.io.ByteArrayInputStream("xyz".getBytes(StandardCharsets.US_ASCII));
        HttpResponse<String> e = f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/empty"))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofInputStream(empty)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(e.statusCode()).isEqualTo(200);
        f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/chunked"))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofInputStream(some)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(b.requests.get(0)).contains("\r\nContent-Length: 3\r\n").endsWith("\r\n\r\nabc");
        assertThat(b.requests.get(1)).contains("\r\nTransfer-Encoding: chunked\r\n").endsWith("\r\n\r\n0\r\n\r\n");
        assertThat(b.requests.get(2)).contains("\r\nTransfer-Encoding: chunked\r\n").endsWith("3\r\nxyz\r\n0\r\n\r\n");
        assertThat(b.accepted.get()).isEqualTo(1);
    }

    @Test
    void wholeBodiesAClientCannotTakeAtOnceArriveIntactAndInOrder() throws Exception {
        // each answer comes in one piece, head and body, so the proxy writes the body straight from its read buffer;
        // a client that pipelines many requests and reads nothing fills its socket, so what the socket does not take
        // has to be kept apart from that buffer, which the next answer overwrites
        RawBackend b = backend(req -> {
            String path = req.substring(4, req.indexOf(' ', 4));
            String body = (path + ";").repeat(15_000 / (path.length() + 1));
            return List.of("HTTP/1.1 200 OK\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);
        });
        start(b);
        int n = 400; // 6 MB: more than the proxy's socket send buffer grows to (4 MiB at most)
        try (Socket c = new Socket()) {
            c.setReceiveBufferSize(2048);
            c.setSoTimeout(20_000);
            c.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), f.port()));
            OutputStream out = c.getOutputStream();
            for (int i = 0; i < n; i++) {
                out.write(("GET /r" + i + " HTTP/1.1\r\nHost: t\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            }
            out.flush();
            // read nothing until the proxy is stuck: its socket is full and it stops asking the backend. Stuck can only
            // be seen as nothing happening: no new request at the backend for 300 ms, the shortest bound kept for it
            int[] seen = {-1};
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(300)).until(() -> {
                        int now = b.requests.size();
                        boolean still = now == seen[0] || now >= n;
                        seen[0] = now;
                        return still;
                    });
            // other clients meanwhile, on every I/O thread: their answers pass through the read buffer the stuck body came in
            List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> others = new java.util.ArrayList<>();
            for (int i = 0; i < 16; i++) {
                others.add(f.http().sendAsync(HttpRequest.newBuilder(URI.create(f.url() + "/other" + i))
                        .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString()));
            }
            for (var r : others) {
                assertThat(r.get().body()).startsWith("/other");
            }
            java.io.DataInputStream in = new java.io.DataInputStream(new java.io.BufferedInputStream(c.getInputStream()));
            for (int i = 0; i < n; i++) {
                StringBuilder head = new StringBuilder();
                while (!head.toString().endsWith("\r\n\r\n")) {
                    head.append((char) in.readUnsignedByte());
                }
                assertThat(head.toString()).startsWith("HTTP/1.1 200 ");
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
                assertThat(m.find()).as("Content-Length in %s", head).isTrue();
                byte[] body = new byte[Integer.parseInt(m.group(1))];
                in.readFully(body);
                String path = "/r" + i;
                assertThat(new String(body, StandardCharsets.US_ASCII))
                        .isEqualTo((path + ";").repeat(15_000 / (path.length() + 1)));
            }
        }
        assertThat(b.requests).hasSize(n + 16);
    }

    // ---------------------------------------------------------------- fixtures

    private void start(RawBackend b) {
        start(b, TestSettings.proxy().maxRetries(0).readMs(5_000).build());
    }

    private void start(RawBackend b, ProxySettings settings) {
        f = RunningFulcrum.bareProxy(settings).backend("s", b).start();
    }

    /** Starts the proxy on {@code b}, expects two GETs answered with {@code body} over {@code connections}; the first. */
    private HttpResponse<String> twoAnswers(RawBackend b, String body, int connections) throws Exception {
        start(b);
        HttpResponse<String> first = get("/a");
        assertThat(first.body()).isEqualTo(body);
        assertThat(get("/b").body()).isEqualTo(body);
        assertThat(b.accepted.get()).as("connections the proxy opened").isEqualTo(connections);
        return first;
    }

    private HttpResponse<String> get(String path) throws Exception {
        return f.http().send(HttpRequest.newBuilder(URI.create(f.url() + path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static RawBackend backend(Function<String, List<String>> answer) throws IOException {
        return RawBackend.scripted(answer);
    }
}
