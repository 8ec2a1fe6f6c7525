package dev.fulcrum.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.testkit.RawBackend.Message;
import dev.fulcrum.testkit.RawHttp.RawAnswer;
import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 24, on the wire: chunk-size lines and trailers outside RFC 9112 7.1's grammar are answered with 400 (not a
 * cut connection, and nothing of the body ends for the backend); valid framing the digit limits or list syntax
 * refused is served.
 */
@Tag("reliability")
class BodyFramingWireTest extends WireTestBase {
    static Stream<Arguments> badChunkLines() {
        return Stream.of(Arguments.of("5 \r\n"), Arguments.of("5\t\r\n"), Arguments.of("5;\r\n"),
                Arguments.of("5;a=\r\n"), Arguments.of("5; \r\n"));
    }

    @ParameterizedTest(name = "chunk size line {0}")
    @MethodSource("badChunkLines")
    void aChunkSizeLineOutsideTheGrammarIs400(String line) throws IOException {
        RawAnswer r = send(CHUNKED + line + "hello\r\n0\r\n\r\n");
        assertThat(r.statuses()).as("client got %s", r.answers()).containsExactly(400);
        assertThat(r.answers().get(0).body()).contains("invalid chunked body");
        assertThat(r.closed()).isTrue();
        // the head may have gone ahead of the body; no body byte, and no message that ends
        assertThat(backendSaw()).allSatisfy(m -> {
            assertThat(m.complete()).isFalse();
            assertThat(m.body()).isEmpty();
        });
    }

    static Stream<Arguments> badTrailers() {
        return Stream.of(Arguments.of("X-T : 1"), Arguments.of("X-T 1"), Arguments.of("GET /x HTTP/1.1"));
    }

    @ParameterizedTest(name = "trailer {0}")
    @MethodSource("badTrailers")
    void aTrailerThatIsNoFieldIsAnsweredWith400(String trailer) throws IOException {
        RawAnswer r = send(CHUNKED + "5\r\nhello\r\n0\r\n" + trailer + "\r\n\r\n");
        assertThat(r.statuses()).as("client got %s", r.answers()).containsExactly(400);
        assertThat(r.answers().get(0).body()).contains("invalid chunked body").contains("trailer");
        assertThat(r.closed()).isTrue();
        // the chunk went on as it came; the body never ends for the backend
        assertThat(backendSaw()).allSatisfy(m -> assertThat(m.complete()).isFalse());
    }

    @Test
    void leadingZerosDoNotCountAgainstTheDigitLimits() throws IOException {
        RawAnswer r = send(POST + "Content-Length: 0000000000000000000000005\r\n\r\nhello",
                CHUNKED + "0000000000000000000005\r\nhello\r\n0000\r\n\r\n");
        assertThat(r.statuses()).as("client got %s", r.answers()).containsExactly(200, 200);
        List<Message> saw = backendSaw();
        assertThat(saw).extracting(Message::body).containsExactly("hello", "hello");
        assertThat(saw.get(0).field("Content-Length")).as("the length the backend reads").isEqualTo("5");
    }

    @Test
    void anEmptyListMemberInTransferEncodingIsNoMember() throws IOException {
        RawAnswer r = send(POST + "Transfer-Encoding: , chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                POST + "Transfer-Encoding: chunked,\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
        assertThat(r.statuses()).as("client got %s", r.answers()).containsExactly(200, 200);
        assertThat(backendSaw()).extracting(Message::body).containsExactly("hello", "hello");
    }
}
