package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.undertow.util.HeaderMap;
import io.undertow.util.Headers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How an answer's body ends and whether its connection serves again, from its head alone (RFC 9112 6.3). */
class ResponseFramingTest {
    private final ResponseHeadParser head = new ResponseHeadParser();
    private final HeaderMap headers = new HeaderMap();

    /** The framing of the answer with this status line and these header lines, to a HEAD request when so said. */
    private long framing(String statusLine, boolean headRequest, String... lines) throws IOException {
        byte[] b = (statusLine + "\r\n" + String.join("", lines) + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        assertThat(head.parse(b, 0, b.length, headers, new Tokens.Values())).isEqualTo(b.length);
        return ResponseFraming.of(head, headRequest, headers);
    }

    /** {@link #framing(String, boolean, String...)} of an HTTP/1.1 answer with this status to a GET. */
    private long framing(String status, String... lines) throws IOException {
        return framing("HTTP/1.1 " + status, false, lines);
    }

    private boolean reused(long framing) {
        return ResponseFraming.allowsReuse(head, framing);
    }

    @Test
    void answersWithoutABodyHaveNoneWhateverTheirHeadersSay() throws IOException {
        assertThat(framing("HTTP/1.1 200 OK", true, "Content-Length: 5\r\n")).as("to HEAD").isZero();
        assertThat(reused(0)).isTrue();
        assertThat(framing("204 No Content", "Content-Length: 5\r\n")).isZero();
        assertThat(framing("304 Not Modified", "Transfer-Encoding: gzip\r\n")).as("not refused: no body").isZero();
        assertThat(framing("101 Switching Protocols", "Upgrade: websocket\r\n")).isZero();
        assertThat(reused(0)).as("a 101's connection becomes the tunnel").isFalse();
    }

    @Test
    void chunkedFramesTheBodyAndTheConnectionServesAgain() throws IOException {
        long f = framing("200 OK", "Transfer-Encoding:  Chunked \r\n");
        assertThat(f).isEqualTo(ResponseFraming.CHUNKED);
        assertThat(reused(f)).isTrue();
    }

    @Test
    void transferEncodingOverridesContentLengthWhichIsTakenOutAndTheConnectionIsNotTrustedAgain() throws IOException {
        long f = framing("200 OK", "Transfer-Encoding: chunked\r\n", "Content-Length: 3\r\n");
        assertThat(f).isEqualTo(ResponseFraming.CHUNKED);
        assertThat(headers.contains(Headers.CONTENT_LENGTH)).isFalse();
        assertThat(reused(f)).isFalse();
    }

    @Test
    void aStatedLengthFramesTheBodyHoweverOftenItIsStatedAlike() throws IOException {
        assertThat(framing("200 OK", "Content-Length: 5\r\n")).isEqualTo(5);
        assertThat(reused(5)).isTrue();
        assertThat(framing("200 OK", "Content-Length: 0\r\n")).isZero();
        assertThat(framing("200 OK", "Content-Length: 5, 5\r\n")).isEqualTo(5);
        assertThat(framing("200 OK", "Content-Length: 5\r\n", "Content-Length: 5\r\n")).isEqualTo(5);
    }

    @Test
    void withNeitherTheBodyRunsUntilTheBackendClosesAndTheConnectionIsNotReused() throws IOException {
        long f = framing("200 OK", "Server: a\r\n");
        assertThat(f).isEqualTo(ResponseFraming.UNTIL_CLOSE);
        assertThat(reused(f)).isFalse();
    }

    @Test
    void aBackendThatClosesOrSpeaksHttp10WithoutKeepAliveIsNotReused() throws IOException {
        assertThat(reused(framing("200 OK", "Connection: close\r\n", "Content-Length: 2\r\n"))).isFalse();
        assertThat(reused(framing("HTTP/1.0 200 OK", false, "Content-Length: 2\r\n"))).isFalse();
        assertThat(reused(framing("HTTP/1.0 200 OK", false, "Connection: keep-alive\r\n", "Content-Length: 2\r\n")))
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "gzip, chunked", "chunked, gzip", "identity"})
    void aCodingOtherThanChunkedAloneIsRefused(String te) {
        assertThatThrownBy(() -> framing("200 OK", "Transfer-Encoding: " + te + "\r\n"))
                .isInstanceOf(IOException.class).hasMessage("unsupported Transfer-Encoding from backend (got: " + te + ")");
    }

    @Test
    void chunkedStatedOnTwoLinesIsRefused() {
        assertThatThrownBy(() -> framing("200 OK", "Transfer-Encoding: chunked\r\n", "Transfer-Encoding: chunked\r\n"))
                .hasMessage("unsupported Transfer-Encoding from backend (got: chunked, chunked)");
    }

    @Test
    void lengthsThatDisagreeOrAreNoNumberAreRefused() {
        assertThatThrownBy(() -> framing("200 OK", "Content-Length: 5, 6\r\n"))
                .hasMessage("invalid Content-Length from backend (got: 5, 6)");
        assertThatThrownBy(() -> framing("200 OK", "Content-Length: 5\r\n", "Content-Length: 6\r\n"))
                .hasMessage("invalid Content-Length from backend (got: 5, 6)");
        assertThatThrownBy(() -> framing("200 OK", "Content-Length: abc\r\n"))
                .hasMessage("invalid Content-Length from backend (got: abc)");
        assertThatThrownBy(() -> framing("200 OK", "Content-Length: -1\r\n"))
                .hasMessage("invalid Content-Length from backend (got: -1)");
    }
}
