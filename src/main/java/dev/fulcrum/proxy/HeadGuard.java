package dev.fulcrum.proxy;

import io.undertow.Undertow;
import io.undertow.connector.PooledByteBuffer;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.protocol.http.HttpServerConnection;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.xnio.ChannelListener;
import org.xnio.ChannelListeners;
import org.xnio.StreamConnection;
import org.xnio.channels.AcceptingChannel;
import org.xnio.channels.StreamSinkChannel;
import org.xnio.conduits.AbstractStreamSourceConduit;
import org.xnio.conduits.Conduits;
import org.xnio.conduits.StreamSourceConduit;

/**
 * Follows the bytes of each request head on an HTTP/1.x client connection beneath Undertow's parser, for what that
 * parser takes in silence: it unfolds obs-fold lines into the value before them (so {@code X-A: 1\r\n
 * Content-Length: 5} reaches the handler as one field {@code X-A: 1 Content-Length: 5}, and a backend that unfolds
 * differently frames another body), it reads any {@code HTTP/x.y} as HTTP/1.1, and it refuses the empty lines a
 * client may send before a request line (RFC 9112 2.2 says to ignore them). Here, per head:
 * <ul>
 *   <li>a line that starts with a space or a tab (RFC 9112 5.2) marks the head {@link #FOLDED};</li>
 *   <li>a request line ending in {@code HTTP/M.m} with M other than 0 or 1 (and not the {@code HTTP/2.0} of an
 *       HTTP/2 preface, which Undertow handles) marks it {@link #VERSION};</li>
 *   <li>CR and LF bytes before the request line are taken out of what the parser reads.</li>
 * </ul>
 * {@link BalancingHandler} answers a marked head (400, 505) through {@link #takeProblem}.
 *
 * <p>Worked example: {@code GET /a HTTP/3.0\r\nX: 1\r\n 2\r\n\r\nbody}. The request line's last eight bytes before its
 * CR are {@code HTTP/3.0}: VERSION. After the next LF comes {@code X}, an ordinary line; after the one after it a
 * space: FOLDED. An LF followed by CR LF ends the head; {@code body} passes unread, as does everything up to the next
 * head, which starts when the exchange ends ({@link #exchangeDone}) and may already wait in the connection's extra
 * bytes (a pipelined request), where it is followed at once.
 *
 * <p>Only head bytes are looked at, one comparison each outside the request line; bodies and tunnels pass through
 * untouched. Installed on every connection a listener accepts ({@link #installOn}), so that Undertow's connection
 * takes it as its original source conduit; runs on the connection's I/O thread.
 */
final class HeadGuard extends AbstractStreamSourceConduit<StreamSourceConduit> {
    /** A header line of the head began with a space or a tab. */
    static final int FOLDED = 1;
    /** The request line named an HTTP major version other than 0 or 1. */
    static final int VERSION = 2;

    private static final long HTTP_SLASH = 0x485454502f000000L; // "HTTP/" in the top five bytes
    private static final long HTTP_2_0 = 0x485454502f322e30L;

    private enum At { LINE, LINE_START, BLANK_CR }

    /** Reading a head: from the end of an exchange (or the connection's start) to the head's empty line. */
    private boolean head = true;
    /** A byte of this head other than a leading CR or LF has been seen. */
    private boolean started;
    private boolean requestLine = true;
    private At at = At.LINE;
    /** The request line's last eight bytes so far, and those before its CR. */
    private long tail;
    private long version;
    private int problem;
    /** Never again (an upgraded connection: what follows is no HTTP/1.1). */
    private boolean off;

    HeadGuard(StreamSourceConduit next) {
        super(next);
    }

    /**
     * Puts a guard on every connection {@code listener} accepts from now on, beneath what Undertow builds on it (the
     * TLS conduit of an https listener included). Undertow 2.3 offers no hook there: the listener's accepting channel
     * and open listener are private fields of its ListenerInfo. Should they move, nothing is installed, and false
     * says so.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static boolean installOn(Undertow.ListenerInfo listener, Http1Front front) {
        try {
            AcceptingChannel<StreamConnection> channel = (AcceptingChannel<StreamConnection>) field("channel").get(listener);
            ChannelListener<StreamConnection> open = (ChannelListener<StreamConnection>) field("openListener").get(listener);
            ChannelListener<StreamConnection> guarded = c -> {
                c.getSourceChannel().setConduit(new HeadGuard(c.getSourceChannel().getConduit()));
                open.handleEvent(c);
            };
            ChannelListener<StreamConnection> accept = front == null ? guarded : c -> front.accepted(c, guarded);
            ((ChannelListener.Setter) channel.getAcceptSetter()).set(ChannelListeners.openListenerAdapter(accept));
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    private static Field field(String name) throws NoSuchFieldException {
        Field f = Undertow.ListenerInfo.class.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    /** The guard of {@code exchange}'s connection, or null (HTTP/2, or a connection accepted without one). */
    static HeadGuard of(HttpServerExchange exchange) {
        return exchange.getConnection() instanceof HttpServerConnection c
                && c.getOriginalSourceConduit() instanceof HeadGuard g ? g : null;
    }

