package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.undertow.util.HeaderMap;
import io.undertow.util.Headers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The backend's response head, parsed from bytes: what goes into the map, what is kept apart, what is refused. */
class ResponseHeadParserTest {
    private final ResponseHeadParser parser = new ResponseHeadParser();
    private final HeaderMap headers = new HeaderMap();
    private final Tokens.Values values = new Tokens.Values();

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A CSV row's escapes (backslash and r, n, t, 0 or x7f) as the bytes they stand for. */
    private static String unescape(String s) {
        return s.replace("\\r", "\r").replace("\\n", "\n").replace("\\t", "\t").replace("\\0", "\0")
                .replace("\\x7f", "\u007f");
    }

    private int parse(String head) throws IOException {
        byte[] b = bytes(head);
        return parser.parse(b, 0, b.length, headers, values);
    }

    @Test
    void aWholeHeadGivesItsStatusReasonAndHeadersAndEndsAtTheBlankLine() throws IOException {
        String head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nX-Custom:  a b \t\r\n\r\n";
        assertThat(parse(head + "hello")).isEqualTo(head.length());
        assertThat(parser.status()).isEqualTo(200);
        assertThat(parser.reason()).isEqualTo("OK");
        assertThat(headers.getFirst(Headers.CONTENT_TYPE)).isEqualTo("text/plain");
        assertThat(headers.get(Headers.CONTENT_TYPE).getHeaderName()).as("a well-known name is Undertow's own")
                .isSameAs(Headers.CONTENT_TYPE);
        assertThat(headers.getFirst("x-custom")).as("blanks around a value go").isEqualTo("a b");
        assertThat(headers.get("x-custom").getHeaderName().toString()).as("the backend's spelling").isEqualTo("X-Custom");
        assertThat(headers.size()).isEqualTo(3);
        assertThat(parser.contentLengthLines()).isEqualTo(1);
        assertThat(parser.plainContentLength()).isEqualTo(5);
        assertThat(parser.transferEncoding()).isNull();
        assertThat(parser.connectionField()).isNull();
        assertThat(parser.keepsAlive()).isTrue();
        assertThat(parser.interim()).isFalse();
    }

    @Test
    void aHeadFurtherOnInTheBufferWithBareLineFeedsIsParsed() throws IOException {
        byte[] b = bytes("junkHTTP/1.0 404 Not Found\nServer: a\n\nrest");
        assertThat(parser.parse(b, 4, b.length, headers, values)).isEqualTo(b.length - 4);
        assertThat(parser.status()).isEqualTo(404);
        assertThat(parser.reason()).isEqualTo("Not Found");
        assertThat(headers.getFirst(Headers.SERVER)).isEqualTo("a");
    }

    @Test
    void aStatusLineWithoutAReasonHasAnEmptyOne() throws IOException {
        assertThat(parse("HTTP/1.1 204\r\n\r\n")).isPositive();
        assertThat(parser.reason()).isEmpty();
        assertThat(parse("HTTP/1.1 204 \r\n\r\n")).isPositive();
        assertThat(parser.reason()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\nX-A: tab\there\r\n\r\n",
        "HTTP/1.1 103 Early Hints\nLink: </a.css>\n\n",
    })
    void everyCutShortOfTheBlankLineIsNotAllHereYet(String head) throws IOException {
        for (int n = 0; n < head.length(); n++) {
            byte[] b = bytes(head);
            assertThat(parser.parse(b, 0, n, headers, values)).as("the first %d bytes", n).isEqualTo(-1);
        }
        assertThat(parse(head)).isEqualTo(head.length());
    }

    @Test
    void aTryOnAHeadCutShortLeavesNothingBehindInTheMap() throws IOException {
        byte[] b = bytes("HTTP/1.1 200 OK\r\nServer: a\r\nX-Half: 1\r\n\r\n");
        assertThat(parser.parse(b, 0, 30, headers, values)).isEqualTo(-1);
        assertThat(parser.parse(b, 0, b.length, headers, values)).isEqualTo(b.length);
        assertThat(headers.get(Headers.SERVER)).hasSize(1);
        assertThat(headers.size()).isEqualTo(2);
    }

