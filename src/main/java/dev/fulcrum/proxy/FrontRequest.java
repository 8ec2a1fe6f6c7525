package dev.fulcrum.proxy;

import dev.fulcrum.threads.PerThread;
import dev.fulcrum.time.SystemClock;
import io.undertow.connector.ByteBufferPool;
import io.undertow.server.ExchangeCompletionListener;
import io.undertow.server.HttpServerExchange;
import io.undertow.conduits.ChunkedStreamSinkConduit;
import io.undertow.util.AbstractAttachable;
import io.undertow.util.DateUtils;
import io.undertow.util.HeaderMap;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import io.undertow.util.Protocols;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import org.xnio.IoUtils;
import org.xnio.XnioIoThread;
import org.xnio.channels.StreamSinkChannel;
import org.xnio.channels.StreamSourceChannel;
import org.xnio.conduits.AbstractStreamSinkConduit;
import org.xnio.conduits.ConduitStreamSinkChannel;
import org.xnio.conduits.ConduitWritableByteChannel;
import org.xnio.conduits.Conduits;
import org.xnio.conduits.StreamSinkConduit;

/**
 * A request {@link Http1Front} read itself: a head without a body (or with a Content-Length of 0), on a plain HTTP/1.1
 * connection. Its answer's head
 * is written by {@link Answer} ahead of the first body bytes, in the same system call, framed as Undertow frames an
 * HTTP/1.1 answer (the backend's Content-Length, else chunked; none for HEAD, 1xx, 204 and 304), with a Date when
 * the backend sent none, and {@code Connection: keep-alive}, or {@code close} on the last answer of the connection.
 * To an HTTP/1.0 request the answer says {@code HTTP/1.0}, and one without a length runs to the connection's end,
 * as Undertow answers such a client, which reads no chunks.
 *
 * <p>Runs on its connection's I/O thread.
 */
final class FrontRequest extends ExchangeRequest {
    private static final ExchangeCompletionListener.NextListener NEXT = () -> { };
    /** Where the chunked encoder looks for trailers: none here. */
    private static final AbstractAttachable NO_ATTACHMENTS = new AbstractAttachable() { };
    /** The Date field's value: {@code Mon, 07 Dec 2026 08:00:00 GMT}. */
    private static final PerThread<SecondText> DATES = SecondText.perThread(ms -> DateUtils.toDateString(new Date(ms)));

    private final Http1Front.Connection connection;
    private final HttpString method;
    private final String uri;
    private final String query;
    private final HeaderMap requestHeaders;
    private final long start;
    private final long contentLength;
    private boolean persistent;
    /** An HTTP/1.0 request: answered as one. */
    private final boolean http10;
    private Runnable dispatched;
    private ExchangeCompletionListener first;
    private ExchangeCompletionListener second;
    private ProxyExchange watching;
    private HeaderMap responseHeaders;
    private int status = 200;
    private String reason;
    private Answer answer;
    private ConduitStreamSinkChannel sink;
    private boolean ended;

    FrontRequest(Http1Front.Connection connection, FrontHead head) {
        super(null);
        this.connection = connection;
        this.method = head.method;
        this.uri = head.path;
        this.query = head.query;
        this.requestHeaders = head.headers;
        this.persistent = !head.close;
        this.http10 = head.http10;
        this.contentLength = head.lengthZero ? 0 : -1;
        this.start = SystemClock.nanoTime();
    }

    /** The handler returned: what it dispatched runs now, on this thread (Undertow's dispatch does the same). */
    void dispatched() {
        Runnable task = dispatched;
        dispatched = null;
        if (task != null) {
            task.run();
        }
    }

    /** The connection closed with this request under way: a hang-up while waiting, or a cut-off answer. */
    void connectionClosed() {
        ProxyExchange e = watching;
        watching = null;
        if (e != null) {
            e.clientClosed();
        }
        complete();
    }

    /** The first value of {@code name} in the query (the front takes no query that needs decoding), or null. */
    @Override
    public String queryParam(String name) {
        if (query.isEmpty()) {
            return null;
        }
        int from = 0;
        while (from <= query.length()) {
            int end = query.indexOf('&', from);
            if (end < 0) {
                end = query.length();
            }
            int eq = query.indexOf('=', from);
            int nameEnd = eq < 0 || eq > end ? end : eq;
            if (nameEnd - from == name.length() && query.startsWith(name, from)) {
                return nameEnd == end ? "" : query.substring(nameEnd + 1, end);
            }
            from = end + 1;
        }
        return null;
    }

    @Override
    HttpServerExchange exchange() {
        return null;
    }

    @Override
    String peerIp() {
        return connection.peerIp();
    }

    @Override
    HttpString getRequestMethod() {
        return method;
    }

    @Override
    String getRequestURI() {
        return uri;
    }

    @Override
    boolean isHostIncludedInRequestURI() {
        return false;
    }

    @Override
    String getRequestPath() {
        return uri;
    }

    @Override
    String getQueryString() {
        return query;
    }

    @Override
    HttpString getProtocol() {
        return http10 ? Protocols.HTTP_1_0 : Protocols.HTTP_1_1;
    }

