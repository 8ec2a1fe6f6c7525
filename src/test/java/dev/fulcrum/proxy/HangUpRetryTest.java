package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.BreakerSpec;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.EngineSettings.OutlierSpec;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A backend that reads a request and hangs up without answering (a crashing or restarting process): the GET
 * goes to the other backend and only the one that hung up is blamed. Issue 7: Undertow's client (used until
 * session 12) reported such a failure twice on one stack, and the second notice started the retry from inside
 * the handling of the first, which then blamed the retry's healthy backend and answered 502.
 */
class HangUpRetryTest extends ProxyTestBase {
    @Test
    void aGetWhoseBackendHangsUpIsRetriedAndTheBackendThatAnswersIsNotBlamed() throws Exception {
        HangUp hangUp = new HangUp();
        closeables.add(hangUp);
        TestBackend healthy = new TestBackend("healthy");
        closeables.add(healthy);
        // no ejection, no breaker: round-robin keeps sending every other request to the backend that hangs up
        start(EngineSettings.DEFAULT.withOutlier(OutlierSpec.DISABLED).withBreaker(BreakerSpec.DISABLED),
                TestSettings.proxy().maxRetries(1).readMs(10_000).build(), "hangup", hangUp.url(), "healthy", healthy.url());

        for (int i = 0; i < 10; i++) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(proxy.url() + "/x"))
                    .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as("GET %d: %s", i, r.body()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("healthy");
        }

        assertThat(hangUp.hungUp.get()).as("requests the hang-up backend read and dropped").isPositive();
        assertThat(view("hangup").failures()).isEqualTo(hangUp.hungUp.get());
        assertThat(view("healthy").failures()).as("failures blamed on the backend that answered").isZero();
        assertThat(healthy.requests.get()).isEqualTo(10);
        await().atMost(Duration.ofSeconds(10)).until(() -> view("hangup").activeRequests() + view("healthy").activeRequests() == 0);
    }

    private BackendView view(String id) {
        return engine.backends().stream().filter(v -> v.id().equals(id)).findFirst().orElseThrow();
    }

    /** Reads each request head, then closes the connection without a byte of answer. */
    private static final class HangUp implements AutoCloseable {
        final AtomicInteger hungUp = new AtomicInteger();
        private final ServerSocket server;
        private final Thread acceptor;

        HangUp() throws IOException {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            acceptor = new Thread(() -> {
                while (!server.isClosed()) {
                    try (Socket s = server.accept()) {
                        s.setSoTimeout(10_000);
                        if (readHead(s.getInputStream())) {
                            hungUp.incrementAndGet();
                        }
                    } catch (IOException e) {
                        // closed by the test, or a peer that went away: either way, next connection
                    }
                }
            }, "hang-up-backend");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getLocalPort();
        }

        private static boolean readHead(InputStream in) throws IOException {
            int state = 0;
            int b;
            while ((b = in.read()) != -1) {
                state = switch (state) {
                    case 0, 2 -> b == '\r' ? state + 1 : 0;
                    case 1, 3 -> b == '\n' ? state + 1 : 0;
                    default -> 0;
                };
                if (state == 4) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void close() throws Exception {
            server.close();
            acceptor.join(5_000);
        }
    }
}
