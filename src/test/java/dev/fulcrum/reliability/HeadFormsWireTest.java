package dev.fulcrum.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.testkit.RawBackend.Message;
import dev.fulcrum.testkit.RawHttp.RawAnswer;
import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 24, on the wire: request heads the proxy's parser would take in silence. A folded field line (obs-fold) is
 * refused with 400 wherever it is, an HTTP major version other than 1 gets 505, and empty lines before a request
 * line are ignored (RFC 9112 5.2, 2.3, 2.2).
 */
@Tag("reliability")
class HeadFormsWireTest extends WireTestBase {
    static Stream<Arguments> folded() {
        return Stream.of(
                folded("a space fold", G1 + "X-A: 1\r\n 2\r\n\r\n"),
                folded("a tab fold", G1 + "X-A: 1\r\n\t2\r\n\r\n"),
                folded("a line of spaces", G1 + "X-A: 1\r\n   \r\n\r\n"),
                folded("a fold that would carry a Content-Length", POST + "X-A: 1\r\n Content-Length: 5\r\n\r\nhello" + G2),
                folded("a folded Content-Length", POST + "Content-Length:\r\n 5\r\n\r\nhello" + G2),
                folded("a folded Transfer-Encoding",
                        POST + "Transfer-Encoding:\r\n chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" + G2),
                folded("a fold split across writes", G1 + "X-A: 1\r\n", " 2\r\n\r\n"),
                folded("leading empty lines, then a fold", "\r\n\r\n" + G1 + "X-A: 1\r\n 2\r\n\r\n"));
    }

    private static Arguments folded(String name, String... parts) {
        return Arguments.of(name, parts);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("folded")
    void aFoldedHeadIsRefusedWith400SayingFoldingIsNotAccepted(String name, String[] parts) throws IOException {
        RawAnswer r = send(parts);
        assertThat(r.statuses()).as("client got %s", r.answers()).containsExactly(400);
        assertThat(r.answers().get(0).body()).contains("folding is not accepted");
        assertThat(r.closed()).isTrue();
        assertThat(backendSaw()).as("backend saw").isEmpty();
        assertThat(backend.received.toString()).isEmpty();
    }

    /** A pipelined head is followed from the bytes that came with the one before it. */
    @Test
    void aFoldInAPipelinedRequestIsRefusedAfterTheAnswerToTheOneBefore() throws IOException {
        RawAnswer r = send(G1 + "\r\n" + "GET /p2 HTTP/1.1\r\n" + H + "X-A: 1\r\n 2\r\n\r\n" + G2);
        assertThat(r.statuses()).as("client got %s", r.answers()).containsExactly(200, 400);
        assertThat(r.answers().get(1).body()).contains("folding is not accepted");
        assertThat(backendSaw()).extracting(Message::target).containsExactly("/p1");
    }

    /** ... and so is the head of the next request on a kept-alive connection, and one after a body. */
    @Test
    void aFoldInALaterRequestOnTheConnectionIsRefused() throws IOException {
        RawAnswer r = send(G1 + "\r\n", POST + "Content-Length: 5\r\n\r\nhello",
                "GET /p2 HTTP/1.1\r\n" + H + "X-A: 1\r\n\t2\r\n\r\n");
        assertThat(r.statuses()).as("client got %s", r.answers()).containsExactly(200, 200, 400);
        assertThat(backendSaw()).extracting(Message::requestLine).containsExactly("GET /p1 HTTP/1.1", "POST /p1 HTTP/1.1");
    }

    /** A space or a line break inside a body is no fold: only heads are looked at. */
    @Test
    void bodiesThatLookLikeFoldsPassWhole() throws IOException {
        String body = "a\r\n b\r\n\tc\r\n\r\n d";
        RawAnswer r = send(POST + "Content-Length: " + body.length() + "\r\n\r\n" + body + G2,
                CHUNKED + Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n");
        assertThat(r.statuses()).as("client got %s", r.answers()).containsExactly(200, 200, 200);
        assertThat(backendSaw()).extracting(Message::body).containsExactly(body, "", body);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unsupportedVersions")
    void anHttpVersionOtherThanOneIs505(String version) throws IOException {
        RawAnswer r = send("GET /p1 " + version + "\r\n" + H + "\r\n");
        assertThat(r.statuses()).as("client got %s", r.answers()).containsExactly(505);
        assertThat(r.answers().get(0).body()).contains(version);
        assertThat(r.closed()).isTrue();
        assertThat(backendSaw()).isEmpty();
    }

    static Stream<String> unsupportedVersions() {
        return Stream.of("HTTP/3.0", "HTTP/2.7", "HTTP/9.9");
    }

    /** RFC 9112 2.3: a higher minor version is read as the highest this side speaks. */
    @Test
    void aHigherMinorVersionIsServedAsHttp11() throws IOException {
        RawAnswer r = send("GET /p1 HTTP/1.2\r\n" + H + "\r\n");
        assertThat(r.statuses()).containsExactly(200);
        assertThat(backendSaw()).extracting(Message::requestLine).containsExactly("GET /p1 HTTP/1.1");
    }

    @Test
    void emptyLinesBeforeARequestLineAreIgnored() throws IOException {
        RawAnswer r = send("\r\n" + G1 + "\r\n" + "\r\n\r\n" + G2, "\r\n", "\n" + G1 + "\r\n");
        assertThat(r.statuses()).as("client got %s", r.answers()).containsExactly(200, 200, 200);
        assertThat(backendSaw()).extracting(Message::target).containsExactly("/p1", "/p2", "/p1");
    }
}