    @Override
    String getRequestScheme() {
        return "http";
    }

    @Override
    HeaderMap getRequestHeaders() {
        return requestHeaders;
    }

    @Override
    long getRequestContentLength() {
        return contentLength;
    }

    @Override
    long getRequestStartTime() {
        return start;
    }

    @Override
    boolean isRequestComplete() {
        return true;
    }

    @Override
    XnioIoThread getIoThread() {
        return connection.channel.getIoThread();
    }

    @Override
    boolean http1() {
        return true;
    }

    @Override
    boolean secure() {
        return false;
    }

    @Override
    boolean clientOpen() {
        return connection.channel.isOpen();
    }

    @Override
    void closeClient() {
        IoUtils.safeClose(connection.channel);
    }

    @Override
    ByteBufferPool buffers() {
        return connection.buffers();
    }

    @Override
    void dispatch(Runnable task) {
        dispatched = task;
    }

    @Override
    void addExchangeCompleteListener(ExchangeCompletionListener l) {
        if (first == null) {
            first = l;
        } else if (second == null) {
            second = l;
        } else {
            throw new IllegalStateException("a front request takes two completion listeners");
        }
    }

    @Override
    void watch(ProxyExchange e) {
        watching = e;
    }

    @Override
    void unwatch(ProxyExchange e) {
        if (watching == e) {
            watching = null;
        }
    }

    @Override
    void probeWhileWaiting() {
        // the connection's reads stay on while a request runs: its read listener sees a hang-up at once
    }

    @Override
    void stopProbing() {
    }

    @Override
    HeaderMap getResponseHeaders() {
        if (responseHeaders == null) {
            responseHeaders = new HeaderMap();
        }
        return responseHeaders;
    }

    @Override
    int getStatusCode() {
        return status;
    }

    @Override
    void setStatusCode(int status) {
        this.status = status;
    }

    @Override
    void setReasonPhrase(String reason) {
        this.reason = reason;
    }

    @Override
    void setPersistent(boolean persistent) {
        this.persistent = persistent;
    }

    @Override
    boolean isResponseStarted() {
        return sink != null;
    }

    @Override
    StreamSinkChannel getResponseChannel() {
        if (sink != null) {
            return null; // given out once, as Undertow's
        }
        answer = new Answer(connection.channel.getSinkChannel().getConduit(), this);
        HeaderMap h = getResponseHeaders();
        StreamSinkConduit top = answer;
        if (!entityless() && (h.contains(Headers.TRANSFER_ENCODING) || !h.contains(Headers.CONTENT_LENGTH))) {
            h.remove(Headers.CONTENT_LENGTH);
            if (http10) {
                // an HTTP/1.0 client reads no chunks: the body runs to the connection's end
                h.remove(Headers.TRANSFER_ENCODING);
                persistent = false;
            } else {
                // chunked, by Undertow's own encoder, as its HTTP/1.1 answers are (a HEAD's head says so too)
                h.put(Headers.TRANSFER_ENCODING, "chunked");
                if (method != Methods.HEAD) {
                    top = new Counted(new ChunkedStreamSinkConduit(answer, connection.buffers(), false, true, h,
                            c -> { }, NO_ATTACHMENTS), answer);
                }
            }
        }
        sink = new ConduitStreamSinkChannel(connection.channel, top);
        return sink;
    }

    @Override
    void send(String text) {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        getResponseHeaders().put(Headers.CONTENT_LENGTH, body.length);
        StreamSinkChannel out = getResponseChannel();
        ByteBuffer b = ByteBuffer.wrap(body);
        try {
            while (b.hasRemaining() && out.write(b) > 0) {
                // the socket took some
            }
        } catch (IOException e) {
            closeClient();
            return;
        }
        if (!b.hasRemaining()) {
            ResponseRelay.finishWrites(out);
            return;
        }
        out.getWriteSetter().set(ch -> {
            try {
                while (b.hasRemaining()) {
                    if (ch.write(b) == 0) {
                        return;
                    }
                }
            } catch (IOException e) {
                closeClient();
                return;
            }
            ch.suspendWrites();
            ResponseRelay.finishWrites(ch);
        });
        out.resumeWrites();
    }

    @Override
    long getResponseBytesSent() {
        return answer == null ? 0 : answer.bodyBytes;
    }

    @Override
    void endExchange() {
        if (ended) {
            return;
        }
        if (sink == null) {
            if (!noBody()) {
                getResponseHeaders().put(Headers.CONTENT_LENGTH, "0");
            }
            getResponseChannel();
        }
        ResponseRelay.finishWrites(sink);
    }

    private boolean noBody() {
        return method == Methods.HEAD || entityless();
    }

    /** An answer that has no body whatever the request (1xx, 204, 304). */
    private boolean entityless() {
        return status < 200 || status == 204 || status == 304;
    }

