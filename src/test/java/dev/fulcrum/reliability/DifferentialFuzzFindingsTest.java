package dev.fulcrum.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.testkit.RawBackend;
import dev.fulcrum.testkit.RawHttp.RawAnswer;
import dev.fulcrum.testkit.RecordingBackend.Seen;
import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.TestSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Findings of a differential request fuzz: byte strings where the backend
 * behind the proxy sees a request boundary the proxy never saw, or where malformed chunked framing is accepted
 * instead of being refused with 400 and a close.
 */
@Tag("reliability")
class DifferentialFuzzFindingsTest {
    private RunningFulcrum harness;
    private RecordingBackend backend;

    @BeforeEach
    void start() {
        backend = new RecordingBackend("ours");
        harness = RunningFulcrum.bareProxy(TestSettings.underLoad(0, 3000, 5_000, 5_000)).backend(backend).start();
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    private RawAnswer send(String bytes) throws Exception {
        return harness.raw(bytes.getBytes(StandardCharsets.ISO_8859_1), 3_000);
    }

    /**
     * "Connection: Content-Length" makes the proxy drop the Content-Length header as hop-by-hop (RFC 9110 7.6.1) yet
     * still stream the body raw, unframed (no Transfer-Encoding: chunked is added because the CLIENT's header map
     * still has Content-Length). The backend reads the POST as bodyless and the body as a second request: smuggled
     * past routing, the dot-segment and target checks, X-Forwarded-For and the access log.
     */
    @Test
    void connectionNamingContentLengthMustNotLetTheBodyBecomeASecondRequest() throws Exception {
        String smuggled = "GET /SMUG HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.0.0.1\r\n\r\n";
        RawAnswer a = send("POST /a HTTP/1.1\r\nHost: x\r\nConnection: Content-Length\r\nContent-Length: "
                + smuggled.length() + "\r\n\r\n" + smuggled);
        // a smuggled request would reach the backend right after /a, on the same connection; that none does can only
        // be seen as nothing happening, so the backend is watched for 300 ms after /a, the shortest bound kept for it
        try {
            await().atMost(Duration.ofSeconds(5)).until(() -> !backend.seen.isEmpty());
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> backend.seen.size() <= 1);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            // asserted below with what the backend saw
        }
        List<Seen> seen = List.copyOf(backend.seen);
        assertThat(seen).as("the backend must see one request, with the body the proxy read (got %s)", seen)
                .extracting(Seen::uri).containsExactly("/a");
        assertThat(seen.get(0).body()).isEqualTo(smuggled);
        assertThat(a.status()).isIn(200, 400);
    }

