package dev.fulcrum.proxy;

import dev.fulcrum.engine.Lease;
import dev.fulcrum.engine.Outcome;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.Router;
import dev.fulcrum.engine.routing.Mirror;
import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.requests.RequestStream;
import dev.fulcrum.time.SystemClock;
import io.undertow.util.HeaderMap;
import io.undertow.util.Methods;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.xnio.XnioIoThread;
import org.xnio.channels.StreamSinkChannel;
import org.xnio.conduits.AbstractStreamSourceConduit;
import org.xnio.conduits.ConduitReadableByteChannel;
import org.xnio.conduits.Conduits;
import org.xnio.conduits.StreamSourceConduit;

/**
 * A copy of one client request sent to a route's mirror pool ({@code routes[i].mirror}), whose answer is read to its
 * end and thrown away. The client never waits for it: it runs beside the exchange on the same I/O thread, on
 * connections of the mirror's own ({@link MirrorPipe}: under load, several copies to one write), and nothing it does
 * reaches the exchange. A request without a body is copied at once; one with a body is copied once the client's body
 * was read to its end, from the bytes teed off as it streamed to the real backend (a {@link Tee} on the client's
 * request channel, which Undertow reads once whatever the attempts). A body over {@code maxBodyBytes} (by its
 * Content-Length, or as a chunked body grows past it) is not copied ({@link Mirror#tooLarge}).
 *
 * <p>The copy goes to one pick of the mirror pool, never retried and never sent twice; no backend to take it, or
 * {@value #MAX_IN_FLIGHT_PER_THREAD} copies already in flight on this I/O thread, drops it ({@link Mirror#dropped}).
 * Its answer's status is counted ({@link Mirror#answered}, 0 when none came: refused, reset, or nothing within
 * {@code readMs}); the lease goes back with that outcome. The copy is recorded in the request stream as its own
 * sample marked {@code mirror}, and is no request of a client: not in the engine's answers, the metrics' requests or
 * the access log.
 *
 * <p>Example: {@code POST /orders} with a 300-byte body on a route mirroring to pool shadow: the body streams to the
 * real backend, and as its last byte is read the copy goes to a shadow backend with {@code Content-Length: 300} and
 * {@code X-Fulcrum-Mirror: 1}; the client has its answer whenever the real backend gives it, whatever shadow does.
 *
 * <p>Everything here runs on the exchange's I/O thread.
 */
final class MirrorCopy implements RequestContext, MirrorPipe.Copy {
    /** Copies one I/O thread keeps in flight at most; more are dropped rather than queued. */
    static final int MAX_IN_FLIGHT_PER_THREAD = 256;

    private final BalancingHandler handler;
    private final ExchangeRequest request;
    private final Mirror mirror;
    private final String targetPath;
    private final XnioIoThread thread;
    /** The client's body as teed so far; null for a request without one, or once it grew too large. */
    private byte[] body;
    private int bodyLength;
    private boolean tooLarge;
    /** Sent, or given up: a copy goes out at most once. */
    private boolean launched;
    private boolean done;
    /** Holds one of the thread's places for copies in flight ({@link BalancingHandler#mirrorTake}). */
    private boolean counted;
    private boolean timedOut;
    private Lease lease;
    private HeaderMap responseHeaders;
    /** The copy's answer status; 0 until its head arrived. */
    private int status;
    private long startNanos;
    private long bytesOut;

    private MirrorCopy(BalancingHandler handler, ExchangeRequest request, Mirror mirror, String targetPath,
                       byte[] body) {
        this.handler = handler;
        this.request = request;
        this.mirror = mirror;
        this.targetPath = targetPath;
        this.thread = request.getIoThread();
        this.body = body;
    }

    /**
     * Copies {@code request} to its route's mirror when the route has one and the request is in the share
     * it copies. With a body, the copy waits for it: the tee goes onto the request's channel, so call this before
     * anything reads the body; null is returned. Without one ({@code bodyless}), the copy is returned, for the caller
     * to {@link #send} once the real request is on its way.
     */
    static MirrorCopy offer(BalancingHandler handler, ExchangeRequest request, String targetPath, boolean bodyless) {
        Router.Route route = request.route;
        Mirror mirror = route.mirror();
        if (!mirror.sampled(handler.random())) {
            return null;
        }
        request.clientIp(); // read now, while the client's connection is surely the request's
        if (bodyless) {
            return new MirrorCopy(handler, request, mirror, targetPath, null);
        }
        long length = request.getRequestContentLength(); // -1: chunked, grown as it comes
        if (length > mirror.maxBodyBytes()) {
            mirror.tooLarge();
            return null;
        }
        byte[] first = new byte[(int) (length >= 0 ? length : Math.min(mirror.maxBodyBytes(), 4096))];
        MirrorCopy copy = new MirrorCopy(handler, request, mirror, targetPath, first);
        request.exchange().addRequestWrapper((factory, ex) -> new Tee(factory.create(), copy));
        return null;
    }

    /** Sends a copy of a request without a body ({@link #offer} returned it). */
    void send() {
        if (!launched) {
            launchSafely();
        }
    }

    // ---------------------------------------------------------------- the body, teed

    /** {@code n} body bytes were read into {@code from} at {@code at}. */
    private void teed(ByteBuffer from, int at, int n) {
        if (tooLarge || launched) {
            return;
        }
        if ((long) bodyLength + n > mirror.maxBodyBytes()) {
            tooLarge = true;
            body = null;
            mirror.tooLarge();
            return;
        }
        if (bodyLength + n > body.length) {
            body = java.util.Arrays.copyOf(body, Math.min(mirror.maxBodyBytes(), Math.max(body.length * 2,
                    bodyLength + n)));
        }
        from.get(at, body, bodyLength, n);
        bodyLength += n;
    }

