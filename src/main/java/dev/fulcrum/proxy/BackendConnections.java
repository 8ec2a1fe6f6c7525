package dev.fulcrum.proxy;

import dev.fulcrum.net.BackendAddresses;
import dev.fulcrum.time.SystemClock;
import io.undertow.connector.ByteBufferPool;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.xnio.ChannelListener;
import org.xnio.IoFuture;
import org.xnio.IoUtils;
import org.xnio.OptionMap;
import org.xnio.Options;
import org.xnio.StreamConnection;
import org.xnio.XnioIoThread;

/**
 * Keep-alive connections to one backend, one idle stack per I/O thread. A connection is only ever used by
 * the I/O thread that opened it, so the stacks need no locks; a request served on thread 3 reuses thread
 * 3's connections. Idle connections older than {@code idleMs} are closed instead of reused.
 *
 * <p>A new connection goes to the backend's addresses ({@link BackendAddresses}) in turn until one connects, within
 * one {@code connectMs}; the one that did is tried first from then on. So {@code http://localhost:5173} reaches a
 * dev server listening on {@code ::1} alone after one refused connect to {@code 127.0.0.1} (on the first connect
 * only), and a server that restarts on the other loopback address is found again the same way.
 */
final class BackendConnections {
    /** Told when a connection is ready or could not be made. */
    interface Callback {
        void connected(BackendConnection connection);

        void connectFailed(IOException e);
    }

    /** Told when a connection of no exchange's ({@link MirrorPipe}) is open or could not be made. */
    interface Opened {
        void opened(StreamConnection connection);

        void openFailed(IOException e);
    }

    private static final int MAX_IDLE_PER_THREAD = 256;
    private static final OptionMap CLIENT_OPTIONS = OptionMap.builder()
            .set(Options.TCP_NODELAY, true)
            .set(Options.KEEP_ALIVE, true)
            .getMap();

    /** Works out a backend's socket addresses; may block (a DNS lookup), so it never runs on an I/O thread. */
    interface Resolver {
        /** One address; unresolved when the name does not resolve. */
        InetSocketAddress resolve(URI uri);

        /** The addresses to try in order; one unresolved address when the name does not resolve. */
        default List<InetSocketAddress> resolveAll(URI uri) {
            return List.of(resolve(uri));
        }
    }

    /** {@link BackendAddresses}: both loopback addresses for {@code localhost}, else the JDK's lookup. */
    static final Resolver DNS = new Resolver() {
        @Override
        public InetSocketAddress resolve(URI uri) {
            return resolveAll(uri).get(0);
        }

        @Override
        public List<InetSocketAddress> resolveAll(URI uri) {
            int port = uri.getPort() < 0 ? 80 : uri.getPort();
            List<InetAddress> all = BackendAddresses.of(uri.getHost());
            if (all.isEmpty()) {
                return List.of(InetSocketAddress.createUnresolved(uri.getHost(), port));
            }
            return all.stream().map(a -> new InetSocketAddress(a, port)).toList();
        }
    };

    private final URI uri;
    private final Resolver resolver;
    /**
     * Resolved once, on the first connect, the address that connected last first; null until then (and again after a
     * lookup that failed).
     */
    private volatile List<InetSocketAddress> addresses;
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
        /** The thread's mirrored copies to this backend; made when the first is sent. */
        MirrorPipe pipe;
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

    /**
     * Where {@code thread} sends its mirrored copies to this backend; call on that thread. {@code deadlines}: the
     * thread's read deadlines, null when there are none (readMs 0).
     */
    MirrorPipe mirrorPipe(XnioIoThread thread, ReadDeadlines deadlines) {
        Idle own = idleOf(thread);
        if (own.pipe == null) {
            own.pipe = new MirrorPipe(this, thread, deadlines, MirrorPipe.DEFAULT_GAP_NANOS,
                    MirrorPipe.SLOW_NANOS, idleNanos);
        }
        return own.pipe;
    }

    /** Must be called on {@code thread}; calls back on it. */
    void acquire(XnioIoThread thread, Callback callback) {
        acquire(thread, callback, false, SystemClock.nanoTime());
    }