    /**
     * Issue 7's corpus: bare LF in a chunk-size line and malformed chunk lines must be refused with 400 and a close.
     * A chunk whose data is not followed by CRLF (size 4 for "hello") has its extra bytes silently skipped, and junk
     * after the size ("5 5", "5,5", "5\0") is ignored; the backend gets a body the client never framed.
     */
    @Test
    void malformedChunkLinesAreRefusedNotReinterpreted() throws Exception {
        for (String chunks : List.of("4\r\nhello\r\n0\r\n\r\n", "5\n\r\nhello\r\n0\r\n\r\n", "5 5\r\nhello\r\n0\r\n\r\n",
                "5,5\r\nhello\r\n0\r\n\r\n", "5\u0000\r\nhello\r\n0\r\n\r\n", "5;\u0001x\r\nhello\r\n0\r\n\r\n",
                "5\r\nhello\r\n0\r\n folded: trailer\r\n\r\n", "5\r\r\nhello\r\n0\r\n\r\n")) {
            backend.seen.clear();
            RawAnswer a = send("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks);
            assertThat(a.status()).as("status for %s (got %s, backend saw %s)", chunks.replace("\r", "\\r")
                    .replace("\n", "\\n"), a.text().lines().findFirst().orElse(""), backend.seen).isEqualTo(400);
            assertThat(a.closed()).isTrue();
            assertThat(a.text()).contains("invalid chunked body");
            // the head may have gone ahead of the body; the backend never gets a whole request out of it
            assertThat(backend.seen).allMatch(s -> s.body().contains(RecordingBackend.UNREADABLE), "a broken-off body");
        }
    }

    /**
     * Backend answers no proxy may pass on: a status outside 100-599, a control byte in a header value, and a head
     * Undertow's header map refuses (3000 repeats of one name), which must not escape as an exception and leave the
     * client waiting readMs for a 504 that blames a timeout. Each is a 502 (a 504 would be the timeout).
     */
    @Test
    void unusableBackendAnswersAre502AtOnce() throws Exception {
        for (String head : List.of("HTTP/1.1 600 Odd\r\nContent-Length: 2\r\n\r\nok",
                "HTTP/1.1 099 Odd\r\nContent-Length: 2\r\n\r\nok",
                "HTTP/1.1 200 OK\r\nX-A: a\u0000b\r\nContent-Length: 2\r\n\r\nok",
                "HTTP/1.1 200 OK\r\n" + "X-A: 1\r\n".repeat(3000) + "Content-Length: 2\r\n\r\nok")) {
            try (RawBackend odd = RawBackend.start(peer -> {
                while (peer.readHead() != null) {
                    peer.write(head);
                }
            }); RunningFulcrum h = RunningFulcrum.bareProxy(TestSettings.underLoad(0, 3000, 5_000, 5_000))
                    .backend("odd", odd.url()).start()) {
                RawAnswer a = h.raw("GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), 10_000);
                assertThat(a.status()).as("answer to %s", head.lines().findFirst().orElse("")).isEqualTo(502);
            }
        }
    }

    /**
     * Well-framed chunked uploads of every shape arrive byte for byte: the grammar beneath Undertow's decoder sees
     * the bytes the decoder gives back (and reads again) only once, or a 200 MB upload is refused half-way as
     * "more bytes than the chunk size" (PassThroughTest).
     */
    @Test
    void wellFramedChunkedUploadsArriveWhole() throws Exception {
        java.util.Random random = new java.util.Random(16);
        for (int round = 0; round < 20; round++) {
            StringBuilder body = new StringBuilder();
            StringBuilder framed = new StringBuilder();
            int chunks = 1 + random.nextInt(40);
            for (int c = 0; c < chunks; c++) {
                int size = 1 + random.nextInt(round % 2 == 0 ? 70_000 : 300);
                String data = String.valueOf((char) ('a' + c % 26)).repeat(size);
                body.append(data);
                framed.append(Integer.toHexString(size)).append(random.nextBoolean() ? ";x=\"y\"" : "").append("\r\n")
                        .append(data).append("\r\n");
            }
            framed.append("0\r\n").append(random.nextBoolean() ? "X-Trailer: t\r\n" : "").append("\r\n");
            backend.seen.clear();
            RawAnswer a = send("POST /up HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + framed);
            assertThat(a.status()).as("round %d", round).isEqualTo(200);
            assertThat(backend.seen).hasSize(1);
            assertThat(backend.seen.get(0).body()).as("round %d", round).isEqualTo(body.toString());
        }
    }

    /** A body that breaks after the backend has answered ends the connection: Undertow's drain of it would never end. */
    @Test
    void aBodyBrokenAfterTheAnswerClosesTheConnection() throws Exception {
        try (RawBackend early = RawBackend.start(peer -> {
            if (peer.readHead() != null) {
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
                peer.in().transferTo(java.io.OutputStream.nullOutputStream());
            }
        }); RunningFulcrum h = RunningFulcrum.bareProxy(TestSettings.underLoad(0, 3000, 5_000, 5_000))
                .backend("early", early.url()).start();
             java.net.Socket client = new java.net.Socket("127.0.0.1", h.port())) {
            client.setSoTimeout(20_000);
            var out = client.getOutputStream();
            out.write("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            var in = client.getInputStream();
            StringBuilder got = new StringBuilder();
            while (!got.toString().endsWith("ok")) {
                got.append((char) in.read());
            }
            out.write("zz\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            int next;
            try {
                next = in.read();
            } catch (java.net.SocketException reset) {
                next = -1;
            }
            assertThat(next).as("the connection ends (a read timeout here means it hung)").isEqualTo(-1);
        }
    }
}
