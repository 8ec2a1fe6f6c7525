package dev.fulcrum.proxy;

import dev.fulcrum.threads.PerThread;
import io.undertow.connector.ByteBufferPool;
import io.undertow.connector.PooledByteBuffer;
import io.undertow.util.HeaderMap;
import io.undertow.util.HeaderValues;
import io.undertow.util.PooledAdaptor;
import io.undertow.util.StatusCodes;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.xnio.ChannelListener;
import org.xnio.IoUtils;
import org.xnio.StreamConnection;
import org.xnio.XnioIoThread;
import org.xnio.conduits.ConduitStreamSourceChannel;
import org.xnio.conduits.PushBackStreamSourceConduit;

/**
 * Fulcrum's own HTTP/1.1 server side for the plain listener, beside Undertow's: it reads each head of a connection
 * itself, serves the plainest requests ({@link FrontHead}) through a {@link FrontRequest} of its own, and hands the
 * connection to Undertow, with every byte it read, at the first head outside that grammar (or not yet whole). An
 * Undertow exchange, its two header maps and its parsed strings cost more than the rest of a proxied request
 * together (issue 36: Undertow answering alone allocates 1,367 bytes a request); these requests cost none of it.
 * From the hand-over on, the connection is Undertow's for good, with Fulcrum's head guard beneath its parser as on
 * every connection it accepts.
 *
 * <p>On with {@code proxy.http1Server: "fulcrum"} (docs/REFERENCE.md §2.1).
 *
 * <p>A connection belongs to the I/O thread that accepted it: everything here runs there.
 */
final class Http1Front {
    private static final PerThread<FrontHead> HEADS = PerThread.withInitial(FrontHead::new);

    private final ByteBufferPool buffers;
    /** Takes a parsed request: the proxy's root, as for Undertow's requests. */
    private final Consumer<FrontRequest> serve;
    private final long idleMs;
    /** Requests this side read itself (the rest, Undertow's). */
    private final LongAdder served = new LongAdder();
    /** The idle connections' deadlines: slot i belongs to I/O thread i, which alone makes and uses it. */
    private final ReadDeadlines[] idle;

    Http1Front(ByteBufferPool buffers, Consumer<FrontRequest> serve, long idleMs, int ioThreads) {
        this.buffers = buffers;
        this.serve = serve;
        this.idleMs = idleMs;
        this.idle = new ReadDeadlines[ioThreads];
    }

    /** The deadlines of connections idle on {@code thread}, or null without an idle timeout; on that thread only. */
    private ReadDeadlines idle(XnioIoThread thread) {
        if (idleMs <= 0) {
            return null;
        }
        int i = thread.getNumber() % idle.length;
        ReadDeadlines d = idle[i];
        if (d == null) {
            d = new ReadDeadlines(thread, idleMs);
            idle[i] = d;
        }
        return d;
    }

    long served() {
        return served.sum();
    }

    /** A connection accepted on the plain listener; {@code undertow} takes it over with whatever it is then given. */
    void accepted(StreamConnection c, ChannelListener<StreamConnection> undertow) {
        Connection conn = new Connection(c, undertow);
        c.getSourceChannel().setReadListener(conn);
        c.setCloseListener(ch -> conn.closed());
        conn.waitIdle();
        c.getSourceChannel().resumeReads();
    }

    /** A connection's last request path and Host value: a client that repeats them is given the same strings. */
    static final class Recent {
        String path;
        String host;
    }

    /** One client connection while the front serves it. */
    final class Connection extends ReadDeadlines.Waiter implements ChannelListener<ConduitStreamSourceChannel> {
        final StreamConnection channel;
        private final ChannelListener<StreamConnection> undertow;
        /** Bytes read and not yet taken: the next head, or a part of it; null when none are held. */
        private PooledByteBuffer in;
        /** The request being served, or null between requests. */
        private FrontRequest current;
        /** This thread's idle deadlines, or null without an idle timeout. */
        private final ReadDeadlines idle;
        private boolean handedOver;
        /** Where each answer's head is written: the connection's, reused (a socket is written from direct memory). */
        private ByteBuffer heads;
        /** An answer's head and its first body bytes, gathered into one write. */
        final ByteBuffer[] headAndBody = new ByteBuffer[2];
        /** The client's address as text, worked out once per connection. */
        private String peerIp;
        private final Recent recent = new Recent();

        Connection(StreamConnection channel, ChannelListener<StreamConnection> undertow) {
            this.channel = channel;
            this.undertow = undertow;
            this.idle = idle(channel.getIoThread());
        }

        /** No request under way: the connection is closed if none comes within idleMs. */
        void waitIdle() {
            if (idle != null) {
                idle.arm(this);
            }
        }

        @Override
        public void handleEvent(ConduitStreamSourceChannel source) {
            if (in == null) {
                in = buffers.allocate();
            }
            ByteBuffer b = in.getBuffer();
            if (!b.hasRemaining()) {
                source.suspendReads(); // a head larger than the buffer waits for Undertow, or its exchange's end
                if (current == null) {
                    handOver();
                }
                return;
            }
            int n;
            try {
                n = source.read(b);
            } catch (IOException e) {
                IoUtils.safeClose(channel);
                return;
            }
            if (n < 0) {
                IoUtils.safeClose(channel); // a hang-up: closed() ends a request under way as the client's abort
                return;
            }
            if (n == 0) {
                if (b.position() == 0) {
                    release();
                }
                return;
            }
            if (current != null) {
                source.suspendReads(); // a pipelined request: read once this one is done
                return;
            }
            next();
        }

