package dev.fulcrum.proxy;

import dev.fulcrum.time.SystemClock;
import io.undertow.util.HeaderMap;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.xnio.IoUtils;
import org.xnio.StreamConnection;
import org.xnio.XnioIoThread;
import org.xnio.conduits.ConduitStreamSinkChannel;
import org.xnio.conduits.ConduitStreamSourceChannel;

/**
 * One I/O thread's mirrored copies ({@link MirrorCopy}) to one backend, sent on connections of their own and, under
 * load, several to one write. A copy costs the proxy a {@code write} and a {@code read}; on loopback the write also
 * runs the backend's receive path, so at a 10% mirror the copies cost about 5% of the proxy's throughput. Copies that
 * come faster than one per {@link #DEFAULT_GAP_NANOS} are therefore held until that much has passed since the last
 * write, and go out together, pipelined on one idle connection (RFC 9112 9.3.2); their answers come back in order and
 * are read in as few reads. A copy that finds the pipe quiet goes at once, so at a developer's rates nothing waits.
 *
 * <p>A batch only ever goes to a connection with nothing outstanding (else a new one is opened), so one slow answer
 * never holds up a later batch. Copies of one batch are answered one after another by the backend, so batches are
 * made only while the backend answers the first copy of a batch within {@link #SLOW_NANOS}; a slower backend gets one
 * copy per connection. Copies behind an answer that says the connection closes were not taken (RFC 9112 9.6) and go
 * on another connection. A connection that closes without saying so, or stops answering, with copies owed fails them,
 * and they are never sent again; when more than one was owed, the backend gets one copy per connection for
 * {@link #SINGLE_NANOS}, and so does one that says it closes after its first answer (it cannot pipeline).
 *
 * <p>Answers are read and thrown away: their heads parsed ({@link ResponseHeadParser}, {@link ResponseFraming}) into
 * the copy's header map, their bodies skipped by length, chunk by chunk, or to the connection's end. Anything a
 * connection cannot frame (a bad head, a bad chunk, bytes nobody asked for) closes it and fails what it still owed.
 * A connection owing answers that brings no byte for {@code readMs} is closed, its copies timed out.
 *
 * <p>Owned by its I/O thread: every method runs there, and so nothing here is synchronised.
 */
final class MirrorPipe {
    /** A copy as the pipe sees it: its bytes, and where its answer is told. Called on the pipe's thread. */
    interface Copy {
        /** Where the answer's end-to-end headers go. */
        HeaderMap answerHeaders();

        /** The answer was read whole: {@code bodyBytes} of body, as framed. */
        void answered(int status, long bodyBytes);

        /** No whole answer: {@code status} 0 when not even its head came; {@code timedOut} when readMs passed. */
        void failed(IOException e, int status, boolean timedOut);
    }

    /** Copies closer together than this on one pipe are batched (see the class comment). */
    static final long DEFAULT_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    /**
     * A backend whose answer to the first copy of a write takes longer than this gets copies one per connection
     * (a batch's copies are answered one after another). Loopback answers take a few ms under full load.
     */
    static final long SLOW_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** A batch is written at once when it holds this many copies or bytes. */
    static final int MAX_BATCH = 32;
    static final int MAX_BATCH_BYTES = 64 * 1024;
    private static final int MAX_IDLE = 16;
    /** How long a backend that lost pipelined copies gets them one per connection. */
    static final long SINGLE_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final BackendConnections conns;
    private final XnioIoThread thread;
    /** Null when readMs is 0 (no read deadline). */
    private final ReadDeadlines deadlines;
    private final long gapNanos;
    /** An answer to a write's first copy slower than this turns batching off ({@link #SLOW_NANOS} in the proxy). */
    private final long slowNanos;
    private final long idleNanos;

