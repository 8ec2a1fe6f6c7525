package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.undertow.util.Headers;
import io.undertow.util.Methods;
import io.undertow.util.QueryParameterUtils;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The heads {@link FrontHead} takes, what it reads from them, and the query as {@link FrontRequest} reads it, against
 * Undertow's own reading of the same query.
 */
class FrontHeadTest {
    private static int read(FrontHead h, String head) {
        return h.read(ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1)), null);
    }

    @Test
    void aPlainHeadIsReadWithTheSharedNamesAndItsLengthIsTheHeadsAlone() {
        FrontHead h = new FrontHead();
        String head = "GET /a/b?x=1 HTTP/1.1\r\nHost: h.test\r\nX-Id: 7\r\n\r\n";
        assertThat(read(h, head + "GET /next")).isEqualTo(head.length());
        assertThat(h.method).isSameAs(Methods.GET);
        assertThat(h.path).isEqualTo("/a/b");
        assertThat(h.query).isEqualTo("x=1");
        assertThat(h.headers.get(Headers.HOST).getHeaderName()).isSameAs(Headers.HOST);
        assertThat(h.headers.getFirst("x-id")).isEqualTo("7");
        assertThat(h.close).isFalse();
        assertThat(read(h, "HEAD / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")).isPositive();
        assertThat(h.method).isSameAs(Methods.HEAD);
        assertThat(h.query).isEmpty();
        assertThat(h.close).isTrue();
        assertThat(h.lengthZero).isFalse();
        assertThat(read(h, "GET / HTTP/1.1\r\nContent-Length: 0\r\nHost: h\r\n\r\n")).isPositive();
        assertThat(h.lengthZero).isTrue();
    }

    @Test
    void anHttp10HeadKeepsItsConnectionOnlyWhenItAsks() {
        FrontHead h = new FrontHead();
        assertThat(read(h, "GET / HTTP/1.0\r\nHost: h\r\n\r\n")).isPositive();
        assertThat(h.http10).isTrue();
        assertThat(h.close).isTrue();
        assertThat(read(h, "GET / HTTP/1.0\r\nHost: h\r\nConnection: Keep-Alive\r\n\r\n")).isPositive();
        assertThat(h.close).isFalse();
        assertThat(read(h, "GET / HTTP/1.0\r\nHost: h\r\nConnection: close\r\n\r\n")).isPositive();
        assertThat(h.close).isTrue();
        assertThat(read(h, "GET / HTTP/1.1\r\nHost: h\r\n\r\n")).isPositive();
        assertThat(h.http10).isFalse();
        assertThat(h.close).isFalse();
    }

    @Test
    void everythingOutsideTheGrammarIsLeftToUndertow() {
        FrontHead h = new FrontHead();
        for (String head : List.of("GET / HTTP/1.1\r\nHost: h\r\n", "POST / HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET / HTTP/1.2\r\nHost: h\r\n\r\n", "GET / HTTP/1.0\r\n\r\n", "GET / HTTP/0.9\r\nHost: h\r\n\r\n",
                "GET /%41 HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET /a?b=c+d HTTP/1.1\r\nHost: h\r\n\r\n", "GET /a/./b HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET /.. HTTP/1.1\r\nHost: h\r\n\r\n", "GET /a;b HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\nx",
                "GET / HTTP/1.1\r\nHost: h\r\ntransfer-encoding: chunked\r\n\r\n",
                "GET / HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\n\r\n", "GET / HTTP/1.1\r\nX: 1\r\n\r\n",
                "GET / HTTP/1.1\r\nHost: h\r\nHost: h\r\n\r\n", "GET / HTTP/1.1\r\nHost: h:99999\r\n\r\n",
                "GET / HTTP/1.1\r\nHost: h\r\nCookie: a=1\r\nCookie: b=2\r\n\r\n",
                "GET / HTTP/1.1\r\nHost: h\r\nConnection: upgrade\r\n\r\n", "GET / HTTP/1.1\r\nHost : h\r\n\r\n",
                "GET  / HTTP/1.1\r\nHost: h\r\n\r\n", "get / HTTP/1.1\r\nHost: h\r\n\r\n")) {
            assertThat(read(h, head)).as(head).isEqualTo(FrontHead.NOT_MINE);
        }
    }

    @Test
    void aRepeatedPathAndHostAreTheSameStringsOnOneConnection() {
        FrontHead h = new FrontHead();
        Http1Front.Recent conn = new Http1Front.Recent();
        h.read(ByteBuffer.wrap("GET /p HTTP/1.1\r\nHost: h.test\r\n\r\n".getBytes(StandardCharsets.US_ASCII)), conn);
        String path = h.path;
        String host = h.headers.getFirst(Headers.HOST);
        h.read(ByteBuffer.wrap("GET /p HTTP/1.1\r\nHost: h.test\r\n\r\n".getBytes(StandardCharsets.US_ASCII)), conn);
        assertThat(h.path).isSameAs(path);
        assertThat(h.headers.getFirst(Headers.HOST)).isSameAs(host);
        h.read(ByteBuffer.wrap("GET /q HTTP/1.1\r\nHost: h.tesu\r\n\r\n".getBytes(StandardCharsets.US_ASCII)), conn);
        assertThat(h.path).isEqualTo("/q");
        assertThat(h.headers.getFirst(Headers.HOST)).isEqualTo("h.tesu");
    }

    @Test
    void theQueryIsReadAsUndertowReadsIt() {
        for (String query : List.of("", "x=1", "x=1&y=2", "x=1&x=3", "x", "x=", "x&y=2", "&x=1&", "xx=1&x=2",
                "x=a=b", "a:b=c@d&e=f/g?h", "x=1&&y", "=v&x=w")) {
            FrontHead h = new FrontHead();
            assertThat(read(h, "GET /p" + (query.isEmpty() ? "" : "?" + query) + " HTTP/1.1\r\nHost: h\r\n\r\n"))
                    .as(query).isPositive();
            FrontRequest r = new FrontRequest(null, h);
            Map<String, Deque<String>> undertow = QueryParameterUtils.parseQueryString(query, "UTF-8");
            for (String name : List.of("x", "y", "xx", "a:b", "e", "h", "", "missing")) {
                Deque<String> v = undertow.get(name);
                assertThat(r.queryParam(name)).as("%s in %s", name, query)
                        .isEqualTo(v == null || v.isEmpty() ? null : v.getFirst());
            }
        }
    }
}