    /**
     * What was wrong with the head just parsed: 0, or {@link #FOLDED} and {@link #VERSION} or-ed together; cleared
     * by the reading.
     */
    int takeProblem() {
        int p = problem;
        problem = 0;
        return p;
    }

    /** The version the request line named, as {@code HTTP/M.m} (when {@link #VERSION} was marked). */
    String version() {
        return "HTTP/" + (char) (version >> 16 & 0xff) + "." + (char) (version & 0xff);
    }

    /**
     * An exchange ended: a persistent connection's next bytes are the next head (those already read wait in the
     * connection's extra bytes and are followed now); an upgraded one carries something else from now on. Called
     * before Undertow looks for the next request.
     */
    static void exchangeDone(HttpServerExchange exchange) {
        HeadGuard g = exchange == null ? null : of(exchange);
        if (g == null || g.off) {
            return;
        }
        if (exchange.isUpgrade()) {
            g.off = true;
            g.head = false;
        } else if (exchange.isPersistent()) {
            g.nextHead((HttpServerConnection) exchange.getConnection());
        }
    }

    private void nextHead(HttpServerConnection c) {
        head = true;
        started = false;
        requestLine = true;
        at = At.LINE;
        tail = 0;
        version = 0;
        problem = 0;
        PooledByteBuffer extra = c.getExtraBytes();
        if (extra != null) {
            ByteBuffer b = extra.getBuffer();
            b.position(b.position() + follow(b, b.position(), b.limit()));
            if (!b.hasRemaining()) {
                // empty lines only: Undertow would take an empty extra buffer for a request and never read again
                c.setExtraBytes(null);
                extra.close();
            }
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (!head) {
            return next.read(dst);
        }
        int from = dst.position();
        int n = next.read(dst);
        if (n <= 0) {
            return n;
        }
        int drop = follow(dst, from, from + n);
        if (drop > 0) {
            // empty lines before the request line: the bytes after them move up
            int end = dst.position();
            for (int i = from + drop; i < end; i++) {
                dst.put(i - drop, dst.get(i));
            }
            dst.position(end - drop);
        }
        return n - drop;
    }

    @Override
    public long read(ByteBuffer[] dsts, int offs, int len) throws IOException {
        if (!head) {
            return next.read(dsts, offs, len);
        }
        for (int i = offs; i < offs + len; i++) {
            if (dsts[i].hasRemaining()) {
                return read(dsts[i]); // a head is read into one buffer at a time: one path to follow it
            }
        }
        return 0;
    }

    @Override
    public long transferTo(long position, long count, FileChannel target) throws IOException {
        if (!head) {
            return next.transferTo(position, count, target);
        }
        ByteBuffer through = ByteBuffer.allocate((int) Math.min(count, 8192)); // a head goes to a file: not on the hot path
        int n = read(through);
        if (n <= 0) {
            return n;
        }
        through.flip();
        return target.write(through, position);
    }

    @Override
    public long transferTo(long count, ByteBuffer throughBuffer, StreamSinkChannel target) throws IOException {
        if (!head) {
            return next.transferTo(count, throughBuffer, target);
        }
        return Conduits.transfer(this, count, throughBuffer, target);
    }

    /**
     * Follows {@code b[from, to)}, bytes of the current head; stops at its end. Returns how many of the first bytes
     * are CR or LF before the request line, which the caller takes out.
     */
    private int follow(ByteBuffer b, int from, int to) {
        int i = from;
        if (!started) {
            while (i < to && (b.get(i) == '\r' || b.get(i) == '\n')) {
                i++;
            }
            if (i == to) {
                return to - from;
            }
            started = true;
        }
        int drop = i - from;
        for (; i < to && head; i++) {
            step(b.get(i));
        }
        return drop;
    }

    private void step(byte c) {
        if (at == At.LINE) {
            if (c == '\n') {
                if (requestLine) {
                    requestLineEnded();
                }
                at = At.LINE_START;
            } else if (requestLine) {
                if (c == '\r') {
                    version = tail;
                } else {
                    tail = tail << 8 | (c & 0xff);
                }
            }
        } else if (at == At.LINE_START) {
            if (c == ' ' || c == '\t') {
                problem |= FOLDED;
                at = At.LINE;
            } else {
                at = c == '\r' ? At.BLANK_CR : At.LINE;
            }
        } else if (c == '\n') {
            head = false; // CR LF CR LF: the head is over, the body (if any) is not looked at
        } else {
            at = At.LINE;
        }
    }

    /** {@code version} holds the eight bytes before the request line's CR: {@code HTTP/M.m} for a request. */
    private void requestLineEnded() {
        requestLine = false;
        long v = version;
        int major = (int) (v >> 16 & 0xff);
        int minor = (int) (v & 0xff);
        if ((v & 0xffffffffff000000L) == HTTP_SLASH && (v >> 8 & 0xff) == '.' && isDigit(major) && isDigit(minor)
                && major > '1' && v != HTTP_2_0) {
            problem |= VERSION;
        }
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }
}