    @Test
    void hopByHopFieldsStayOutOfTheMapAndTheOnesTheConnectionHeaderNamesGoToo() throws IOException {
        parse("HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\nTransfer-Encoding: chunked\r\n"
                + "Connection: X-Debug\r\nX-Debug: 1\r\nUpgrade: h2c\r\nProxy-Connection: x\r\nTrailer: T\r\n"
                + "TE: trailers\r\nServer: a\r\n\r\n");
        assertThat(headers.size()).isEqualTo(1);
        assertThat(headers.getFirst(Headers.SERVER)).isEqualTo("a");
        assertThat(parser.connectionField()).isEqualTo("keep-alive, X-Debug");
        assertThat(parser.transferEncoding()).isEqualTo("chunked");
        assertThat(parser.transferEncodingLines()).isEqualTo(1);
    }

    @Test
    void aConnectionHeaderCannotNameTheFramingOrTheHostAway() throws IOException {
        parse("HTTP/1.1 200 OK\r\nConnection: Content-Length, Host\r\nContent-Length: 2\r\nHost: b\r\n\r\n");
        assertThat(headers.getFirst(Headers.CONTENT_LENGTH)).isEqualTo("2");
        assertThat(headers.getFirst(Headers.HOST)).isEqualTo("b");
    }

    @Test
    void a101KeepsItsFirstUpgradeAndIsNoInterimAnswer() throws IOException {
        parse("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nUpgrade: other\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: x\r\n\r\n");
        assertThat(headers.get(Headers.UPGRADE)).containsExactly("websocket");
        assertThat(headers.contains(Headers.CONNECTION)).isFalse();
        assertThat(headers.getFirst(Headers.SEC_WEB_SOCKET_ACCEPT)).isEqualTo("x");
        assertThat(parser.interim()).isFalse();
    }

    @Test
    void contentLengthIsReadAsTheHeadIsParsed() throws IOException {
        parse("HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n");
        assertThat(parser.plainContentLength()).isEqualTo(12);
        parse("HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\n");
        assertThat(parser.contentLengthLines()).isEqualTo(1);
        assertThat(parser.plainContentLength()).as("not a plain number").isEqualTo(-1);
        parse("HTTP/1.1 200 OK\r\nContent-Length: 7\r\nContent-Length: 8\r\n\r\n");
        assertThat(parser.contentLengthLines()).isEqualTo(2);
        assertThat(parser.plainContentLength()).as("the first line's").isEqualTo(7);
        assertThat(headers.get(Headers.CONTENT_LENGTH)).containsExactly("7", "8");
    }

    @Test
    void transferEncodingLinesAreJoinedAndCounted() throws IOException {
        parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n");
        assertThat(parser.transferEncoding()).isEqualTo("gzip, chunked");
        assertThat(parser.transferEncodingLines()).isEqualTo(2);
    }

