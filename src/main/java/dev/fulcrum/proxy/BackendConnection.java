package dev.fulcrum.proxy;

import dev.fulcrum.threads.PerThread;
import dev.fulcrum.time.SystemClock;
import io.undertow.conduits.ChunkedStreamSinkConduit;
import io.undertow.conduits.ChunkedStreamSourceConduit;
import io.undertow.conduits.FixedLengthStreamSourceConduit;
import io.undertow.connector.ByteBufferPool;
import io.undertow.connector.PooledByteBuffer;
import io.undertow.util.AbstractAttachable;
import io.undertow.util.HeaderMap;
import io.undertow.util.Headers;
import io.undertow.util.PooledAdaptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.xnio.ChannelExceptionHandler;
import org.xnio.ChannelListener;
import org.xnio.IoUtils;
import org.xnio.StreamConnection;
import org.xnio.XnioIoThread;
import org.xnio.channels.StreamSinkChannel;
import org.xnio.channels.StreamSourceChannel;
import org.xnio.conduits.ConduitStreamSinkChannel;
import org.xnio.conduits.AbstractStreamSourceConduit;
import org.xnio.conduits.ConduitStreamSourceChannel;
import org.xnio.conduits.PushBackStreamSourceConduit;
import org.xnio.conduits.StreamSinkConduit;
import org.xnio.conduits.StreamSourceConduit;

/**
 * One keep-alive HTTP/1.1 connection to a backend, on the raw XNIO channels: it writes the request head the
 * proxy composed in one buffer ({@link RequestHead}), gathers the response head from its reads and has it parsed
 * straight into the client exchange's response headers ({@link ResponseHeadParser}), and hands the body over,
 * framed as its head says ({@link ResponseFraming}): whole when it came with the head (the common case for small
 * answers), or as a channel that streams it. Undertow's own client would cost a request conduit, a parser into a
 * header map of its own, a conduit stack per request and a spurious read after every response.
 *
 * <p>Owned by one I/O thread: opened, used, pooled and closed there, so nothing here is synchronised. Reads
 * stay on for the connection's whole life (no interest change per request, so no {@code epoll_ctl}); while
 * idle, "readable" means the backend hung up or sent something nobody asked for, and either closes it.
 */
final class BackendConnection {
    /** What the connection tells the exchange using it, on the connection's I/O thread. */
    interface Listener {
        /** The request head is on the wire. */
        void headWritten();

        /**
         * The response head arrived and its end-to-end headers were added to the map given to {@link #send}: the
         * hop-by-hop ones (RFC 9110 7.6.1) and those its Connection header names are left out, but for a 101 its
         * Upgrade. {@code body} is the whole body when it came with the head (possibly empty); when null,
         * the body streams from {@link #responseBody()}. The buffer is a view on the thread's read buffer, valid
         * only during this call: write it out or copy it.
         */
        void responseArrived(int status, String reason, ByteBuffer body);

        /** The connection failed before a whole response head arrived. */
        void failed(IOException e);

        /**
         * While a body streams: {@code true} when a read found nothing (the body now waits on the backend),
         * {@code false} when one brought bytes or the end. Not called while the client holds the body up.
         */
        default void bodyWaiting(boolean waiting) {
        }
    }