    /** The client's body was read to its end: the copy goes, after the read that found the end is done. */
    private void bodyEnded() {
        if (tooLarge || launched) {
            return;
        }
        launched = true;
        thread.execute(this::launchSafely);
    }

    /**
     * Sits on the client's request channel and copies what is read through it. Every way of reading goes through
     * {@link #read(ByteBuffer)}, so no byte passes untold.
     */
    private static final class Tee extends AbstractStreamSourceConduit<StreamSourceConduit> {
        private final MirrorCopy copy;

        Tee(StreamSourceConduit next, MirrorCopy copy) {
            super(next);
            this.copy = copy;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            int at = dst.position();
            int n = next.read(dst);
            if (n > 0) {
                copy.teed(dst, at, n);
            } else if (n < 0) {
                copy.bodyEnded();
            }
            return n;
        }

        @Override
        public long read(ByteBuffer[] dsts, int offs, int len) throws IOException {
            long total = 0;
            for (int i = offs; i < offs + len; i++) {
                if (!dsts[i].hasRemaining()) {
                    continue;
                }
                int n = read(dsts[i]);
                if (n < 0) {
                    return total == 0 ? -1 : total;
                }
                total += n;
                if (dsts[i].hasRemaining()) {
                    break; // nothing more for now
                }
            }
            return total;
        }

        @Override
        public long transferTo(long position, long count, FileChannel target) throws IOException {
            return target.transferFrom(new ConduitReadableByteChannel(this), position, count);
        }

        @Override
        public long transferTo(long count, ByteBuffer throughBuffer, StreamSinkChannel target) throws IOException {
            return Conduits.transfer(this, count, throughBuffer, target);
        }
    }

    // ---------------------------------------------------------------- sending

    /** {@link #launch}, whose failure is the copy's alone: nothing of it may reach the client's exchange. */
    private void launchSafely() {
        try {
            launch();
        } catch (RuntimeException e) {
            handler.log().attemptFailed(lease == null ? mirror.pool() : lease.backend().id(), Outcome.CONNECT_FAILURE,
                    new IOException("mirror copy failed: " + e, e));
            finish(false);
        }
    }

    private void launch() {
        launched = true;
        Pool pool = handler.pool(mirror.pool());
        if (pool == null || !handler.mirrorTake(thread)) {
            mirror.dropped();
            done = true;
            return;
        }
        counted = true;
        long now = SystemClock.nanoTime();
        lease = pool.pick(this, null, handler.engineNanos(now));
        if (lease == null) {
            mirror.dropped();
            finish(false);
            return;
        }
        startNanos = now;
        ByteBuffer copy = RequestHead.composeMirror(request, targetPath, lease.backend().authority(),
                handler.settings().preserveHost(), body, bodyLength);
        body = null;
        responseHeaders = new HeaderMap(); // its own: another copy's answer may be parsed meanwhile
        handler.connections(lease.backend())
                .mirrorPipe(thread, handler.settings().readMs() > 0 ? handler.deadlines(thread) : null)
                .send(this, copy, request.getRequestMethod().equals(Methods.HEAD));
    }

    @Override
    public HeaderMap answerHeaders() {
        return responseHeaders;
    }

    @Override
    public void answered(int status, long bodyBytes) {
        this.status = status;
        this.bytesOut = bodyBytes;
        finish(true);
    }

    @Override
    public void failed(IOException e, int status, boolean timedOut) {
        if (done) {
            return;
        }
        this.status = status;
        this.timedOut = timedOut;
        handler.log().attemptFailed(lease.backend().id(), timedOut ? Outcome.TIMEOUT : Outcome.CONNECT_FAILURE, e);
        finish(false);
    }

    /**
     * The copy is over, once: {@code whole} when its answer was read to the end, else it failed. The lease goes back,
     * the outcome is counted and recorded.
     */
    private void finish(boolean whole) {
        if (done) {
            return;
        }
        done = true;
        long now = SystemClock.nanoTime();
        if (counted) {
            handler.mirrorGive(thread);
        }
        if (lease == null) {
            return; // never sent: launch counted why
        }
        Outcome outcome = status == 0 ? (timedOut ? Outcome.TIMEOUT : Outcome.CONNECT_FAILURE)
                : !whole ? (timedOut ? Outcome.TIMEOUT : Outcome.CONNECT_FAILURE)
                : status >= 500 ? Outcome.SERVER_ERROR : Outcome.SUCCESS;
        lease.release(outcome, handler.engineNanos(now));
        mirror.answered(status);
        RequestStream stream = handler.requests();
        if (stream != null) {
            int recorded = status != 0 ? status : timedOut ? 504 : 502;
            RequestRecords.writeMirror(stream, mirror.pool(), request, lease.backend(), outcome, status != 0,
                    recorded, startNanos, now, bodyLength, bytesOut, responseHeaders);
        }
    }

    // ---------------------------------------------------------------- the request, for the mirror pool's pick

    @Override
    public String clientIp() {
        return request.clientIp();
    }

    @Override
    public String method() {
        return request.method();
    }

    @Override
    public String path() {
        return request.path();
    }

    @Override
    public String header(String name) {
        return request.header(name);
    }

    @Override
    public String cookie(String name) {
        return request.cookie(name);
    }

    @Override
    public String queryParam(String name) {
        return request.queryParam(name);
    }
}
