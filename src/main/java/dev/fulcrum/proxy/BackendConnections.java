package dev.fulcrum.proxy;

import io.undertow.client.ClientCallback;
import io.undertow.client.ClientConnection;
import io.undertow.client.UndertowClient;
import io.undertow.connector.ByteBufferPool;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.xnio.IoUtils;
import org.xnio.OptionMap;
import org.xnio.Options;
import org.xnio.XnioIoThread;

/**
 * Keep-alive connections to one backend, one idle stack per I/O thread. A connection is only ever used by
 * the I/O thread that opened it, so the stacks need no locks; a request served on thread 3 reuses thread
 * 3's connections. Idle connections older than {@code idleMs} are closed instead of reused.
 */
final class BackendConnections {
    /** Told when a connection is ready or could not be made. */
    interface Callback {
        void connected(ClientConnection connection);

        void connectFailed(IOException e);
    }

    private static final int MAX_IDLE_PER_THREAD = 256;
    private static final OptionMap CLIENT_OPTIONS = OptionMap.builder()
            .set(Options.TCP_NODELAY, true)
            .set(Options.KEEP_ALIVE, true)
            .getMap();

    private final URI uri;
    private final ByteBufferPool buffers;
    private final long connectMs;
    private final long idleNanos;
    private final Idle[] idle;
    private final LongAdder opened = new LongAdder();
    private volatile boolean closed;

    private static final class Idle {
        final ArrayDeque<ClientConnection> connections = new ArrayDeque<>();
        final ArrayDeque<Long> since = new ArrayDeque<>();
    }

    BackendConnections(URI uri, ByteBufferPool buffers, int ioThreads, long connectMs, long idleMs) {
        this.uri = uri;
        this.buffers = buffers;
        this.connectMs = connectMs;
        this.idleNanos = idleMs * 1_000_000L;
        this.idle = new Idle[ioThreads];
        for (int i = 0; i < ioThreads; i++) {
            idle[i] = new Idle();
        }
    }

    /** Connections opened so far (to measure reuse: new connections per request). */
    long opened() {
        return opened.sum();
    }

    /** Must be called on {@code thread}; calls back on it. */
    void acquire(XnioIoThread thread, Callback callback) {
        Idle stack = idle[thread.getNumber() % idle.length];
        long now = System.nanoTime();
        while (!stack.connections.isEmpty()) {
            ClientConnection c = stack.connections.pollLast();
            long since = stack.since.pollLast();
            if (c.isOpen() && now - since < idleNanos) {
                callback.connected(c);
                return;
            }
            IoUtils.safeClose(c);
        }
        if (closed) {
            callback.connectFailed(new IOException("backend removed"));
            return;
        }
        Connect attempt = new Connect(callback);
        attempt.timer = thread.executeAfter(attempt::timeout, connectMs, TimeUnit.MILLISECONDS);
        UndertowClient.getInstance().connect(attempt, uri, thread, buffers, CLIENT_OPTIONS);
    }

    /** Returns a connection whose exchange finished cleanly; on the I/O thread that owns it. */
    void release(ClientConnection c) {
        if (closed || !c.isOpen() || c.isUpgraded()) {
            IoUtils.safeClose(c);
            return;
        }
        Idle stack = idle[c.getIoThread().getNumber() % idle.length];
        if (stack.connections.size() >= MAX_IDLE_PER_THREAD) {
            IoUtils.safeClose(c);
            return;
        }
        stack.connections.addLast(c);
        stack.since.addLast(System.nanoTime());
    }

    /** Closes idle connections; busy ones close as their exchanges end. */
    void close() {
        closed = true;
        for (Idle stack : idle) {
            XnioIoThread t = null;
            for (ClientConnection c : stack.connections) {
                t = c.getIoThread();
            }
            if (t != null) {
                t.execute(() -> {
                    while (!stack.connections.isEmpty()) {
                        IoUtils.safeClose(stack.connections.pollLast());
                        stack.since.pollLast();
                    }
                });
            }
        }
    }

    private final class Connect implements ClientCallback<ClientConnection> {
        private final Callback callback;
        private XnioIoThread.Key timer;
        private boolean done;

        Connect(Callback callback) {
            this.callback = callback;
        }

        void timeout() {
            if (!done) {
                done = true;
                callback.connectFailed(new IOException("connect timed out after " + connectMs + " ms"));
            }
        }

        @Override
        public void completed(ClientConnection result) {
            opened.increment();
            if (done) {
                IoUtils.safeClose(result); // too late: the request has moved on
                return;
            }
            done = true;
            timer.remove();
            callback.connected(result);
        }

        @Override
        public void failed(IOException e) {
            if (!done) {
                done = true;
                timer.remove();
                callback.connectFailed(e);
            }
        }
    }
}