    /** Socket reads while waiting for a head are at most this; what follows the head then fits one pooled buffer. */
    private static final int READ_CHUNK = 16 * 1024;
    /** A response head larger than this is refused (nginx: "upstream sent too big header"). */
    static final int MAX_HEAD = 64 * 1024;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);

    /** Per I/O thread: the socket read buffer and its copy as bytes, reused by every connection of the thread. */
    private static final class Scratch {
        final ByteBuffer in = ByteBuffer.allocateDirect(READ_CHUNK);
        final byte[] bytes = new byte[READ_CHUNK];
        final Tokens.Values values = new Tokens.Values();
    }

    private static final PerThread<Scratch> SCRATCH = PerThread.withInitial(Scratch::new);

    private final StreamConnection connection;
    private final ConduitStreamSourceChannel source;
    private final ConduitStreamSinkChannel sink;
    private final StreamSourceConduit rawSource;
    private final StreamSinkConduit rawSink;
    private final ByteBufferPool buffers;
    private final ChannelListener<ConduitStreamSourceChannel> reader = ch -> readable();

    private Listener listener;
    private HeaderMap headers;
    private boolean headRequest;
    /** A response head that came in several reads, gathered here until it is whole. */
    private byte[] partial;
    private int partialLength;
    /** For an upgrade: what the backend sent right behind its 101 head, handed to the tunnel. */
    private byte[] afterHead;
    private boolean headParsed;
    /** Parses each answer's head on this connection; holds the last one's status and hop-by-hop fields. */
    private final ResponseHeadParser responseHead = new ResponseHeadParser();
    /** Both true while no exchange uses the connection (so a fresh one that went unused can be pooled). */
    private boolean requestDone = true;
    private boolean responseDone = true;
    private boolean reusable = true;
    private HeaderMap chunkProbe;
    /** While a chunked body streams: the conduit its decoder hands back whatever it read past the last chunk. */
    private PushBackStreamSourceConduit chunkedRest;
    private long idleSince;
    /** Handed out from the idle pool (it may have been closed by the backend just as it was sent on). */
    private boolean pooled;

    BackendConnection(StreamConnection connection, ByteBufferPool buffers) {
        this.connection = connection;
        this.source = connection.getSourceChannel();
        this.sink = connection.getSinkChannel();
        this.rawSource = source.getConduit();
        this.rawSink = sink.getConduit();
        this.buffers = buffers;
        source.setReadListener(reader);
        source.resumeReads();
    }

    XnioIoThread ioThread() {
        return connection.getIoThread();
    }

    boolean isOpen() {
        return connection.isOpen();
    }

    void close() {
        IoUtils.safeClose(connection);
    }

    long idleSince() {
        return idleSince;
    }

    boolean pooled() {
        return pooled;
    }

    void pooled(boolean fromPool) {
        this.pooled = fromPool;
    }

    /**
     * Sends a request head ({@code head}, flipped; it may be a scratch buffer, it is not kept) and waits for the
     * answer, whose headers go into {@code responseHeaders}. Call on the connection's I/O thread, when idle.
     */
    void send(ByteBuffer head, HeaderMap responseHeaders, boolean headRequest, Listener l) {
        listener = l;
        headers = responseHeaders;
        this.headRequest = headRequest;
        headParsed = false;
        requestDone = false;
        responseDone = false;
        try {
            while (head.hasRemaining() && sink.write(head) > 0) {
                // a head is small; the socket normally takes it at once
            }
        } catch (IOException e) {
            fail(e);
            return;
        }
        if (!head.hasRemaining()) {
            l.headWritten();
            return;
        }
        ByteBuffer rest = ByteBuffer.allocate(head.remaining()).put(head).flip();
        sink.setWriteListener(ch -> {
            try {
                while (rest.hasRemaining() && ch.write(rest) > 0) {
                    // keep going while the socket takes it
                }
            } catch (IOException e) {
                ch.suspendWrites();
                fail(e);
                return;
            }
            if (!rest.hasRemaining()) {
                ch.suspendWrites();
                ch.setWriteListener(null);
                if (listener == l) {
                    l.headWritten();
                }
            }
        });
        sink.resumeWrites();
    }

    /** Where the request body goes: straight to the socket, or through chunked coding when its length is unknown. */
    StreamSinkChannel requestBody(boolean chunked) {
        if (chunked) {
            // Undertow's encoder writes no last chunk for an empty body: it marks this map instead (see below)
            chunkProbe = new HeaderMap();
            sink.setConduit(new ChunkedStreamSinkConduit(rawSink, buffers, false, false, chunkProbe, c -> { },
                    new AbstractAttachable() { }));
        }
        return sink;
    }

    /**
     * The request body was read to its end: finishes the chunked coding, flushes, and tells {@code done} once
     * every byte is on the wire (at once, or later from the write listener).
     */
    void endRequestBody(Runnable done, ChannelExceptionHandler<? super StreamSinkChannel> onError) {
        boolean chunked = chunkProbe != null;
        try {
            if (chunked) {
                sink.shutdownWrites(); // the encoder's last chunk; with passClose off, the socket stays open
            }
            if (!sink.flush()) {
                sink.setWriteListener(ch -> {
                    try {
                        if (ch.flush()) {
                            requestEnded(chunked, done);
                        }
                    } catch (IOException e) {
                        ch.suspendWrites();
                        onError.handleException(ch, e);
                    }
                });
                sink.resumeWrites();
                return;
            }
            requestEnded(chunked, done);
        } catch (IOException e) {
            onError.handleException(sink, e);
        }
    }

    private void requestEnded(boolean chunked, Runnable done) throws IOException {
        sink.suspendWrites();
        sink.setWriteListener(null);
        if (chunked) {
            boolean empty = chunkProbe.contains(Headers.CONTENT_LENGTH);
            chunkProbe = null;
            sink.setConduit(rawSink);
            if (empty) {
                ByteBuffer last = ByteBuffer.wrap(LAST_CHUNK);
                while (last.hasRemaining() && sink.write(last) > 0) {
                    // five bytes into a socket that just drained
                }
                if (last.hasRemaining()) {
                    throw new IOException("backend did not take the end of the request body");
                }
            }
        }
        requestDone = true;
        done.run();
    }

    /** The request has no body: it was complete with its head. */
    void requestComplete() {
        requestDone = true;
    }

    /** The streamed response body: reads return -1 at its end. */
    StreamSourceChannel responseBody() {
        return source;
    }

    /**
     * Both directions of the exchange ended cleanly and the backend keeps the connection open: ready for the
     * next request. Resets the per-exchange state; false means close it instead. {@code now}:
     * {@link SystemClock#nanoTime()}, from when it went idle.
     */
    boolean finishExchange(long now) {
        if (chunkedRest != null) {
            reusable &= nothingAfterLastChunk();
            chunkedRest = null;
        }
        boolean ok = requestDone && responseDone && reusable && connection.isOpen();
        if (ok && source.getConduit() != rawSource) {
            // a streamed body: its framing conduit goes, and the connection reads for itself again
            source.setConduit(rawSource);
            source.setReadListener(reader);
            source.resumeReads();
        }
        listener = null;
        headers = null;
        partial = null;
        afterHead = null;
        idleSince = now;
        return ok;
    }

    /**
     * Whether a chunked body ended where the backend's bytes did. Anything read past the last chunk was sent
     * unasked (a broken backend, or one answering twice): the next answer on this connection could not be
     * trusted. Bytes the decoder did not keep are still in the socket, and cost a read here to find.
     */
    private boolean nothingAfterLastChunk() {
        if (!responseDone) {
            return false;
        }
        ByteBuffer probe = SCRATCH.get().in;
        probe.clear();
        try {
            return chunkedRest.read(probe) == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Hands the raw connection to a tunnel after a 101, with whatever the backend already sent behind the head. */
    StreamConnection upgrade() {
        reusable = false;
        listener = null;
        source.setReadListener(null);
        source.suspendReads();
        if (afterHead != null && afterHead.length > 0) {
            PushBackStreamSourceConduit pushBack = new PushBackStreamSourceConduit(rawSource);
            PooledByteBuffer p = buffers.allocate();
            p.getBuffer().put(afterHead).flip();
            pushBack.pushBack(new PooledAdaptor(p));
            source.setConduit(pushBack);
        }
        afterHead = null;
        return connection;
    }

    // ---------------------------------------------------------------- reading

    private void readable() {
        if (listener == null || headParsed) {
            idleRead();
            return;
        }
        Scratch s = SCRATCH.get();
        ByteBuffer in = s.in;
        in.clear();
        int n;
        try {
            n = source.read(in);
        } catch (IOException e) {
            fail(e);
            return;
        }
        if (n == 0) {
            return;
        }
        if (n < 0) {
            fail(new IOException("backend closed the connection before answering"));
            return;
        }
        in.flip();
        byte[] b;
        int len;
        if (partial == null) {
            b = s.bytes;
            in.get(b, 0, n);
            len = n;
        } else {
            if (partialLength + n > partial.length) {
                partial = Arrays.copyOf(partial, Math.max(partial.length * 2, partialLength + n));
            }
            in.get(partial, partialLength, n);
            b = partial;
            len = partialLength + n;
        }
        try {
            parse(b, len, s);
        } catch (IOException e) {
            fail(e);
        } catch (RuntimeException e) {
            // Undertow's header map refuses some heads (3000 repeats of one name): a bad answer now, not a 504 after
            // readMs with the exception lost in XNIO's log
            fail(new IOException("invalid response head from backend: " + e, e));
        }
    }

    /** Readable while no answer is awaited: a hang-up, or bytes nobody asked for; either way the connection ends. */
    private void idleRead() {
        ByteBuffer in = SCRATCH.get().in;
        in.clear();
        try {
            if (source.read(in) == 0) {
                return; // nothing after all
            }
        } catch (IOException e) {
            // closing anyway
        }
        reusable = false;
        source.suspendReads();
        close();
    }

    private void parse(byte[] b, int len, Scratch s) throws IOException {
        int pos = 0;
        for (;;) {
            // a head that came in pieces is parsed once it is all here (the usual one, whole in one read, at once)
            int end = b == partial && ResponseHeadParser.headEnd(b, pos, len) < 0 ? -1
                    : responseHead.parse(b, pos, len, headers, s.values);
            if (end < 0) {
                if (len - pos > MAX_HEAD) {
                    throw new IOException("response head larger than " + MAX_HEAD + " bytes");
                }
                if (b != partial || pos > 0) {
                    byte[] keep = new byte[Math.max(2 * READ_CHUNK, len - pos)];
                    System.arraycopy(b, pos, keep, 0, len - pos);
                    partial = keep;
                }
                partialLength = len - pos;
                return;
            }
            partial = null;
            if (responseHead.interim()) {
                pos = end; // an interim answer (103 Early Hints): the real one follows
                continue;
            }
            body(b, end, len, s);
            return;
        }
    }

    /** The head is parsed: works out how the body is framed ({@link ResponseFraming}) and hands the answer over. */
    private void body(byte[] b, int end, int len, Scratch s) throws IOException {
        int status = responseHead.status();
        long framing = ResponseFraming.of(responseHead, headRequest, headers);
        if (!ResponseFraming.allowsReuse(responseHead, framing)) {
            reusable = false;
        }
        if (status == 101) {
            afterHead = Arrays.copyOfRange(b, end, len);
            // what the backend sends next belongs to the tunnel: unread until upgrade() hands the connection
            // over (read here, it would look like bytes on an idle connection and close it)
            source.suspendReads();
        }
        boolean chunked = framing == ResponseFraming.CHUNKED;
        long length = chunked ? -1 : framing; // -1: until the backend closes
        headParsed = true;
        Listener l = listener;
        if (!chunked && length >= 0 && len - end >= length) {
            if (len - end > length && status != 101) {
                reusable = false; // more than it announced: the next answer on this connection could not be trusted
            }
            responseDone = true;
            l.responseArrived(status, responseHead.reason(), length == 0 ? EMPTY : bodyView(b, end, (int) length, s));
            return;
        }
        PushBackStreamSourceConduit pushBack = new PushBackStreamSourceConduit(rawSource);
        if (len > end) {
            PooledByteBuffer p = buffers.allocate();
            p.getBuffer().put(b, end, len - end).flip();
            pushBack.pushBack(new PooledAdaptor(p));
        }
        // the framing conduit says when the body was read to its end (a close-delimited body never is: no reuse)
        StreamSourceConduit framed = chunked
                ? new ChunkedStreamSourceConduit(pushBack, pushBack, buffers, c -> responseDone = true,
                        new AbstractAttachable() { }, connection)
                : length >= 0 ? new FixedLengthStreamSourceConduit(pushBack, length, c -> responseDone = true) : pushBack;
        chunkedRest = chunked ? pushBack : null;
        source.setReadListener(null);
        source.setConduit(new Watched(framed, l));
        l.responseArrived(status, responseHead.reason(), null);
    }

    /** Tells the listener whether each body read found bytes, so it can time a backend that stalls mid-body. */
    private static final class Watched extends AbstractStreamSourceConduit<StreamSourceConduit> {
        private final Listener listener;

        Watched(StreamSourceConduit next, Listener listener) {
            super(next);
            this.listener = listener;
        }

        private <T extends Number> T seen(T n) {
            listener.bodyWaiting(n.longValue() == 0);
            return n;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return seen(next.read(dst));
        }

        @Override
        public long read(ByteBuffer[] dsts, int offs, int len) throws IOException {
            return seen(next.read(dsts, offs, len));
        }

        @Override
        public long transferTo(long position, long count, java.nio.channels.FileChannel target) throws IOException {
            return seen(next.transferTo(position, count, target));
        }

        @Override
        public long transferTo(long count, ByteBuffer throughBuffer, StreamSinkChannel target) throws IOException {
            long n = next.transferTo(count, throughBuffer, target);
            listener.bodyWaiting(n == 0 && !throughBuffer.hasRemaining()); // bytes left over: the target is full
            return n;
        }
    }

    /**
     * The body bytes {@code b[from, from + length)} as a direct buffer: the read buffer itself when {@code b} is its
     * copy (same offsets, no copying), else copied into it from the gathered array when they fit (the read buffer is
     * free: what it read was copied out), else the gathered array itself, which this connection no longer holds. The
     * JDK writes a heap buffer by copying it into a temporary direct buffer first, one it caches per thread.
     */
    private static ByteBuffer bodyView(byte[] b, int from, int length, Scratch s) {
        if (b == s.bytes) {
            s.in.limit(from + length).position(from);
            return s.in;
        }
        if (length <= s.in.capacity()) {
            s.in.clear();
            return s.in.put(b, from, length).flip();
        }
        return ByteBuffer.wrap(b, from, length);
    }

    private void fail(IOException e) {
        Listener l = listener;
        listener = null;
        reusable = false;
        close();
        if (l != null) {
            l.failed(e);
        }
    }

    @Override
    public String toString() {
        return "BackendConnection" + connection.getPeerAddress();
    }
}
