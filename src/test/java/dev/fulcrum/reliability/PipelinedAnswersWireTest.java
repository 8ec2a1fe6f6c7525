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
 * Issue 24, on the wire: every answer a backend gave reaches a client that pipelines, in order, before the 400 for
 * what follows, and no answer waits on the next request's head.
 */
@Tag("reliability")
class PipelinedAnswersWireTest extends WireTestBase {
    static Stream<Arguments> garbageAfterAnAnsweredRequest() {
        return Stream.of(
                Arguments.of("an invalid method", G1 + "\r\n" + "G@T /p2 HTTP/1.1\r\n" + H + "\r\n"
                        + "GET /p3 HTTP/1.1\r\n" + H + "\r\n", "GET /p1 HTTP/1.1", ""),
                Arguments.of("a TLS ClientHello", G1 + "\r\n" + "\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1"
                        + "\u0003\u0003" + "r".repeat(32), "GET /p1 HTTP/1.1", ""),
                // not Transfer-Encoding: the POST has no body, and "5" starts the next message
                Arguments.of("Transfer_Encoding: chunked", POST + "Transfer_Encoding: chunked\r\n\r\n"
                        + "5\r\nhello\r\n0\r\n\r\n" + G2, "POST /p1 HTTP/1.1", ""),
                Arguments.of("TE: chunked", POST + "TE: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" + G2,
                        "POST /p1 HTTP/1.1", ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("garbageAfterAnAnsweredRequest")
    void theAnswerToARequestTheBackendRanArrivesBeforeThe400ForWhatFollows(String name, String bytes,
                                                                          String requestLine, String body)
            throws IOException {
        RawAnswer r = send(bytes);
        List<Message> saw = backendSaw();
        assertThat(saw).as("backend saw").extracting(Message::requestLine).containsExactly(requestLine);
        assertThat(saw.get(0).body()).isEqualTo(body);
        assertThat(r.statuses()).as("client got %s", r.answers()).containsExactly(200, 400);
        assertThat(r.answers().get(0).body()).isEqualTo("saw /p1");
        assertThat(r.closed()).isTrue();
        assertThat(backend.received.toString()).doesNotContain("hello").doesNotContain("/p2").doesNotContain("/p3");
    }

    @Test
    void theSameHoldsWhenTheGarbageComesOnItsOwnLater() throws IOException {
        RawAnswer r = send(G1 + "\r\n", "G@T /p2 HTTP/1.1\r\n" + H + "\r\n");
        assertThat(r.statuses()).containsExactly(200, 400);
        assertThat(backendSaw()).extracting(Message::target).containsExactly("/p1");
    }

    /** The answer goes out as soon as it is done, not when the next head completes (nor never, at its timeout). */
    @Test
    void anAnswerDoesNotWaitForTheNextRequestsHead() throws IOException {
        long start = System.nanoTime();
        RawAnswer r = send(G1 + "\r\n" + "GET /p2 HTTP/1.1\r\nHo");
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(r.statuses()).as("client got %s", r.answers()).containsExactly(200);
        assertThat(r.answers().get(0).body()).isEqualTo("saw /p1");
        assertThat(r.closed()).as("the connection is still waiting for the rest of the second head").isFalse();
        assertThat(ms).as("ms until the quiet after the answer").isLessThan(HEADER_MS);
        assertThat(backendSaw()).extracting(Message::target).containsExactly("/p1");
    }
}
