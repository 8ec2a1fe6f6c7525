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
 * Issue 24, on the wire: {@code close} anywhere in a Connection list ends the connection after the answer (RFC 9112
 * 9.6), and an Expect on a request without a body leaves it open.
 */
@Tag("reliability")
class ConnectionOptionsWireTest extends WireTestBase {
    static Stream<Arguments> closingConnectionHeaders() {
        return Stream.of(Arguments.of("Connection: keep-alive, close\r\n"), Arguments.of("Connection: close, x-a\r\n"),
                Arguments.of("Connection: keep-alive\r\nConnection: close\r\n"), Arguments.of("Connection: ,CLOSE\r\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("closingConnectionHeaders")
    void afterCloseInTheConnectionListNoFurtherRequestIsProcessed(String connection) throws IOException {
        RawAnswer r = send(G1 + connection + "\r\n" + G2);
        assertThat(r.statuses()).as("client got %s", r.answers()).containsExactly(200);
        assertThat(r.answers().get(0).head()).containsIgnoringCase("Connection: close");
        assertThat(r.closed()).isTrue();
        assertThat(backendSaw()).extracting(Message::target).containsExactly("/p1");
    }

    @Test
    void expectOnARequestWithoutABodyKeepsTheConnection() throws IOException {
        RawAnswer r = send(G1 + "Expect: 100-continue\r\n\r\n" + G2);
        assertThat(r.statuses()).as("client got %s", r.answers()).containsExactly(200, 200);
        assertThat(r.closed()).isFalse();
        assertThat(backendSaw()).extracting(Message::target).containsExactly("/p1", "/p2");
    }
}
