package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.testkit.RawBackend;
import dev.fulcrum.testkit.RawHttp;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.TestSettings;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Fulcrum's own HTTP/1.1 server side ({@code proxy.http1Server: "fulcrum"}, {@link Http1Front}) against Undertow's,
 * side by side: the same bytes from a client go to a proxy on each, in front of backends that answer alike by path,
 * and the client must get the same bytes back (the Date field's value aside), the connection must end the same way,
 * and the backend must get the same request (its own port in Host aside). The requests cover what the front takes
 * itself and what it must hand to Undertow, before, between and after requests of its own on one connection.
 */
class Http1FrontTest {
    private RawBackend undertowsBackend;
    private RawBackend frontsBackend;
    private RunningFulcrum undertow;
    private RunningFulcrum front;

    @BeforeEach
    void start() throws Exception {
        undertowsBackend = RawBackend.scripted(Http1FrontTest::answer);
        frontsBackend = RawBackend.scripted(Http1FrontTest::answer);
        undertow = RunningFulcrum.bareProxy(TestSettings.proxy().readMs(2_000).http1Front(false).build())
                .backend("s", undertowsBackend).start();
        front = RunningFulcrum.bareProxy(TestSettings.proxy().readMs(2_000).http1Front(true).build())
                .backend("s", frontsBackend).start();
    }

    @AfterEach
    void stop() {
        if (undertow != null) {
            undertow.close();
        }
        if (front != null) {
            front.close();
        }
    }

    /** Answers by the request's target, the same for both proxies. */
    private static List<String> answer(String request) {
        String target = request.split(" ", 3)[1];
        if (target.startsWith("/chunked")) {
            return List.of("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n5\r\nhello\r\n",
                    "6\r\n world\r\n", "0\r\n\r\n");
        }
        if (target.startsWith("/hang-up")) {
            return List.of(RawBackend.RESET);
        }
        if (target.startsWith("/too-slow")) {
            return List.of("<pause 3000>", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        }
        if (target.startsWith("/empty-chunked")) {
            return List.of("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        }
        if (target.startsWith("/chunked-head")) {
            return List.of("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        }
        if (target.startsWith("/until-close")) {
            return List.of("HTTP/1.0 200 OK\r\nX-A: 1\r\n\r\nuntil ", "close", RawBackend.CLOSE);
        }
        if (target.startsWith("/204")) {
            return List.of("HTTP/1.1 204 No Content\r\nX-A: 1\r\n\r\n");
        }
        if (target.startsWith("/304")) {
            return List.of("HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n");
        }
        if (target.startsWith("/500")) {
            return List.of("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n\r\noops");
        }
        if (target.startsWith("/dated")) {
            return List.of("HTTP/1.1 200 OK\r\nDate: Mon, 07 Dec 2026 00:00:00 GMT\r\nContent-Length: 2\r\n\r\nok");
        }
        if (target.startsWith("/odd-reason")) {
            return List.of("HTTP/1.1 200 Fine Thanks\r\nContent-Length: 2\r\n\r\nok");
        }
        if (target.startsWith("/big")) {
            return List.of("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n"
                    + "x".repeat(100_000));
        }
        if (target.startsWith("/slow-chunks")) {
            return List.of("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n", "<pause 50>",
                    "3\r\ndef\r\n", "<pause 50>", "0\r\n\r\n");
        }
        String body = "saw " + target;
        return List.of("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nServer: raw\r\nContent-Length: " + body.length()
                + "\r\n\r\n" + body);
    }

    private static final String H = "Host: h.test\r\n";

    /**
     * Each case: the client's writes on one connection, whether the front should have read a request itself, and how
     * long a silence ends the reading of the answers.
     */
    private record Case(String name, boolean frontReads, int quietMs, String... writes) {
        Case(String name, boolean frontReads, String... writes) {
            this(name, frontReads, 400, writes);
        }
    }

    private static final List<Case> CASES = List.of(
            new Case("a GET", true, "GET / HTTP/1.1\r\n" + H + "\r\n"),
            new Case("a HEAD", true, "HEAD /x HTTP/1.1\r\n" + H + "\r\n"),
            new Case("a query", true, "GET /a/b?x=1&y=two&x=3 HTTP/1.1\r\n" + H + "\r\n"),
            new Case("lower-case names and many fields", true, "GET /f HTTP/1.1\r\nhost: h.test\r\nuser-agent: t/1\r\n"
                    + "Accept: */*\r\nX-Forwarded-For: 10.0.0.1, 10.0.0.2\r\nX-Forwarded-Host: o.test\r\n"
                    + "Cookie: a=1; b=2\r\nX-Tab: a\tb\r\nX-Many:  spaced\r\nAccept-Language: pl\r\n\r\n"),
            new Case("a value with trailing whitespace", false, "GET / HTTP/1.1\r\n" + H + "X-T: t \r\n\r\n"),
            new Case("Connection: close", true, "GET /c HTTP/1.1\r\n" + H + "Connection: close\r\n\r\n"),
            new Case("Connection: keep-alive", true, "GET /k HTTP/1.1\r\n" + H + "Connection: keep-alive\r\n\r\n"),
            new Case("two pipelined", true, "GET /p1 HTTP/1.1\r\n" + H + "\r\nGET /p2 HTTP/1.1\r\n" + H + "\r\n"),
            new Case("two in turn", true, "GET /t1 HTTP/1.1\r\n" + H + "\r\n", "GET /t2 HTTP/1.1\r\n" + H + "\r\n"),
            new Case("a chunked answer", true, "GET /chunked HTTP/1.1\r\n" + H + "\r\n"),
            new Case("an empty chunked answer", true, "GET /empty-chunked HTTP/1.1\r\n" + H + "\r\n"),
            new Case("a HEAD of a chunked answer", true, "HEAD /chunked-head HTTP/1.1\r\n" + H + "\r\n"),
            new Case("chunks that come slowly", true, "GET /slow-chunks HTTP/1.1\r\n" + H + "\r\n"),
            new Case("an answer that ends with its connection", true, "GET /until-close HTTP/1.1\r\n" + H + "\r\n"),
            new Case("a 204 and a 304", true, "GET /204 HTTP/1.1\r\n" + H + "\r\n",
                    "GET /304 HTTP/1.1\r\n" + H + "If-None-Match: \"x\"\r\n\r\n"),
            new Case("a 500 passed on", true, "GET /500 HTTP/1.1\r\n" + H + "\r\n"),
            new Case("a backend that hangs up: the proxy's 502", true, "GET /hang-up HTTP/1.1\r\n" + H + "\r\n"),
            new Case("a backend slower than readMs: the proxy's 504", true, 3_000,
                    "GET /too-slow HTTP/1.1\r\n" + H + "\r\n"),
            new Case("the backend's Date and reason", true, "GET /dated HTTP/1.1\r\n" + H + "\r\n",
                    "GET /odd-reason HTTP/1.1\r\n" + H + "\r\n"),
            new Case("a large answer", true, "GET /big HTTP/1.1\r\n" + H + "\r\n"),
            new Case("a HEAD of a large answer", true, "HEAD /big HTTP/1.1\r\n" + H + "\r\n"),
            new Case("a dot segment: 400", false, "GET /a/../b HTTP/1.1\r\n" + H + "\r\n"),
            new Case("a POST after a GET", true, "GET /g HTTP/1.1\r\n" + H + "\r\n",
                    "POST /p HTTP/1.1\r\n" + H + "Content-Length: 5\r\n\r\nhello",
                    "GET /after HTTP/1.1\r\n" + H + "\r\n"),
            new Case("a chunked POST", false, "POST /p HTTP/1.1\r\n" + H + "Transfer-Encoding: chunked\r\n\r\n"
                    + "3\r\nabc\r\n0\r\n\r\n"),
            new Case("a Host Undertow refuses", false, "GET / HTTP/1.1\r\nHost: a:0\r\n\r\n"),
            new Case("no Host", false, "GET / HTTP/1.1\r\n\r\n"),
            new Case("two Hosts", false, "GET / HTTP/1.1\r\n" + H + H + "\r\n"),
            new Case("HTTP/1.0", true, "GET /old HTTP/1.0\r\n" + H + "\r\n"),
            new Case("HTTP/1.0 kept alive", true, "GET /old HTTP/1.0\r\n" + H + "Connection: keep-alive\r\n\r\n",
                    "GET /old2 HTTP/1.0\r\n" + H + "Connection: keep-alive\r\n\r\n"),
            new Case("HTTP/1.0 kept alive, then without", true, "GET /a HTTP/1.0\r\n" + H
                    + "Connection: keep-alive\r\n\r\n", "GET /b HTTP/1.0\r\n" + H + "\r\n", "GET /c HTTP/1.1\r\n" + H
                    + "\r\n"),
            new Case("HTTP/1.0 asking to close", true, "GET /old HTTP/1.0\r\n" + H + "Connection: close\r\n\r\n"),
            new Case("HTTP/1.0, a chunked answer", true, "GET /chunked HTTP/1.0\r\n" + H
                    + "Connection: keep-alive\r\n\r\n"),
            new Case("HTTP/1.0, an answer to the close", true, "GET /until-close HTTP/1.0\r\n" + H
                    + "Connection: keep-alive\r\n\r\n"),
            new Case("HTTP/1.0 HEAD, a chunked answer", true, "HEAD /chunked-head HTTP/1.0\r\n" + H
                    + "Connection: keep-alive\r\n\r\n"),
            new Case("HTTP/1.0, an empty chunked answer", true, "GET /empty-chunked HTTP/1.0\r\n" + H
                    + "Connection: keep-alive\r\n\r\n"),
            new Case("HTTP/1.0, a 204 and a 304", true, "GET /204 HTTP/1.0\r\n" + H + "Connection: keep-alive\r\n\r\n",
                    "GET /304 HTTP/1.0\r\n" + H + "Connection: keep-alive\r\n\r\n"),
            new Case("HTTP/1.0 without Host", false, "GET /old HTTP/1.0\r\n\r\n"),
            new Case("HTTP/1.0, then HTTP/1.1 kept alive", true, "GET /a HTTP/1.0\r\n" + H
                    + "Connection: keep-alive\r\n\r\n", "GET /b HTTP/1.1\r\n" + H + "\r\n"),
            new Case("a folded field", false, "GET / HTTP/1.1\r\n" + H + "X-A: a\r\n b\r\n\r\n"),
            new Case("a bare LF", false, "GET / HTTP/1.1\n" + H + "\n"),
            new Case("percent-encoding", false, "GET /a%20b/%2e%2e/c?q=%41+b HTTP/1.1\r\n" + H + "\r\n"),
            new Case("a path parameter", false, "GET /a;v=1/b HTTP/1.1\r\n" + H + "\r\n"),
            new Case("two slashes", false, "GET //x HTTP/1.1\r\n" + H + "\r\n"),
            new Case("absolute form", false, "GET http://h.test/abs HTTP/1.1\r\n" + H + "\r\n"),
            new Case("asterisk form", false, "OPTIONS * HTTP/1.1\r\n" + H + "\r\n"),
            new Case("an empty field value", false, "GET / HTTP/1.1\r\n" + H + "X-E:\r\n\r\n"),
            new Case("a non-ASCII value", false, "GET / HTTP/1.1\r\n" + H + "X-N: caf\u00e9\r\n\r\n"),
            new Case("Expect", false, "GET / HTTP/1.1\r\n" + H + "Expect: 100-continue\r\n\r\n"),
            new Case("Connection: keep-alive, close", false, "GET / HTTP/1.1\r\n" + H
                    + "Connection: keep-alive, close\r\n\r\n"),
            new Case("an HTTP version above 1", false, "GET / HTTP/2.1\r\n" + H + "\r\n"),
            new Case("a line of empty lines first", false, "\r\nGET /e HTTP/1.1\r\n" + H + "\r\n"),
            new Case("a head in two writes", false, "GET /split HTTP/1.1\r\nHo", "st: h.test\r\n\r\n"),
            new Case("a GET with a Content-Length", false, "GET /cl HTTP/1.1\r\n" + H + "Content-Length: 2\r\n\r\nhi"),
            new Case("Content-Length: 0, as Java's client sends it", true, "GET /zero HTTP/1.1\r\nContent-Length: 0\r\n"
                    + H + "User-Agent: Java-http-client/17\r\n\r\n", "HEAD /zero HTTP/1.1\r\n" + H
                    + "content-length: 0\r\n\r\n"),
            new Case("Content-Length: 00", false, "GET /zeros HTTP/1.1\r\n" + H + "Content-Length: 00\r\n\r\n"),
            new Case("two Content-Length: 0", false, "GET /zeros HTTP/1.1\r\n" + H
                    + "Content-Length: 0\r\nContent-Length: 0\r\n\r\n"),
            new Case("a WebSocket upgrade asked of a plain backend", false, "GET /ws HTTP/1.1\r\n" + H
                    + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n\r\n"),
            new Case("garbage", false, "\u0001\u0002 nonsense\r\n\r\n"));

    @Test
    void everyRequestGetsTheSameAnswerAndTheBackendTheSameRequestFromEitherServerSide() throws Exception {
        List<String> differences = new ArrayList<>();
        for (Case c : CASES) {
            long before = front.proxy().http1FrontRequests();
            int fromU = undertowsBackend.requests.size();
            int fromF = frontsBackend.requests.size();
            RawHttp.RawAnswer u = RawHttp.exchange(undertow.port(), c.quietMs(), 5_000, 150, c.writes());
            RawHttp.RawAnswer f = RawHttp.exchange(front.port(), c.quietMs(), 5_000, 150, c.writes());
            String au = normalised(u.text());
            String af = normalised(f.text());
            if (!au.equals(af) || u.closed() != f.closed() || au.isEmpty()) {
                differences.add(c.name() + ":\n  undertow (closed " + u.closed() + "): " + au.replace("\r\n", "|")
                        + "\n  front    (closed " + f.closed() + "): " + af.replace("\r\n", "|"));
            }
            List<String> ru = hosts(undertowsBackend.requests.subList(fromU, undertowsBackend.requests.size()));
            List<String> rf = hosts(frontsBackend.requests.subList(fromF, frontsBackend.requests.size()));
            if (!ru.equals(rf)) {
                differences.add(c.name() + ", the backend's requests:\n  undertow: " + ru + "\n  front:    " + rf);
            }
            boolean read = front.proxy().http1FrontRequests() > before;
            if (read != c.frontReads()) {
                differences.add(c.name() + ": the front " + (read ? "read" : "did not read") + " a request itself");
            }
        }
        assertThat(differences).isEmpty();
    }

    @Test
    void aStickyCookieIsSetAndReadAlikeByEitherServerSide() throws Exception {
        byte[] secret = new byte[32];
        try (RunningFulcrum u = RunningFulcrum.bareProxy(TestSettings.proxy().sticky(secret).http1Front(false).build())
                .backend("s", undertowsBackend).start();
             RunningFulcrum f = RunningFulcrum.bareProxy(TestSettings.proxy().sticky(secret).http1Front(true).build())
                .backend("s", frontsBackend).start()) {
            String first = "GET /sticky HTTP/1.1\r\n" + H + "\r\n";
            String au = normalised(RawHttp.exchange(u.port(), 400, 5_000, 0, first).text());
            String af = normalised(RawHttp.exchange(f.port(), 400, 5_000, 0, first).text());
            String token = af.replaceAll("(?s).*Set-Cookie: FULCRUM_STICKY=([^;]+);.*", "$1");
            assertThat(token).matches("[A-Za-z0-9_-]{22}");
            assertThat(af).isEqualTo(au).startsWith("HTTP/1.1 200").contains("\r\nSet-Cookie: FULCRUM_STICKY=" + token
                    + "; Path=/; HttpOnly; Max-Age=3600; Expires=(then); SameSite=Lax\r\n");
            // back with its cookie: no Set-Cookie again, on either side
            String again = "GET /sticky HTTP/1.1\r\n" + H + "Cookie: a=1; FULCRUM_STICKY=" + token + "\r\n\r\n";
            String bu = normalised(RawHttp.exchange(u.port(), 400, 5_000, 0, again).text());
            String bf = normalised(RawHttp.exchange(f.port(), 400, 5_000, 0, again).text());
            assertThat(bf).isEqualTo(bu).startsWith("HTTP/1.1 200").doesNotContain("Set-Cookie");
            assertThat(f.proxy().http1FrontRequests()).as("both of the front's requests").isEqualTo(2);
            assertThat(u.proxy().http1FrontRequests()).isZero();
        }
    }

    /** The Date field's value and a cookie's Expires, which move with the clock. */
    private static String normalised(String answer) {
        return answer.replaceAll("(?im)^(date: )[^\r\n]*", "$1(now)").replaceAll("(; Expires=)[^;\r\n]*", "$1(then)");
    }

    /**
     * The requests as the backend got them, its own port in Host aside, and a request sent again at once counted once:
     * whether a request that met a hang-up goes out again on a new connection depends on whether the one it met was an
     * idle connection of the pool ({@link RetryPolicy#mayRetryOnFreshConnection}), which is the I/O thread's that took
     * the client's connection, not the server side's.
     */
    private static List<String> hosts(List<String> requests) {
        List<String> out = new ArrayList<>();
        for (String r : requests) {
            String request = r.replaceAll("127\\.0\\.0\\.1:\\d+", "127.0.0.1:PORT");
            if (out.isEmpty() || !out.get(out.size() - 1).equals(request)) {
                out.add(request);
            }
        }
        return out;
    }
}