    /**
     * The socket read buffer and its copy as bytes, for every connection of the pipe (one thread reads one at a time).
     */
    private final ByteBuffer in = ByteBuffer.allocateDirect(16 * 1024);
    /** Where copies are gathered to be written ({@link Line#writeSome}). */
    private final ByteBuffer stage = ByteBuffer.allocateDirect(MAX_BATCH_BYTES);
    private final byte[] bytes = new byte[16 * 1024];
    private final Tokens.Values values = new Tokens.Values();
    private final ArrayDeque<Entry> held = new ArrayDeque<>();
    private int heldBytes;
    private boolean flushSet;
    private long lastWrite = Long.MIN_VALUE / 2;
    private final ArrayDeque<Line> idle = new ArrayDeque<>();
    /**
     * Batching is off: the backend answers slowly ({@code slow}), or lost copies pipelined to it (until
     * {@code singleUntil}, {@link #SINGLE_NANOS} after it last did).
     */
    private boolean slow;
    private boolean single;
    private long singleUntil;
    private boolean closed;

    MirrorPipe(BackendConnections conns, XnioIoThread thread, ReadDeadlines deadlines, long gapNanos, long slowNanos,
            long idleNanos) {
        this.conns = conns;
        this.thread = thread;
        this.deadlines = deadlines;
        this.gapNanos = gapNanos;
        this.slowNanos = slowNanos;
        this.idleNanos = idleNanos;
    }

    /** One copy and its request's bytes; {@code writtenAt} is set on the first copy of each write, else 0. */
    private static final class Entry {
        final Copy copy;
        final ByteBuffer request;
        final boolean headRequest;
        long writtenAt;

        Entry(Copy copy, ByteBuffer request, boolean headRequest) {
            this.copy = copy;
            this.request = request;
            this.headRequest = headRequest;
        }
    }

