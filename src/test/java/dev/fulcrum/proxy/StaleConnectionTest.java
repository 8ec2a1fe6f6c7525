package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.BackendView;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A backend that closes an idle keep-alive connection just as the proxy sends the next request on it (Node's dev
 * servers close idle connections after 5 s). Here made certain: each connection answers its first request and is
 * closed, unanswered, when a second one arrives on it.
 */
class StaleConnectionTest extends ProxyTestBase {

    @Test
    void aGetOnAConnectionTheBackendJustClosedIsSentAgainOnANewOneAndNotHeldAgainstIt() throws Exception {
        ClosingBackend b = new ClosingBackend(false);
        closeables.add(b);
        start(TestSettings.proxy().build(), "dev", b.url());
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            statuses.add(client.send(HttpRequest.newBuilder(URI.create(proxy.url() + "/get" + i)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode());
        }
        // before: 200 502 200 502 ... then the breaker opened and everything was 503
        assertThat(statuses).containsOnly(200);
        BackendView v = engine.backends().get(0);
        assertThat(v.failures()).isZero();
        assertThat(v.breaker().name()).isEqualTo("CLOSED");
        assertThat(b.requests).hasSize(16 + 15); // each request once on a new connection, 15 more on closed ones
    }

    @Test
    void aPostOnSuchAConnectionIsNotSentAgain() throws Exception {
        ClosingBackend b = new ClosingBackend(false);
        closeables.add(b);
        start(TestSettings.proxy().build(), "dev", b.url());
        assertThat(client.send(HttpRequest.newBuilder(URI.create(proxy.url() + "/first")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
        int status = client.send(HttpRequest.newBuilder(URI.create(proxy.url() + "/order"))
                .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        // whether the POST got there cannot be known: it is never resent (CONTRACT 3)
        assertThat(status).isEqualTo(502);
        assertThat(b.requests.stream().filter(r -> r.startsWith("POST /order"))).hasSize(1);
    }

    @Test
    void aResetInsteadOfACloseIsHandledTheSame() throws Exception {
        ClosingBackend b = new ClosingBackend(true);
        closeables.add(b);
        start(TestSettings.proxy().build(), "dev", b.url());
        for (int i = 0; i < 6; i++) {
            assertThat(client.send(HttpRequest.newBuilder(URI.create(proxy.url() + "/r" + i)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode()).as("request " + i).isEqualTo(200);
        }
    }

    /** Answers the first request of each connection; closes (or resets) the connection when a second arrives. */
    static final class ClosingBackend implements AutoCloseable {
        final List<String> requests = new CopyOnWriteArrayList<>();
        private final ServerSocket server;
        private final boolean reset;

        ClosingBackend(boolean reset) throws IOException {
            this.reset = reset;
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread t = new Thread(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket s = server.accept();
                        Thread c = new Thread(() -> serve(s), "closing-backend-conn");
                        c.setDaemon(true);
                        c.start();
                    } catch (IOException e) {
                        return;
                    }
                }
            }, "closing-backend");
            t.setDaemon(true);
            t.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getLocalPort();
        }

        private void serve(Socket s) {
            try (s) {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                StringBuilder pending = new StringBuilder();
                byte[] buf = new byte[8192];
                int served = 0;
                int n;
                while ((n = in.read(buf)) > 0) {
                    pending.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
                    int end;
                    while ((end = pending.indexOf("\r\n\r\n")) >= 0) {
                        String head = pending.substring(0, end + 4);
                        pending.delete(0, end + 4);
                        requests.add(head);
                        if (served++ > 0) {
                            if (reset) {
                                s.setSoLinger(true, 0);
                            }
                            return; // closed, unanswered
                        }
                        int length = head.toLowerCase().contains("content-length: 1\r\n") ? 1 : 0;
                        pending.delete(0, Math.min(length, pending.length()));
                        out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // done
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
