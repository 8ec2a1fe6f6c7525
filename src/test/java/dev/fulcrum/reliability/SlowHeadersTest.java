package dev.fulcrum.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.testkit.RawHttp;
import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.SlowOnPurpose;
import dev.fulcrum.testkit.TestSettings;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Slowloris (issue 7): a thousand connections that each send a partial request head one byte per second
 * must neither starve a normal client nor stay open past {@code requestHeaderMs}.
 *
 * <p>1000 client sockets plus the proxy's 1000 accepted sockets need about 2000 descriptors in this one JVM;
 * the test asks for fewer connections when {@code ulimit -n} (read from /proc/self/limits) is too low.
 */
@Tag("reliability")
class SlowHeadersTest {
    private static final int WANTED = 1000;

    @Test
    void aThousandSlowHeaderConnectionsAreCutOffWhileANormalClientIsServed() throws Exception {
        int connections = affordableConnections();
        RecordingBackend backend = new RecordingBackend("a");
        try (RunningFulcrum harness = RunningFulcrum.bareProxy(TestSettings.underLoad(2, 3000, 10_000, 2000))
                .backend(backend).start()) {
            List<Socket> slow = new ArrayList<>(connections);
            long[] openedAt = new long[connections];
            long[] closedAt = new long[connections];
            try {
                for (int i = 0; i < connections; i++) {
                    Socket s = new Socket("127.0.0.1", harness.port());
                    s.getOutputStream().write("GET /slow HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
                    s.getOutputStream().flush();
                    openedAt[i] = System.nanoTime();
                    slow.add(s);
                }
                AtomicBoolean dripping = new AtomicBoolean(true);
                Thread dripper = new Thread(() -> {
                    // one more header byte per connection per second until the proxy closes it
                    while (dripping.get()) {
                        for (int i = 0; i < slow.size(); i++) {
                            if (closedAt[i] == 0 && isClosedByPeer(slow.get(i))) {
                                closedAt[i] = System.nanoTime();
                            }
                        }
                        try {
                            SlowOnPurpose.pause(1000); // clients slow on purpose: one header byte a second
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }, "slowloris");
                dripper.setDaemon(true);
                dripper.start();

                long worstNanos = 0;
                for (int i = 0; i < 50; i++) {
                    long start = System.nanoTime();
                    RawHttp.Response r = RawHttp.get(harness.port(), "/normal", 30_000);
                    worstNanos = Math.max(worstNanos, System.nanoTime() - start);
                    assertThat(r.status()).as("normal GET %d", i).isEqualTo(200);
                    assertThat(r.complete()).isTrue();
                }
                await().atMost(Duration.ofSeconds(90)).until(() -> {
                    for (long c : closedAt) {
                        if (c == 0) {
                            return false;
                        }
                    }
                    return true;
                });
                dripping.set(false);
                dripper.join(10_000);
                long longestOpenMs = 0;
                for (int i = 0; i < connections; i++) {
                    longestOpenMs = Math.max(longestOpenMs, (closedAt[i] - openedAt[i]) / 1_000_000);
                }
                Figures.record("slow headers", connections + " slow connections (ulimit -n " + descriptorLimit()
                        + "), all closed by the proxy, the last after " + longestOpenMs
                        + " ms (requestHeaderMs 2000, checked once a second); 50 normal GETs ok, slowest "
                        + worstNanos / 1_000_000 + " ms");
                assertThat(backend.seen).allMatch(s -> s.uri().equals("/normal"));
                assertThat(backend.seen).hasSize(50);
            } finally {
                for (Socket s : slow) {
                    s.close();
                }
            }
        }
    }

    /** Writes the next header byte; a write or a peek that fails means the proxy closed the connection. */
    private static boolean isClosedByPeer(Socket s) {
        try {
            s.getOutputStream().write('x');
            s.getOutputStream().flush();
            s.setSoTimeout(1);
            try {
                return s.getInputStream().read() == -1; // the proxy sends nothing before closing
            } catch (java.net.SocketTimeoutException e) {
                return false;
            }
        } catch (IOException e) {
            return true;
        }
    }

    private static int affordableConnections() {
        long limit = descriptorLimit();
        // two descriptors per connection in this JVM, plus headroom for Maven, jars and the other tests
        return (int) Math.max(50, Math.min(WANTED, (limit - 500) / 2));
    }

    static long descriptorLimit() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    return Long.parseLong(line.substring(26).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: assume the common default
        }
        return 1024;
    }
}
