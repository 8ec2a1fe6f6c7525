package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.testkit.RawBackend;
import dev.fulcrum.testkit.SlowOnPurpose;
import io.undertow.util.HeaderMap;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.xnio.OptionMap;
import org.xnio.Options;
import org.xnio.Xnio;
import org.xnio.XnioIoThread;
import org.xnio.XnioWorker;

/**
 * The per-backend connection pools on a real XNIO worker with one I/O thread: a backend whose host name takes
 * long to look up must not hold up the other backends that thread serves; an answer whose head came in pieces hands
 * its body over in a direct buffer, as one that came whole does.
 */
class BackendConnectionsTest {
    private XnioWorker worker;
    private ServerSocket slowServer;
    private ServerSocket fastServer;
    private final ThreadCachedBufferPool buffers = new ThreadCachedBufferPool(16 * 1024, true, 8, 16);

    @BeforeEach
    void start() throws IOException {
        worker = Xnio.getInstance().createWorker(OptionMap.builder()
                .set(Options.WORKER_IO_THREADS, 1).set(Options.WORKER_TASK_CORE_THREADS, 2)
                .set(Options.WORKER_TASK_MAX_THREADS, 2).getMap());
        slowServer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        fastServer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    @AfterEach
    void stop() throws IOException {
        slowServer.close();
        fastServer.close();
        worker.shutdownNow();
    }

    @Test
    void aSlowNameLookupDoesNotHoldUpTheIoThread() throws Exception {
        CountDownLatch lookupMayEnd = new CountDownLatch(1);
        BackendConnections.Resolver slowDns = u -> {
            try {
                lookupMayEnd.await(20, TimeUnit.SECONDS); // a DNS server that takes its time
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), slowServer.getLocalPort());
        };
        BackendConnections slow = new BackendConnections(URI.create("http://slow.test:80"), slowDns, buffers, 1, 30_000, 60_000);
        BackendConnections fast = new BackendConnections(URI.create("http://127.0.0.1:" + fastServer.getLocalPort()),
                BackendConnections.DNS, buffers, 1, 30_000, 60_000);
        XnioIoThread thread = worker.getIoThread(0);
        Outcome slowOne = new Outcome();
        Outcome fastOne = new Outcome();
        try {
            thread.execute(() -> slow.acquire(thread, slowOne));
            thread.execute(() -> fast.acquire(thread, fastOne));
            assertThat(fastOne.result.get(10, TimeUnit.SECONDS)).as("the other backend, while the lookup hangs").isEqualTo("connected");
            assertThat(slowOne.result).isNotDone();
        } finally {
            lookupMayEnd.countDown();
        }
        assertThat(slowOne.result.get(10, TimeUnit.SECONDS)).isEqualTo("connected");
    }

    @Test
    void aBodyThatCameWithAHeadGatheredFromSeveralReadsIsHandedOverInADirectBuffer() throws Exception {
        RawBackend backend = RawBackend.start(peer -> {
            peer.socket().setTcpNoDelay(true);
            if (peer.readMessage() != null) {
                peer.write("HTTP/1.1 200 OK\r\nContent-Le");
                SlowOnPurpose.pause(100); // the head in two reads, the body with its second part
                peer.write("ngth: 5\r\n\r\nhello");
                peer.in().transferTo(java.io.OutputStream.nullOutputStream());
            }
        });
        try {
            BackendConnections c = new BackendConnections(URI.create(backend.url()), BackendConnections.DNS, buffers, 1,
                    30_000, 60_000);
            XnioIoThread thread = worker.getIoThread(0);
            CompletableFuture<String> body = new CompletableFuture<>();
            thread.execute(() -> c.acquire(thread, new BackendConnections.Callback() {
                @Override
                public void connected(BackendConnection connection) {
                    ByteBuffer get = ByteBuffer.wrap("GET / HTTP/1.1\r\nHost: b\r\n\r\n"
                            .getBytes(StandardCharsets.ISO_8859_1));
                    connection.send(get, new HeaderMap(), false, new BackendConnection.Listener() {
                        @Override
                        public void headWritten() {
                        }

                        @Override
                        public void responseArrived(int status, String reason, ByteBuffer whole) {
                            body.complete((whole.isDirect() ? "direct " : "heap ")
                                    + StandardCharsets.ISO_8859_1.decode(whole));
                        }

                        @Override
                        public void failed(IOException e) {
                            body.completeExceptionally(e);
                        }
                    });
                }

                @Override
                public void connectFailed(IOException e) {
                    body.completeExceptionally(e);
                }
            }));
            assertThat(body.get(10, TimeUnit.SECONDS)).isEqualTo("direct hello");
        } finally {
            backend.close();
        }
    }

    @Test
    void aNameThatDoesNotResolveFailsTheConnectAndIsLookedUpAgainNextTime() throws Exception {
        int[] lookups = {0};
        BackendConnections.Resolver none = u -> {
            lookups[0]++;
            return InetSocketAddress.createUnresolved(u.getHost(), u.getPort());
        };
        BackendConnections c = new BackendConnections(URI.create("http://nowhere.test:80"), none, buffers, 1, 30_000, 60_000);
        XnioIoThread thread = worker.getIoThread(0);
        for (int i = 0; i < 2; i++) {
            Outcome o = new Outcome();
            thread.execute(() -> c.acquire(thread, o));
            assertThat(o.result.get(10, TimeUnit.SECONDS)).isEqualTo("failed: backend host nowhere.test does not resolve");
        }
        assertThat(lookups[0]).isEqualTo(2);
    }

    @Test
    void aBackendRemovedWhileItsNameIsLookedUpGetsNoConnection() throws Exception {
        CountDownLatch lookupStarted = new CountDownLatch(1);
        CountDownLatch lookupMayEnd = new CountDownLatch(1);
        BackendConnections c = new BackendConnections(URI.create("http://slow.test:80"), u -> {
            lookupStarted.countDown();
            try {
                lookupMayEnd.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), slowServer.getLocalPort());
        }, buffers, 1, 30_000, 60_000);
        XnioIoThread thread = worker.getIoThread(0);
        Outcome o = new Outcome();
        thread.execute(() -> c.acquire(thread, o));
        assertThat(lookupStarted.await(10, TimeUnit.SECONDS)).isTrue();
        c.close();
        lookupMayEnd.countDown();
        assertThat(o.result.get(10, TimeUnit.SECONDS)).isEqualTo("failed: backend removed");
    }

    @Test
    void aLookupThatThrowsFailsTheConnectWithItsCauseNotTheTimer() throws Exception {
        BackendConnections c = new BackendConnections(URI.create("http://broken.test:80"), u -> {
            throw new SecurityException("no lookups here");
        }, buffers, 1, 30_000, 60_000);
        XnioIoThread thread = worker.getIoThread(0);
        Outcome o = new Outcome();
        thread.execute(() -> c.acquire(thread, o));
        assertThat(o.result.get(10, TimeUnit.SECONDS)) // the connect timer is 30 s
                .startsWith("failed: looking up broken.test failed: java.lang.SecurityException: no lookups here");
    }

    private static final class Outcome implements BackendConnections.Callback {
        final CompletableFuture<String> result = new CompletableFuture<>();

        @Override
        public void connected(BackendConnection connection) {
            connection.close();
            result.complete("connected");
        }

        @Override
        public void connectFailed(IOException e) {
            result.complete("failed: " + e.getMessage());
        }
    }
}