    @ParameterizedTest
    @CsvSource({"100, true", "103, true", "199, true", "101, false", "200, false", "599, false"})
    void interimAnswersAreThe1xxButThe101(int status, boolean interim) throws IOException {
        parse("HTTP/1.1 " + status + " X\r\n\r\n");
        assertThat(parser.interim()).isEqualTo(interim);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "HTTP/1.1 200 OK\\r\\n\\r\\n| true",
        "HTTP/1.1 200 OK\\r\\nConnection: close\\r\\n\\r\\n| false",
        "HTTP/1.1 200 OK\\r\\nConnection: x-a, CLOSE \\r\\n\\r\\n| false",
        "HTTP/1.1 200 OK\\r\\nConnection: x-a\\r\\nConnection: close\\r\\n\\r\\n| false",
        "HTTP/1.1 200 OK\\r\\nConnection: closed\\r\\n\\r\\n| true",
        "HTTP/1.0 200 OK\\r\\n\\r\\n| false",
        "HTTP/1.0 200 OK\\r\\nConnection: Keep-Alive\\r\\n\\r\\n| true",
    })
    void http11KeepsTheConnectionUnlessItSaysCloseAndHttp10OnlyIfItSaysKeepAlive(String head, boolean keeps)
            throws IOException {
        parse(unescape(head));
        assertThat(parser.keepsAlive()).isEqualTo(keeps);
    }

    @Test
    void theHeadEndsAtTheFirstBlankLineWhicheverLineEndsItHas() {
        assertThat(ResponseHeadParser.headEnd(bytes("HTTP/1.1 200 OK\r\nA: b\r\n\r\nbody"), 0, 29)).isEqualTo(25);
        assertThat(ResponseHeadParser.headEnd(bytes("HTTP/1.1 200 OK\nA: b\n\nbody"), 0, 26)).isEqualTo(22);
        assertThat(ResponseHeadParser.headEnd(bytes("HTTP/1.1 200 OK\nA: b\n\r\nbody"), 0, 27)).isEqualTo(23);
        assertThat(ResponseHeadParser.headEnd(bytes("HTTP/1.1 200 OK\r\nA: b\r\n\r"), 0, 24)).isEqualTo(-1);
        assertThat(ResponseHeadParser.headEnd(bytes("\n\nHTTP/1.1 200 OK\n\n"), 2, 19)).isEqualTo(19);
    }

    @Test
    void aTabAndLatin1BytesAreFineInAValue() throws IOException {
        byte[] b = bytes("HTTP/1.1 200 OK\r\nX-A: a\tb caf\u00e9\r\n\r\n");
        assertThat(parser.parse(b, 0, b.length, headers, values)).isEqualTo(b.length);
        assertThat(headers.getFirst("X-A")).isEqualTo("a\tb caf\u00e9");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "HTTP/2.0 200 OK\\r\\n\\r\\n| invalid status line from backend: HTTP/2.0 200 OK",
        "http/1.1 200 OK\\r\\n\\r\\n| invalid status line from backend: http/1.1 200 OK",
        "ICY 200 OK\\r\\n\\r\\n| invalid status line from backend: ICY 200 OK",
        "HTTP/1.1 20 OK\\r\\n\\r\\n| invalid status line from backend: HTTP/1.1 20 OK",
        "HTTP/1.1 200OK\\r\\n\\r\\n| invalid status line from backend: HTTP/1.1 200OK",
        "HTTP/1.1  200 OK\\r\\n\\r\\n| invalid status line from backend: HTTP/1.1  200 OK",
        "HTTP/1.1 000 None\\r\\n\\r\\n| invalid status code from backend (got: 000)",
        "HTTP/1.1 099 None\\r\\n\\r\\n| invalid status code from backend (got: 099)",
        "HTTP/1.1 600 None\\r\\n\\r\\n| invalid status code from backend (got: 600)",
        "HTTP/1.1 999 None\\r\\n\\r\\n| invalid status code from backend (got: 999)",
        "HTTP/1.1 200 OK\\r\\nA: b\\r\\n folded\\r\\n\\r\\n| obsolete line folding in a backend response header",
        "HTTP/1.1 200 OK\\r\\nA: b\\r\\n\\tfolded\\r\\n\\r\\n| obsolete line folding in a backend response header",
        "HTTP/1.1 200 OK\\r\\nBad Name: b\\r\\n\\r\\n| invalid header name from backend: Bad Name: b",
        "HTTP/1.1 200 OK\\r\\nBad(Name): b\\r\\n\\r\\n| invalid header name from backend: Bad(Name): b",
        "HTTP/1.1 200 OK\\r\\n: b\\r\\n\\r\\n| invalid header line from backend: : b",
        "HTTP/1.1 200 OK\\r\\nNoColon\\r\\n\\r\\n| invalid header line from backend: NoColon",
        "HTTP/1.1 200 OK\\r\\nA: b\\0c\\r\\n\\r\\n| control character in a backend response header value: A",
        "HTTP/1.1 200 OK\\r\\nA: b\\rc\\r\\n\\r\\n| control character in a backend response header value: A",
        "HTTP/1.1 200 OK\\r\\nA: b\\x7f\\r\\n\\r\\n| control character in a backend response header value: A",
    })
    void whatAProxyMustNotPassOnIsRefused(String head, String message) {
        String raw = unescape(head);
        assertThatThrownBy(() -> parse(raw)).isInstanceOf(IOException.class).hasMessage(message);
    }

    @Test
    void aRefusedLineIsQuotedAtMost80Chars() {
        String name = "Bad Name" + "x".repeat(200);
        assertThatThrownBy(() -> parse("HTTP/1.1 200 OK\r\n" + name + ": b\r\n\r\n"))
                .hasMessage("invalid header name from backend: " + name.substring(0, 80));
    }
}