    /** Sends {@code request} (a whole request, flipped; kept until written) for {@code copy}. */
    void send(Copy copy, ByteBuffer request, boolean headRequest) {
        if (closed) {
            copy.failed(new IOException("backend removed"), 0, false);
            return;
        }
        Entry e = new Entry(copy, request, headRequest);
        long now = SystemClock.nanoTime();
        if (single && now - singleUntil >= 0) {
            single = false;
        }
        if (slow || single) {
            writeBatch(new Entry[] {e}, now);
            return;
        }
        held.addLast(e);
        heldBytes += request.remaining();
        if (held.size() >= MAX_BATCH || heldBytes >= MAX_BATCH_BYTES || now - lastWrite >= gapNanos) {
            flush();
        } else if (!flushSet) {
            flushSet = true;
            long ms = Math.max(1, (lastWrite + gapNanos - now + 999_999) / 1_000_000);
            try {
                thread.executeAfter(this::flushLater, ms, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException stopping) {
                flush();
            }
        }
    }

    private void flushLater() {
        flushSet = false;
        flush();
    }

    /** Writes what is held, as one batch. */
    private void flush() {
        if (held.isEmpty()) {
            return;
        }
        Entry[] batch = held.toArray(new Entry[0]);
        held.clear();
        heldBytes = 0;
        writeBatch(batch, SystemClock.nanoTime());
    }

    /** Writes {@code batch} on an idle connection, or on a new one. */
    private void writeBatch(Entry[] batch, long now) {
        lastWrite = now;
        while (!idle.isEmpty()) {
            Line l = idle.pollLast();
            if (l.connection.isOpen() && now - l.idleSince < idleNanos) {
                l.write(batch, now);
                return;
            }
            l.close();
        }
        conns.open(thread, new BackendConnections.Opened() {
            @Override
            public void opened(StreamConnection c) {
                new Line(c).write(batch, SystemClock.nanoTime());
            }

            @Override
            public void openFailed(IOException e) {
                for (Entry x : batch) {
                    x.copy.failed(e, 0, false);
                }
            }
        });
    }

    /** Copies pipelined to the backend went unanswered: for a while, one per connection. */
    private void lostPipelined(long now) {
        single = true;
        singleUntil = now + SINGLE_NANOS;
    }

    /** Closes the idle connections; copies in flight finish on theirs. */
    void close() {
        closed = true;
        while (!idle.isEmpty()) {
            idle.pollLast().close();
        }
    }

    /** How many idle connections the pipe keeps (for tests). */
    int idleLines() {
        return idle.size();
    }

    // ---------------------------------------------------------------- one connection

    private enum State { HEAD, FIXED, CHUNK_SIZE, CHUNK_EXT, CHUNK_DATA, CHUNK_END, TRAILER, TO_CLOSE }

    /** A connection and the copies it owes answers to, in the order they were written. */
    private final class Line extends ReadDeadlines.Waiter {
        final StreamConnection connection;
        final ConduitStreamSourceChannel source;
        final ConduitStreamSinkChannel sink;
        final ArrayDeque<Entry> owed = new ArrayDeque<>();
        final ResponseHeadParser head = new ResponseHeadParser();
        /** Unwritten buffers, from {@code outAt} on. */
        ByteBuffer[] out;
        int outAt;
        State state = State.HEAD;
        /** A head that came in pieces, gathered. */
        byte[] carry;
        int carryLength;
        int status;
        long remaining;
        long bodyBytes;
        /** Digits of a chunk size line seen, and bytes of the trailer line being read. */
        int sizeDigits;
        int lineBytes;
        int trailerBytes;
        boolean reuse;
        /** Answers read on this connection. */
        int answers;
        long idleSince;
        boolean closedLine;

        Line(StreamConnection connection) {
            this.connection = connection;
            this.source = connection.getSourceChannel();
            this.sink = connection.getSinkChannel();
            source.setReadListener(ch -> readable());
            source.resumeReads();
        }

        void write(Entry[] batch, long now) {
            out = new ByteBuffer[batch.length];
            for (int i = 0; i < batch.length; i++) {
                batch[i].writtenAt = i == 0 ? now : 0;
                owed.addLast(batch[i]);
                out[i] = batch[i].request;
            }
            outAt = 0;
            arm(now);
            if (!writeSome()) {
                sink.setWriteListener(ch -> {
                    if (writeSome()) {
                        ch.suspendWrites();
                        ch.setWriteListener(null);
                        if (!closedLine && owed.isEmpty()) {
                            rest(SystemClock.nanoTime()); // answered before its last byte was written
                        }
                    }
                });
                sink.resumeWrites();
            }
        }

        /**
         * Writes what it can, through the pipe's direct buffer; true when all is on the wire (or the line failed).
         * The copies are heap buffers, which the JDK would otherwise copy one by one into a temporary direct buffer
         * of its own, one write each.
         */
        private boolean writeSome() {
            try {
                for (;;) {
                    while (outAt < out.length && !out[outAt].hasRemaining()) {
                        outAt++; // nothing (left) to write of it
                    }
                    if (outAt == out.length) {
                        break;
                    }
                    stage.clear();
                    for (int k = outAt; k < out.length && stage.hasRemaining(); k++) {
                        ByteBuffer b = out[k];
                        int n = Math.min(b.remaining(), stage.remaining());
                        stage.put(stage.position(), b, b.position(), n);
                        stage.position(stage.position() + n);
                    }
                    stage.flip();
                    int left = sink.write(stage);
                    for (int k = outAt; left > 0; k++) {
                        ByteBuffer b = out[k];
                        int m = Math.min(left, b.remaining());
                        b.position(b.position() + m);
                        left -= m;
                    }
                    if (stage.hasRemaining()) {
                        return false; // the socket is full: the rest when it is writable
                    }
                }
                out = null;
                return true;
            } catch (IOException e) {
                fail(e, false);
                return true;
            }
        }

        private void arm(long now) {
            if (deadlines != null) {
                deadlines.disarm(this);
                deadlines.arm(this, now);
            }
        }

        @Override
        void deadlinePassed() {
            fail(new IOException("mirror: no answer within " + deadlines.readMs() + " ms"), true);
        }

        private void readable() {
            in.clear();
            int n;
            try {
                n = source.read(in);
            } catch (IOException e) {
                fail(e, false);
                return;
            }
            if (n == 0) {
                return;
            }
            if (n < 0) {
                ended();
                return;
            }
            in.flip();
            in.get(bytes, 0, n);
            try {
                consume(bytes, 0, n);
            } catch (IOException e) {
                fail(e, false);
                return;
            } catch (RuntimeException e) { // Undertow's header map refuses some heads
                fail(new IOException("invalid response head from backend: " + e, e), false);
                return;
            }
            if (!closedLine && !owed.isEmpty()) {
                arm(SystemClock.nanoTime()); // bytes came: the backend is still answering
            }
        }

        /**
         * The backend closed the connection: the end of a body framed so (the rest owed fail), else the failure of
         * every copy owed, or of none when it was idle.
         */
        private void ended() {
            if (state == State.TO_CLOSE) {
                answered(false);
                return;
            }
            fail(new IOException("backend closed the connection before answering"), false);
        }

        private void consume(byte[] b, int pos, int len) throws IOException {
            while (pos < len && !closedLine) {
                switch (state) {
                    case HEAD -> {
                        if (carry != null) {
                            if (carryLength + len - pos > carry.length) {
                                carry = Arrays.copyOf(carry, Math.max(carry.length * 2, carryLength + len - pos));
                            }
                            System.arraycopy(b, pos, carry, carryLength, len - pos);
                            b = carry;
                            len = carryLength + len - pos;
                            pos = 0;
                            carry = null;
                        }
                        if (owed.isEmpty()) {
                            throw new IOException("backend sent bytes nobody asked for");
                        }
                        Entry e = owed.peekFirst();
                        HeaderMap headers = e.copy.answerHeaders();
                        int end = ResponseHeadParser.headEnd(b, pos, len) < 0 ? -1
                                : head.parse(b, pos, len, headers, values);
                        if (end < 0) {
                            if (len - pos > BackendConnection.MAX_HEAD) {
                                throw new IOException("response head larger than " + BackendConnection.MAX_HEAD
                                        + " bytes");
                            }
                            carry = Arrays.copyOfRange(b, pos, pos + Math.max(len - pos, 1024));
                            carryLength = len - pos;
                            return;
                        }
                        pos = end;
                        if (head.interim()) {
                            headers.clear();
                            continue;
                        }
                        status = head.status();
                        long framing = ResponseFraming.of(head, e.headRequest, headers);
                        reuse = ResponseFraming.allowsReuse(head, framing);
                        bodyBytes = 0;
                        if (framing == ResponseFraming.CHUNKED) {
                            state = State.CHUNK_SIZE;
                            remaining = 0;
                            sizeDigits = 0;
                        } else if (framing == ResponseFraming.UNTIL_CLOSE) {
                            state = State.TO_CLOSE;
                        } else if (framing == 0) {
                            answered(reuse);
                        } else {
                            state = State.FIXED;
                            remaining = framing;
                        }
                    }
                    case FIXED, CHUNK_DATA -> {
                        int n = (int) Math.min(remaining, len - pos);
                        pos += n;
                        remaining -= n;
                        bodyBytes += n;
                        if (remaining == 0) {
                            if (state == State.FIXED) {
                                answered(reuse);
                            } else {
                                state = State.CHUNK_END;
                                lineBytes = 0;
                            }
                        }
                    }
                    case TO_CLOSE -> {
                        bodyBytes += len - pos;
                        pos = len;
                    }
                    case CHUNK_SIZE -> pos = chunkSize(b, pos, len);
                    case CHUNK_EXT, CHUNK_END, TRAILER -> pos = line(b, pos, len);
                }
            }
        }

        /** A chunk's size in hex (RFC 9112 7.1), up to its extensions or the end of the line. */
        private int chunkSize(byte[] b, int pos, int len) throws IOException {
            while (pos < len) {
                byte c = b[pos];
                int d = Character.digit(c, 16);
                if (d >= 0) {
                    if (++sizeDigits > 15) {
                        throw new IOException("chunk size from backend too long");
                    }
                    remaining = remaining * 16 + d;
                    pos++;
                    continue;
                }
                if (sizeDigits == 0) {
                    throw new IOException("invalid chunk size from backend (got byte " + (c & 0xff) + ")");
                }
                state = State.CHUNK_EXT; // ';' extensions, a CR or the LF: the rest of the line is read and ignored
                lineBytes = 0;
                return pos;
            }
            return pos;
        }

        /** The rest of a size line, the CR LF after a chunk's data, or one trailer line. */
        private int line(byte[] b, int pos, int len) throws IOException {
            while (pos < len) {
                byte c = b[pos++];
                if (c != '\n') {
                    if (c != '\r') {
                        if (state == State.CHUNK_END) {
                            throw new IOException("chunk data from backend longer than its size");
                        }
                        lineBytes++;
                    }
                    if (lineBytes > 4096 || trailerBytes + lineBytes > BackendConnection.MAX_HEAD) {
                        throw new IOException("chunk line or trailer from backend too long");
                    }
                    continue;
                }
                switch (state) {
                    case CHUNK_EXT -> {
                        if (remaining == 0) {
                            state = State.TRAILER;
                            trailerBytes = 0;
                        } else {
                            state = State.CHUNK_DATA;
                        }
                    }
                    case CHUNK_END -> {
                        state = State.CHUNK_SIZE;
                        sizeDigits = 0;
                        remaining = 0;
                    }
                    default -> { // TRAILER: an empty line ends the answer
                        if (lineBytes == 0) {
                            answered(reuse);
                            return pos;
                        }
                        trailerBytes += lineBytes;
                    }
                }
                lineBytes = 0;
                return pos;
            }
            return pos;
        }

        /** The first copy owed has its whole answer; {@code again}: the connection may carry more. */
        private void answered(boolean again) {
            Entry e = owed.pollFirst();
            state = State.HEAD;
            long now = SystemClock.nanoTime();
            if (e.writtenAt != 0) {
                slow = now - e.writtenAt > slowNanos; // how long the backend takes to answer one copy
            }
            e.copy.answered(status, bodyBytes);
            answers++;
            if (!again && !owed.isEmpty() && !head.keepsAlive()) {
                // it said it would close: it processes nothing more on this connection (RFC 9112 9.6), so the copies
                // behind that answer were never taken and go on another connection (nginx says so after
                // keepalive_requests answers); a backend that closes after every answer gets them one by one
                Entry[] notTaken = owed.toArray(new Entry[0]);
                owed.clear();
                for (Entry x : notTaken) {
                    x.request.rewind(); // written here, whole or in part: all of it again
                }
                boolean oneEach = answers == 1;
                if (oneEach) {
                    lostPipelined(now);
                }
                fail(new IOException("backend closed the connection as it said it would"), false);
                if (oneEach) {
                    for (Entry x : notTaken) {
                        writeBatch(new Entry[] {x}, now);
                    }
                } else {
                    writeBatch(notTaken, now);
                }
                return;
            }
            if (!again) {
                if (!owed.isEmpty()) {
                    lostPipelined(now); // it answered one and closes: it cannot take copies pipelined
                }
                fail(new IOException("backend closed the connection after an earlier copy's answer"), false);
                return;
            }
            if (owed.isEmpty() && out == null) {
                rest(now);
            }
        }

        /** Owes nothing: back to the pipe's idle connections, or closed when the pipe has enough. */
        private void rest(long now) {
            if (deadlines != null) {
                deadlines.disarm(this);
            }
            if (closed || idle.size() >= MAX_IDLE) {
                close();
            } else {
                idleSince = now;
                idle.addLast(this);
            }
        }

        /** Closes the line; every copy still owed fails. */
        private void fail(IOException e, boolean timedOut) {
            if (owed.size() > 1) {
                lostPipelined(SystemClock.nanoTime());
            }
            idle.remove(this);
            close();
            int headSeen = state != State.HEAD ? status : 0;
            boolean first = true;
            while (!owed.isEmpty()) {
                Entry x = owed.pollFirst();
                x.copy.failed(e, first ? headSeen : 0, timedOut);
                first = false;
            }
        }

        void close() {
            closedLine = true;
            if (deadlines != null) {
                deadlines.disarm(this);
            }
            IoUtils.safeClose(connection);
        }
    }
}