        /** Between requests with bytes held: serves the next head, hands over, or waits for more. */
        private void next() {
            ByteBuffer b = in.getBuffer();
            b.flip();
            FrontHead head = HEADS.get();
            int length = head.read(b, recent);
            if (length == FrontHead.NOT_MINE) {
                b.compact(); // the bytes held, as read
                handOver();
                return;
            }
            b.position(b.position() + length);
            b.compact();
            if (idle != null && armed()) {
                idle.disarm(this);
            }
            FrontRequest r = new FrontRequest(this, head);
            current = r;
            served.increment();
            serve.accept(r);
            r.dispatched();
        }

        /** The request ended (its answer flushed, or the connection gone). */
        void ended(FrontRequest r, boolean persistent) {
            if (current != r) {
                return;
            }
            current = null;
            if (!persistent || !channel.isOpen()) {
                IoUtils.safeClose(channel);
                return;
            }
            if (in != null && in.getBuffer().position() > 0) {
                next();
                return;
            }
            release();
            waitIdle();
            channel.getSourceChannel().resumeReads();
        }

        ByteBufferPool buffers() {
            return buffers;
        }

        /** The client's IP address (no port), or 0.0.0.0 when the connection has none. */
        String peerIp() {
            if (peerIp == null) {
                peerIp = ClientWatch.ipOf(channel.getPeerAddress(InetSocketAddress.class));
            }
            return peerIp;
        }

        /**
         * "HTTP/1.1 status reason" ("HTTP/1.0" to an HTTP/1.0 request, as Undertow answers), the fields and the blank
         * line, in the connection's head buffer (valid until the next answer's head): the previous answer's is all
         * written, as answers go one after the other.
         */
        ByteBuffer head(boolean http10, int status, String reason, HeaderMap h) {
            ByteBuffer b = heads;
            int need = 32 + (reason == null ? 32 : reason.length());
            for (long f = h.fastIterateNonEmpty(); f != -1L; f = h.fiNextNonEmpty(f)) {
                HeaderValues v = h.fiCurrent(f);
                for (int i = 0; i < v.size(); i++) {
                    need += v.getHeaderName().length() + 4 + v.get(i).length();
                }
            }
            if (b == null || b.capacity() < need) {
                b = ByteBuffer.allocateDirect(Math.max(need, 1024));
                heads = b;
            }
            b.clear();
            ascii(b, http10 ? "HTTP/1.0 " : "HTTP/1.1 ");
            if (status >= 100 && status < 1000) {
                b.put((byte) ('0' + status / 100)).put((byte) ('0' + status / 10 % 10)).put((byte) ('0' + status % 10));
            } else {
                ascii(b, Integer.toString(status));
            }
            b.put((byte) ' ');
            ascii(b, reason != null ? reason : StatusCodes.getReason(status));
            b.put((byte) '\r').put((byte) '\n');
            for (long f = h.fastIterateNonEmpty(); f != -1L; f = h.fiNextNonEmpty(f)) {
                HeaderValues v = h.fiCurrent(f);
                for (int i = 0; i < v.size(); i++) {
                    v.getHeaderName().appendTo(b);
                    b.put((byte) ':').put((byte) ' ');
                    ascii(b, v.get(i));
                    b.put((byte) '\r').put((byte) '\n');
                }
            }
            b.put((byte) '\r').put((byte) '\n');
            return b.flip();
        }

        private void ascii(ByteBuffer b, String s) {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                b.put(c < 0x100 ? (byte) c : (byte) '?');
            }
        }

        @Override
        void deadlinePassed() {
            if (current == null) {
                IoUtils.safeClose(channel); // idle past idleMs, as Undertow's NO_REQUEST_TIMEOUT
            }
        }

        /**
         * Undertow takes the connection with the bytes held ({@link #in}, position at their end), read again beneath
         * its head guard.
         */
        private void handOver() {
            handedOver = true;
            if (idle != null && armed()) {
                idle.disarm(this);
            }
            ConduitStreamSourceChannel source = channel.getSourceChannel();
            source.setReadListener(null);
            source.suspendReads();
            PooledByteBuffer held = in;
            in = null;
            if (held != null && held.getBuffer().position() > 0) {
                held.getBuffer().flip();
                PushBackStreamSourceConduit pushBack = new PushBackStreamSourceConduit(source.getConduit());
                pushBack.pushBack(new PooledAdaptor(held));
                source.setConduit(pushBack);
            } else if (held != null) {
                held.close();
            }
            undertow.handleEvent(channel);
        }

        private void release() {
            if (in != null) {
                in.close();
                in = null;
            }
        }

        void closed() {
            if (handedOver) {
                return; // Undertow's from the hand-over on
            }
            if (idle != null && armed()) {
                idle.disarm(this);
            }
            release();
            FrontRequest r = current;
            if (r != null) {
                r.connectionClosed();
            }
        }
    }
}
