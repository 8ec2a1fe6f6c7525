package dev.fulcrum.reliability;

import static org.awaitility.Awaitility.await;

import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.testkit.RawBackend;
import dev.fulcrum.testkit.RawBackend.Message;
import dev.fulcrum.testkit.RawHttp;
import dev.fulcrum.testkit.RawHttp.RawAnswer;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.TestSettings;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * What issue 24's wire tests share: the real proxy on loopback in front of one {@link RawBackend} that answers each
 * request with its target ({@link RawBackend#sawTarget}), {@link RawHttp#exchange} to send it raw bytes, and the
 * pieces the cases are written with. {@code H} is
 * {@code Host: h.test}, {@code G1} the head of {@code GET /p1} without its blank line, {@code G2} a whole
 * {@code GET /p2}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class WireTestBase {
    static final String H = "Host: h.test\r\n";
    static final String G1 = "GET /p1 HTTP/1.1\r\n" + H;
    static final String G2 = "GET /p2 HTTP/1.1\r\n" + H + "\r\n";
    static final String POST = "POST /p1 HTTP/1.1\r\n" + H;
    static final String CHUNKED = POST + "Transfer-Encoding: chunked\r\n\r\n";
    /** Longer than any answer takes on loopback, shorter than the header timeout below. */
    static final int QUIET_MS = 700;
    static final long HEADER_MS = 4_000;

    RawBackend backend;
    RunningFulcrum harness;

    @BeforeAll
    void start() throws IOException {
        backend = RawBackend.start(RawBackend.sawTarget());
        harness = RunningFulcrum.bareProxy(TestSettings.underLoad(0, 3_000, 5_000, HEADER_MS))
                .engine(EngineSettings.DEFAULT).backend("b", backend.url()).start();
        harness.own(backend);
    }

    @AfterAll
    void stop() {
        harness.close();
    }

    @BeforeEach
    void forget() {
        backend.clear();
    }

    /** Writes {@code parts} on one connection, 150 ms apart, and reads what comes back. */
    RawAnswer send(String... parts) throws IOException {
        return RawHttp.exchange(harness.port(), QUIET_MS, 10_000, 150, parts);
    }

    /** What the backend read, once no request is in flight through the proxy. */
    List<Message> backendSaw() {
        await().atMost(Duration.ofSeconds(5)).until(() -> harness.inFlight() == 0);
        return List.copyOf(backend.messages);
    }
}
