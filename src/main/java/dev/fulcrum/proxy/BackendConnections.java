package dev.fulcrum.proxy;

import io.undertow.connector.ByteBufferPool;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.xnio.ChannelListener;
import org.xnio.IoFuture;
import org.xnio.OptionMap;
import org.xnio.Options;
import org.xnio.StreamConnection;
import org.xnio.XnioIoThread;

/**
 * Keep-alive connections to one backend, one idle stack per I/O thread. A connection is only ever used by
 * the I/O thread that opened it, so the stacks need no locks; a request served on thread 3 reuses thread
 * 3's connections. Idle connections older than {@code idleMs} are closed instead of reused.
 */
final class BackendConnections {
    /** Told when a connection is ready or could not be made. */
    interface Callback {
        void connected(BackendConnection connection);

        void connectFailed(IOException e);
    }

    private static final int MAX_IDLE_PER_THREAD = 256;
    private static final OptionMap CLIENT_OPTIONS = OptionMap.builder()
            .set(Options.TCP_NODELAY, true)
            .set(Options.KEEP_ALIVE, true)
            .getMap();

    /** Works out a backend's socket address; may block (a DNS lookup), so it never runs on an I/O thread. */
    interface Resolver {
        InetSocketAddress resolve(URI uri);
    }

    /** The JDK's lookup (hosts file, then DNS); a name that does not resolve gives an unresolved address. */
    static final Resolver DNS = u -> new InetSocketAddress(u.getHost(), u.getPort() < 0 ? 80 : u.getPort());

    private final URI uri;
    private final Resolver resolver;
    /** Resolved once, on the first connect; null until then (and again after a lookup that failed). */
    private volatile InetSocketAddress address;
    private final ByteBufferPool buffers;
    private final long connectMs;
    private final long idleNanos;
    private final Idle[] idle;
    private final LongAdder opened = new LongAdder();
    private volatile boolean closed;

    /**
     * One I/O thread's idle connections, touched by that thread only. {@link #close()} runs elsewhere, so it does
     * not read the deque: it asks the owner to empty it. The owner is recorded before the thread reads
     * {@code closed} (both volatile), so either the thread sees the pool closed or close() sees the owner.
     */
    private static final class Idle {
        final ArrayDeque<BackendConnection> connections = new ArrayDeque<>();
        volatile XnioIoThread owner;

        Idle ownedBy(XnioIoThread thread) {
            if (owner == null) {
                owner = thread;
            }
            return this;
        }
    }

    BackendConnections(URI uri, Resolver resolver, ByteBufferPool buffers, int ioThreads, long connectMs, long idleMs) {
        this.uri = uri;
        this.resolver = resolver;
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

    /** The idle connections of {@code thread}, which is the only one to touch them. */
    private Idle idleOf(XnioIoThread thread) {
        return idle[thread.getNumber() % idle.length].ownedBy(thread);
    }

    /** Must be called on {@code thread}; calls back on it. */
    void acquire(XnioIoThread thread, Callback callback) {
        acquire(thread, callback, false, System.nanoTime());
    }

    /**
     * @param fresh a new connection, not an idle one (the retry after an idle one turned out closed)
     * @param now   {@link System#nanoTime()} as the caller read it, lately (idle connections are timed in seconds)
     */
    void acquire(XnioIoThread thread, Callback callback, boolean fresh, long now) {
        Idle stack = idleOf(thread);
        while (!fresh && !stack.connections.isEmpty()) {
            BackendConnection c = stack.connections.pollLast();
            if (c.isOpen() && now - c.idleSince() < idleNanos) {
                c.pooled(true);
                callback.connected(c);
                return;
            }
            c.close();
        }
        if (closed) {
            callback.connectFailed(new IOException("backend removed"));
            return;
        }
        Connect attempt = new Connect(callback);
        attempt.timer = thread.executeAfter(attempt::timeout, connectMs, TimeUnit.MILLISECONDS);
        InetSocketAddress a = address;
        if (a != null) {
            attempt.open(thread, a);
            return;
        }
        // a lookup can take seconds (a slow or absent DNS server): on a task thread, or every connection this
        // I/O thread serves would wait with it
        try {
            thread.getWorker().execute(() -> {
                InetSocketAddress r;
                try {
                    r = resolver.resolve(uri);
                } catch (RuntimeException e) { // a SecurityException, or a resolver's bug: not a wait for the timer
                    thread.execute(() -> attempt.handleFailed(new IOException("looking up " + uri.getHost() + " failed: " + e, e), null));
                    return;
                }
                if (!r.isUnresolved()) {
                    address = r;
                }
                thread.execute(() -> attempt.open(thread, r));
            });
        } catch (RejectedExecutionException e) { // the proxy is shutting down
            attempt.handleFailed(new IOException("no thread to look up " + uri.getHost() + ": " + e.getMessage()), null);
        }
    }

    /** Takes back a connection whose exchange ended, on the I/O thread that owns it; keeps it if it can serve again. */
    void release(BackendConnection c) {
        release(c, System.nanoTime());
    }

    /** {@link #release(BackendConnection)} at {@code now}, {@link System#nanoTime()} as the caller just read it. */
    void release(BackendConnection c, long now) {
        Idle stack = idleOf(c.ioThread());
        if (!c.finishExchange(now) || closed) {
            c.close();
            return;
        }
        if (stack.connections.size() >= MAX_IDLE_PER_THREAD) {
            c.close();
            return;
        }
        stack.connections.addLast(c);
    }

    /** Closes idle connections, each on its own thread; busy ones close as their exchanges end. Any thread. */
    void close() {
        closed = true;
        for (Idle stack : idle) {
            XnioIoThread t = stack.owner;
            if (t != null) {
                t.execute(() -> {
                    while (!stack.connections.isEmpty()) {
                        stack.connections.pollLast().close();
                    }
                });
            }
        }
    }

    private final class Connect extends IoFuture.HandlingNotifier<StreamConnection, Object>
            implements ChannelListener<StreamConnection> {
        private final Callback callback;
        private XnioIoThread.Key timer;
        private IoFuture<StreamConnection> future;
        private boolean done;

        Connect(Callback callback) {
            this.callback = callback;
        }

        /** On the I/O thread, once the address is known (unless the connect timed out while it was looked up). */
        void open(XnioIoThread thread, InetSocketAddress a) {
            if (done) {
                return;
            }
            if (closed) { // removed while its name was looked up
                handleFailed(new IOException("backend removed"), null);
                return;
            }
            if (a.isUnresolved()) {
                handleFailed(new UnknownHostException("backend host " + a.getHostString() + " does not resolve"), null);
                return;
            }
            future = thread.openStreamConnection(a, this, CLIENT_OPTIONS);
            future.addNotifier(this, null);
        }

        void timeout() {
            if (!done) {
                done = true;
                if (future != null) {
                    future.cancel();
                }
                callback.connectFailed(new IOException("connect timed out after " + connectMs + " ms"));
            }
        }

        @Override
        public void handleEvent(StreamConnection channel) {
            opened.increment();
            BackendConnection c = new BackendConnection(channel, buffers);
            if (done) {
                c.close(); // too late: the request has moved on
                return;
            }
            done = true;
            timer.remove();
            callback.connected(c);
        }

        @Override
        public void handleFailed(IOException e, Object attachment) {
            if (!done) {
                done = true;
                timer.remove();
                callback.connectFailed(e);
            }
        }
    }
}