    /**
     * @param fresh a new connection, not an idle one (the retry after an idle one turned out closed)
     * @param now   {@link SystemClock#nanoTime()} as the caller read it, lately (idle connections are timed in seconds)
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
        open(thread, new Opened() {
            @Override
            public void opened(StreamConnection connection) {
                callback.connected(new BackendConnection(connection, buffers));
            }

            @Override
            public void openFailed(IOException e) {
                callback.connectFailed(e);
            }
        });
    }

    /** Opens a new connection on {@code thread} (where it is told), for whoever will own it. */
    void open(XnioIoThread thread, Opened callback) {
        if (closed) {
            callback.openFailed(new IOException("backend removed"));
            return;
        }
        Connect attempt = new Connect(callback);
        attempt.timer = thread.executeAfter(attempt::timeout, connectMs, TimeUnit.MILLISECONDS);
        List<InetSocketAddress> a = addresses;
        if (a != null) {
            attempt.open(thread, a);
            return;
        }
        // a lookup can take seconds (a slow or absent DNS server): on a task thread, or every connection this
        // I/O thread serves would wait with it
        try {
            thread.getWorker().execute(() -> {
                List<InetSocketAddress> r;
                try {
                    r = resolver.resolveAll(uri);
                } catch (RuntimeException e) { // a SecurityException, or a resolver's bug: not a wait for the timer
                    thread.execute(() -> attempt.handleFailed(new IOException("looking up " + uri.getHost() + " failed: " + e, e), null));
                    return;
                }
                if (!r.get(0).isUnresolved()) {
                    addresses = r;
                }
                thread.execute(() -> attempt.open(thread, r));
            });
        } catch (RejectedExecutionException e) { // the proxy is shutting down
            attempt.handleFailed(new IOException("no thread to look up " + uri.getHost() + ": " + e.getMessage()), null);
        }
    }

    /** Takes back a connection whose exchange ended, on the I/O thread that owns it; keeps it if it can serve again. */
    void release(BackendConnection c) {
        release(c, SystemClock.nanoTime());
    }

    /**
     * {@link #release(BackendConnection)} at {@code now}, {@link SystemClock#nanoTime()} as the caller just read it.
     */
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
                    if (stack.pipe != null) {
                        stack.pipe.close();
                    }
                });
            }
        }
    }

    private final class Connect extends IoFuture.HandlingNotifier<StreamConnection, Object>
            implements ChannelListener<StreamConnection> {
        private final Opened callback;
        private XnioIoThread.Key timer;
        private IoFuture<StreamConnection> future;
        private boolean done;
        /** The addresses being tried, and which of them the current connect goes to. */
        private List<InetSocketAddress> trying;
        private int at;
        /** Why the first address failed: what the caller is told when none connects. */
        private IOException firstFailure;

        Connect(Opened callback) {
            this.callback = callback;
        }

        /** On the I/O thread, once the addresses are known (unless the connect timed out while they were looked up). */
        void open(XnioIoThread thread, List<InetSocketAddress> all) {
            if (done) {
                return;
            }
            if (closed) { // removed while its name was looked up
                handleFailed(new IOException("backend removed"), null);
                return;
            }
            InetSocketAddress a = all.get(0);
            if (a.isUnresolved()) {
                handleFailed(new UnknownHostException("backend host " + a.getHostString() + " does not resolve"), null);
                return;
            }
            trying = all;
            at = 0;
            connect(thread);
        }

        private void connect(XnioIoThread thread) {
            future = thread.openStreamConnection(trying.get(at), this, CLIENT_OPTIONS);
            future.addNotifier(this, thread);
        }

        /** The address that connected goes first for the next connects, the others keep their order. */
        private void remember() {
            if (at > 0) {
                addresses = BackendAddresses.preferring(trying.get(at), trying);
            }
        }

        void timeout() {
            if (!done) {
                done = true;
                if (future != null) {
                    future.cancel();
                }
                callback.openFailed(new IOException("connect timed out after " + connectMs + " ms"));
            }
        }

        @Override
        public void handleEvent(StreamConnection channel) {
            opened.increment();
            if (done) {
                IoUtils.safeClose(channel); // too late: the request has moved on
                return;
            }
            done = true;
            timer.remove();
            remember();
            callback.opened(channel);
        }

        /** {@code attachment} is the I/O thread when a connect to {@code trying.get(at)} failed, else null. */
        @Override
        public void handleFailed(IOException e, Object attachment) {
            if (attachment instanceof XnioIoThread thread && !done && !closed && at + 1 < trying.size()) {
                if (firstFailure == null) {
                    firstFailure = e;
                }
                at++;
                connect(thread); // the next address, within the same connect timeout
                return;
            }
            if (!done) {
                done = true;
                timer.remove();
                callback.openFailed(firstFailure != null ? firstFailure : e);
            }
        }
    }
}
