package dev.fulcrum.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.testkit.RawHttp.RawAnswer;
import dev.fulcrum.testkit.RecordingBackend.Seen;
import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.TestSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile input corpus (issue 7): malformed, ambiguous and oversized requests sent as raw bytes to the real
 * proxy. Each case names the statuses it may get, whether the proxy must close the connection, and what
 * the backend behind it may have seen: nothing, or one request whose framing leaves no room for a second
 * interpretation (request smuggling needs the proxy and the backend to disagree about where a request ends).
 *
 * <p>The outcomes are also written to {@code target/reliability/hostile-input.md}, the table RELIABILITY.md
 * quotes.
 */
@Tag("reliability")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileInputTest {
    private static final Set<Integer> REFUSED = Set.of(400);

    private RunningFulcrum harness;
    private RecordingBackend backend;
    private RecordingBackend evil;
    private final List<String> table = new ArrayList<>();

    /**
     * @param allowed      statuses the proxy may answer (-1: no HTTP answer at all, only a close)
     * @param mustClose    the proxy must close the connection after answering
     * @param backendSaw   what the backend's record must satisfy
     * @param backendRule  the rule in words, for the table
     */
    record Case(String name, String bytes, Set<Integer> allowed, boolean mustClose, Predicate<List<Seen>> backendSaw,
                String backendRule) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Predicate<List<Seen>> nothing() {
        return List::isEmpty;
    }

    /** Exactly one request, with this method, target and body: the backend and the proxy agree on framing. */
    static Predicate<List<Seen>> exactlyOne(String method, String uri, String body) {
        return seen -> seen.size() == 1 && seen.get(0).method().equals(method) && seen.get(0).uri().equals(uri)
                && seen.get(0).body().equals(body);
    }

    /** The body bytes the backend received, without the marker it adds when the body broke off. */
    static String received(Seen s) {
        int cut = s.body().indexOf(RecordingBackend.UNREADABLE);
        return cut < 0 ? s.body() : s.body().substring(0, cut);
    }

    static Predicate<List<Seen>> nothingOr(Predicate<List<Seen>> p) {
        return seen -> seen.isEmpty() || p.test(seen);
    }

    static Case refused(String name, String bytes) {
        return new Case(name, bytes, REFUSED, true, nothing(), "nothing");
    }

    @BeforeAll
    void startProxy() {
        backend = new RecordingBackend("ours");
        evil = new RecordingBackend("evil");
        harness = RunningFulcrum.bareProxy(TestSettings.underLoad(2, 3000, 10_000, 10_000))
                .backend("ours", backend.url()).start();
        harness.own(backend);
        harness.own(evil);
    }

    @AfterAll
    void stopProxyAndWriteTable() throws IOException {
        harness.close();
        Path out = Path.of("target", "reliability", "hostile-input.md");
        Files.createDirectories(out.getParent());
        List<String> lines = new ArrayList<>();
        lines.add("| case | answer | closed | backend received |");
        lines.add("|---|---|---|---|");
        lines.addAll(table);
        Files.write(out, lines, StandardCharsets.UTF_8);
    }

    Stream<Case> corpus() {
        String evilTarget = "http://127.0.0.1:" + evil.port() + "/steal";
        return Stream.of(
                refused("Content-Length with Transfer-Encoding: chunked",
                        "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
                refused("Transfer-Encoding: chunked with Content-Length (TE first)",
                        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n"),
                refused("two different Content-Lengths",
                        "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\nabcde"),
                refused("Content-Length as a comma list of different values",
                        "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 6\r\n\r\nabcdef"),
                new Case("Content-Length as a comma list of equal values", 
                        "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 5\r\n\r\nabcde",
                        Set.of(400, 200), true, nothingOr(exactlyOne("POST", "/a", "abcde")),
                        "nothing, or one POST /a with body abcde"),
                refused("Content-Length with a sign", "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\nabcde"),
                refused("Content-Length negative", "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n"),
                refused("Content-Length in hex", "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0x5\r\n\r\nabcde"),
                refused("Content-Length beyond 64 bits",
                        "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\nabcde"),
                refused("Transfer-Encoding: xchunked",
                        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n"),
                refused("Transfer-Encoding: chunked, identity",
                        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n"),
                refused("Transfer-Encoding: identity, chunked",
                        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: identity, chunked\r\n\r\n0\r\n\r\n"),
                refused("Transfer-Encoding: chunked twice (two lines)",
                        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
                refused("Transfer-Encoding with a vertical tab",
                        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\u000bchunked\r\n\r\n0\r\n\r\n"),
                // the chunk grammar is held to RFC 9112 7.1 as the body arrives (ChunkGrammar): the head may have
                // gone ahead, the body never ends
                new Case("bare LF after a chunk size",
                        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n",
                        Set.of(400), true, seen -> seen.stream().allMatch(s -> received(s).isEmpty()), "no body byte"),
                new Case("chunk size overflowing 64 bits",
                        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\nhello\r\n0\r\n\r\n",
                        Set.of(400, -1), true, seen -> seen.stream().noneMatch(s -> received(s).length() > 5),
                        "no body beyond the bytes sent"),
                new Case("invalid chunk extension (control byte)",
                        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;\u0001x\r\nhello\r\n0\r\n\r\n",
                        Set.of(400), true, seen -> seen.stream().allMatch(s -> received(s).isEmpty()), "no body byte"),
                new Case("non-hex chunk size",
                        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
                        Set.of(400, -1), true, seen -> seen.stream().allMatch(s -> received(s).isEmpty()),
                        "no body byte"),
                // RFC 9112 5.2: reject with 400 or replace the fold by SP before forwarding; Undertow unfolds
                new Case("obs-fold (header line starting with a space)",
                        "GET /a HTTP/1.1\r\nHost: x\r\nX-A: one\r\n two\r\n\r\n", Set.of(200, 400), false,
                        nothingOr(seen -> seen.size() == 1 && seen.get(0).headers().get("x-a").size() == 1
                                && seen.get(0).headers().get("x-a").get(0).matches("one +two")
                                && !seen.get(0).headers().containsKey(" two")),
                        "nothing, or one X-A: one two (fold replaced by SP)"),
                refused("whitespace between header name and colon",
                        "GET /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n"),
                new Case("request line over 8 KiB", "GET /" + "a".repeat(9000) + " HTTP/1.1\r\nHost: x\r\n\r\n",
                        Set.of(414), true, nothing(), "nothing"),
                new Case("headers over maxHeaderBytes (8 KiB)",
                        "GET /a HTTP/1.1\r\nHost: x\r\nX-Big: " + "y".repeat(9000) + "\r\n\r\n",
                        Set.of(431), true, nothing(), "nothing"),
                new Case("180 small distinct headers over maxHeaderBytes", "GET /a HTTP/1.1\r\nHost: x\r\n"
                        + IntStream.range(0, 180).mapToObj(i -> "X-H" + i + ": 0123456789012345678901234567890123456789\r\n")
                        .collect(Collectors.joining()) + "\r\n", Set.of(431), true, nothing(), "nothing"),
                // Undertow's own parser limits repeats of one header name and answers a bare 400 first
                new Case("one header name repeated 150 times", "GET /a HTTP/1.1\r\nHost: x\r\n"
                        + "X-H: 0123456789\r\n".repeat(150) + "\r\n", Set.of(400, 431), true, nothing(), "nothing"),
                new Case("headers over Undertow's hard limit (300 KiB)",
                        "GET /a HTTP/1.1\r\nHost: x\r\nX-Big: " + "y".repeat(300 * 1024) + "\r\n\r\n",
                        Set.of(400, 431, -1), true, nothing(), "nothing"),
                refused("invalid method G@T", "G@T /a HTTP/1.1\r\nHost: x\r\n\r\n"),
                refused("method with a space inside", "G T /a HTTP/1.1\r\nHost: x\r\n\r\n"),
                new Case("absolute-form target naming another host",
                        "GET " + evilTarget + " HTTP/1.1\r\nHost: x\r\n\r\n", Set.of(200, 400), false,
                        nothingOr(exactlyOne("GET", "/steal", "")),
                        "nothing, or GET /steal on our backend; the other host never"),
                new Case("absolute-form target with a matching Host",
                        "GET " + evilTarget + " HTTP/1.1\r\nHost: 127.0.0.1:" + evil.port() + "\r\n\r\n", Set.of(200, 400),
                        false, nothingOr(exactlyOne("GET", "/steal", "")),
                        "nothing, or GET /steal on our backend; the other host never"),
                // the path goes on as sent: decoded, %0d%0a would end the backend's request line and start headers
                // (or a whole second request) of the client's choosing
                new Case("absolute-form target with an encoded CR LF",
                        "GET http://x/a%0d%0aX-Injected:%201 HTTP/1.1\r\nHost: x\r\n\r\n", Set.of(200, 400), false,
                        nothingOr(exactlyOne("GET", "/a%0d%0aX-Injected:%201", "")),
                        "nothing, or one GET with the path as sent"),
                new Case("absolute-form target smuggling a second request",
                        "GET http://x/a%20HTTP/1.1%0d%0aHost:%20a%0d%0a%0d%0aGET%20/secret%20HTTP/1.1%0d%0aX:%20y HTTP/1.1\r\n"
                                + "Host: x\r\n\r\n", Set.of(200, 400), false,
                        nothingOr(exactlyOne("GET", "/a%20HTTP/1.1%0d%0aHost:%20a%0d%0a%0d%0aGET%20/secret%20HTTP/1.1%0d%0aX:%20y", "")),
                        "nothing, or one GET with the path as sent"),
                // routed as written, a dot segment would pick a route the backend's resolved path does not belong to
                refused("dot-dot segment in the path", "GET /api/x/../admin/secret HTTP/1.1\r\nHost: x\r\n\r\n"),
                refused("encoded dot-dot segment in the path", "GET /api/x/%2e%2e/admin/secret HTTP/1.1\r\nHost: x\r\n\r\n"),
                refused("dot segment in the path", "GET /api/./admin HTTP/1.1\r\nHost: x\r\n\r\n"),
                refused("non-ASCII (UTF-8) byte in the path", "GET /caf\u00c3\u00a9 HTTP/1.1\r\nHost: x\r\n\r\n"),
                new Case("non-ASCII (obs-text) byte in a header value",
                        "GET /a HTTP/1.1\r\nHost: x\r\nX-Name: caf\u00c3\u00a9\r\n\r\n", Set.of(200, 400), false,
                        nothingOr(seen -> seen.size() == 1 && "caf\u00c3\u00a9".equals(seen.get(0).headers().get("x-name").get(0))),
                        "nothing, or the value byte for byte"),
                refused("non-ASCII byte in a header name", "GET /a HTTP/1.1\r\nHost: x\r\nX-N\u00e4me: v\r\n\r\n"),
                refused("NUL byte in the path", "GET /a\u0000b HTTP/1.1\r\nHost: x\r\n\r\n"),
                refused("NUL byte in a header value", "GET /a HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n"),
                refused("CR alone inside a header value", "GET /a HTTP/1.1\r\nHost: x\r\nX-A: a\rX-B: b\r\n\r\n"),
                new Case("HTTP/0.9 simple request", "GET /a\r\n\r\n", Set.of(400, -1), true, nothing(), "nothing"),
                // Undertow's parser reads any unknown HTTP/x.y as HTTP/1.1; the proxy then forwards an HTTP/1.1
                // request whose framing both sides agree on
                new Case("unknown protocol version HTTP/2.7", "GET /a HTTP/2.7\r\nHost: x\r\n\r\n", Set.of(200, 400, 505),
                        false, nothingOr(exactlyOne("GET", "/a", "")), "nothing, or one GET /a"),
                new Case("unknown protocol version HTTP/1.2", "GET /a HTTP/1.2\r\nHost: x\r\n\r\n", Set.of(200, 400, 505),
                        false, nothingOr(exactlyOne("GET", "/a", "")), "nothing, or one GET /a"),
                refused("HTTP/1.1 without Host", "GET /a HTTP/1.1\r\nX-A: b\r\n\r\n"),
                refused("two Host headers", "GET /a HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n"),
                refused("Host with a comma list", "GET /a HTTP/1.1\r\nHost: x, y\r\n\r\n"),
                refused("Host with userinfo", "GET /a HTTP/1.1\r\nHost: user@evil\r\n\r\n"),
                new Case("HTTP/1.0 without Host (allowed)", "GET /a HTTP/1.0\r\n\r\n", Set.of(200), true,
                        exactlyOne("GET", "/a", ""), "GET /a"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void eachHostileRequestIsRefusedOrForwardedUnambiguously(Case c) throws IOException {
        backend.seen.clear();
        evil.seen.clear();
        RawAnswer answer = harness.raw(c.bytes().getBytes(StandardCharsets.ISO_8859_1), 20_000);
        List<Seen> saw = List.copyOf(backend.seen);
        table.add("| " + c.name() + " | " + (answer.status() == -1 ? "no HTTP answer" : answer.firstLine())
                + " | " + (answer.closed() ? "yes" : "no") + " | " + describe(saw) + " |");
        assertThat(answer.status()).as("status for %s (got %s)", c.name(), answer.firstLine()).isIn(c.allowed());
        if (c.mustClose() || answer.status() >= 400) {
            assertThat(answer.closed()).as("connection closed after %s", c.name()).isTrue();
        }
        assertThat(c.backendSaw().test(saw)).as("backend may have seen %s, saw %s", c.backendRule(), saw).isTrue();
        assertThat(evil.seen).as("a host outside the pool is never contacted").isEmpty();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(harness.inFlight()).isZero());
    }

    private static String describe(List<Seen> saw) {
        if (saw.isEmpty()) {
            return "nothing";
        }
        StringBuilder b = new StringBuilder();
        for (Seen s : saw) {
            b.append(s.method()).append(' ').append(s.uri().length() > 40 ? s.uri().substring(0, 40) + "..." : s.uri());
            if (!s.body().isEmpty()) {
                b.append(" body=").append(s.body().length() > 20 ? s.body().length() + " bytes" : s.body());
            }
            b.append("; ");
        }
        return b.toString().replace("|", "\\|");
    }
}