    /** The answer is all out (or the connection closed): the listeners hear of it, and the connection goes on. */
    private void complete() {
        if (ended) {
            return;
        }
        ended = true;
        ExchangeCompletionListener a = second;
        ExchangeCompletionListener b = first;
        second = null;
        first = null;
        // last added first, as Undertow calls them
        if (a != null) {
            a.exchangeEvent(null, NEXT);
        }
        if (b != null) {
            b.exchangeEvent(null, NEXT);
        }
        connection.ended(this, persistent);
    }

    /**
     * The answer's channel beneath its body: the head goes out before the first body bytes (gathered into one write),
     * composed at that moment from the status and fields as they are then (Undertow's chunked encoder above it turns an
     * empty chunked body into {@code Content-Length: 0} at its end), then the body as it is given. Terminating writes
     * does not close the connection: once everything is flushed, the request is complete.
     */
    static final class Answer extends Writes {
        private final FrontRequest request;
        /** No body goes out (HEAD, 1xx, 204, 304): what is written is dropped, as Undertow's HEAD conduit does. */
        private final boolean bodyless;
        /** Body bytes written; chunked, the encoder above counts them instead. */
        long bodyBytes;
        private boolean headComposed;
        private ByteBuffer head;
        private boolean terminated;

        Answer(StreamSinkConduit next, FrontRequest request) {
            super(next);
            this.request = request;
            this.bodyless = request.noBody();
        }

        /** The head as it stands now, once: what Undertow's HTTP/1.1 answer adds to the fields, and the fields. */
        private ByteBuffer head() {
            if (!headComposed) {
                headComposed = true;
                HeaderMap h = request.getResponseHeaders();
                if (!h.contains(Headers.DATE)) {
                    h.put(Headers.DATE, DATES.get().at(SystemClock.currentTimeMillis()));
                }
                if (request.entityless()) {
                    h.remove(Headers.CONTENT_LENGTH);
                    h.remove(Headers.TRANSFER_ENCODING);
                } else {
                    h.put(Headers.CONNECTION, request.persistent ? "keep-alive" : "close");
                }
                head = request.connection.head(request.http10, request.status, request.reason, h);
            }
            return head;
        }

        /** Writes what is left of the head; true once it is all out. */
        private boolean flushHead() throws IOException {
            ByteBuffer h = head();
            if (h != null && h.hasRemaining()) {
                next.write(h);
            }
            return h == null || !h.hasRemaining();
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            if (bodyless) {
                int n = src.remaining();
                src.position(src.limit());
                flushHead();
                return n;
            }
            int before = src.remaining();
            ByteBuffer h = head();
            if (h.hasRemaining()) {
                ByteBuffer[] both = request.connection.headAndBody;
                both[0] = h;
                both[1] = src;
                next.write(both, 0, 2);
                both[0] = both[1] = null;
            } else {
                next.write(src);
            }
            int n = before - src.remaining();
            bodyBytes += n;
            return n;
        }

        @Override
        public long write(ByteBuffer[] srcs, int offs, int len) throws IOException {
            long n = 0;
            for (int i = offs; i < offs + len; i++) {
                if (!srcs[i].hasRemaining()) {
                    continue;
                }
                n += write(srcs[i]);
                if (srcs[i].hasRemaining()) {
                    break;
                }
            }
            return n;
        }

        @Override
        public void terminateWrites() {
            terminated = true;
        }

        @Override
        public boolean flush() throws IOException {
            if (!flushHead() || !next.flush()) {
                return false;
            }
            if (terminated) {
                request.complete();
            }
            return true;
        }

        @Override
        public boolean isWriteShutdown() {
            return terminated;
        }

        @Override
        public void truncateWrites() {
            terminated = true;
            IoUtils.safeClose(request.connection.channel);
        }
    }

    /** A conduit whose final writes and transfers go through its own {@code write}, as every byte must here. */
    private abstract static class Writes extends AbstractStreamSinkConduit<StreamSinkConduit> {
        Writes(StreamSinkConduit next) {
            super(next);
        }

        @Override
        public int writeFinal(ByteBuffer src) throws IOException {
            return Conduits.writeFinalBasic(this, src);
        }

        @Override
        public long writeFinal(ByteBuffer[] srcs, int offs, int len) throws IOException {
            return Conduits.writeFinalBasic(this, srcs, offs, len);
        }

        @Override
        public long transferFrom(FileChannel src, long position, long count) throws IOException {
            return src.transferTo(position, count, new ConduitWritableByteChannel(this));
        }

        @Override
        public long transferFrom(StreamSourceChannel source, long count, ByteBuffer throughBuffer) throws IOException {
            return IoUtils.transfer(source, count, throughBuffer, new ConduitWritableByteChannel(this));
        }
    }

    /** Counts the body's bytes above the chunked encoder. */
    private static final class Counted extends Writes {
        private final Answer answer;

        Counted(StreamSinkConduit next, Answer answer) {
            super(next);
            this.answer = answer;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            int n = next.write(src);
            answer.bodyBytes += n;
            return n;
        }

        @Override
        public long write(ByteBuffer[] srcs, int offs, int len) throws IOException {
            long n = next.write(srcs, offs, len);
            answer.bodyBytes += n;
            return n;
        }
    }
}
