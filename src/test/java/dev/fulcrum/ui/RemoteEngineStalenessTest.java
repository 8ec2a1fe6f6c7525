package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.fulcrum.time.ManualClock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.scene.control.Label;
import org.controlsfx.control.StatusBar;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * A window attached to a remote engine that stalls (SIGSTOP) or goes away: it says so within seconds instead of
 * showing the last figures as live. The seconds pass on the window's clock, a
 * {@link ManualClock} the tests move: nothing here waits for time to pass.
 */
@Timeout(60)
class RemoteEngineStalenessTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private static final String STATE = "{\"proxy\":\"http://127.0.0.1:1\",\"strategy\":{\"type\":\"round-robin\"},"
            + "\"pools\":{\"default\":{\"strategy\":{\"type\":\"round-robin\"},\"panic\":false,\"inFlight\":0}},"
            + "\"routes\":[],\"backends\":[{\"id\":\"a\",\"pool\":\"default\",\"url\":\"http://127.0.0.1:2\","
            + "\"weight\":1,\"effectiveWeight\":1.0,\"state\":\"UP\",\"health\":\"UP\",\"breaker\":{\"state\":\"CLOSED\"},"
            + "\"activeRequests\":0,\"totalRequests\":100,\"failures\":0,\"rps\":12.5,\"errorRate\":0.0,"
            + "\"latencyP50Ms\":1.0,\"latencyP99Ms\":2.0}]}";

    private final ManualClock clock = new ManualClock();
    private HttpServer server;
    private volatile boolean stalled;
    /** The window's samples (state, demo faults) that came in while stalled and hang. */
    private final AtomicInteger hungSamples = new AtomicInteger();
    private final CountDownLatch release = new CountDownLatch(1);

    /** Lets the stand-in's blocked answers go, before the window and then the stand-in are closed. */
    @AfterEach
    void release() {
        release.countDown();
    }

    /** A stand-in admin API: answers /api/state, /api/demo and /api/events until {@link #stalled} (a SIGSTOPped engine). */
    private String startFakeAdmin() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/api/state", ex -> answerSample(ex, STATE));
        server.createContext("/api/demo", ex -> answerSample(ex, "{}"));
        server.createContext("/api/health/history", ex -> answer(ex, "{}"));
        server.createContext("/api/ring", ex -> { // round robin has no ring: the real engine answers 409
            byte[] b = "{\"error\":\"strategy: pool default uses no ring or table\",\"status\":409}".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(409, b.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(b);
            }
        });
        server.createContext("/api/events", ex -> {
            ex.getResponseHeaders().add("Content-Type", "text/event-stream");
            ex.sendResponseHeaders(200, 0);
            ex.getResponseBody().write(": connected\n\n".getBytes(StandardCharsets.UTF_8));
            ex.getResponseBody().flush();
            block(release);
            ex.close();
        });
        server.start();
        fx.closeAfter(() -> server.stop(0));
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The session's worker reads these, one at a time: once one hangs, no answer reaches the window. */
    private void answerSample(HttpExchange ex, String body) throws IOException {
        if (stalled) {
            hungSamples.incrementAndGet();
        }
        answer(ex, body);
    }

    private void answer(HttpExchange ex, String body) throws IOException {
        if (stalled) {
            block(release); // like a stopped process: the connection is accepted, nothing comes back
        }
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(200, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    private static void block(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * SIGSTOP on the engine for 10 s: the window kept showing "12.5 req/s", UP, and the proxy line, with nothing
     * saying the engine had stopped answering (the sample just waits, up to the client's 30 s timeout).
     */
    @Test
    void aStalledEngineIsSaidWithinAFewSecondsInsteadOfShowingTheLastFiguresAsLive(FxRobot robot) throws Exception {
        fx.attach(startFakeAdmin(), clock);
        Label rps = fx.lookup("#totalRps", Label.class);
        fx.until(() -> rps.getText().startsWith("12.5"));

        // when the engine stops answering (the window's next sample hangs) and six seconds pass on the window's clock
        stalled = true;
        await().atMost(Duration.ofSeconds(5)).until(() -> hungSamples.get() > 0);
        clock.advanceMillis(6_000);
        StatusBar bar = fx.lookup("#statusBar", StatusBar.class);
        fx.untilAsserted(Duration.ofSeconds(6), () ->
                assertThat(bar.getText() + " " + rps.getText())
                        .as("the window, 6 s after the engine stopped answering")
                        .containsIgnoringCase("not answering"));
    }

    /**
     * The engine killed: the status bar says "cannot read the engine's state: ... java.net.ConnectException", but the
     * total and every row keep their last figures ("12.5 req/s", UP) as if live, for as long as the engine is gone.
     */
    @Test
    void aGoneEngineDoesNotLeaveTheLastRateOnShowAsIfLive(FxRobot robot) throws Exception {
        fx.attach(startFakeAdmin(), clock);
        Label rps = fx.lookup("#totalRps", Label.class);
        fx.until(() -> rps.getText().startsWith("12.5"));

        // when the engine goes away: the window's next read fails (its clock stands still, so that failure is what
        // it reports)
        server.stop(0);
        StatusBar bar = fx.lookup("#statusBar", StatusBar.class);
        fx.untilAsserted(Duration.ofSeconds(8), () -> assertThat(rps.getText())
                .as("the total rate once the engine has been gone a few seconds").doesNotStartWith("12.5"));
        assertThat(fx.onFx(bar::getText)).contains("not answering").contains("cannot read the engine's state");
    }
}
