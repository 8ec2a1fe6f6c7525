package dev.fulcrum.proxy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.Lease;
import dev.fulcrum.engine.Outcome;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.PoolSnapshot;
import dev.fulcrum.engine.Router;
import dev.fulcrum.engine.routing.ClassCeiling;
import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.requests.RequestStream;
import dev.fulcrum.time.SystemClock;
import io.undertow.server.Connectors;
import io.undertow.server.ExchangeCompletionListener;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import io.undertow.util.StatusCodes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;
import org.xnio.channels.StreamSinkChannel;

/**
 * One client request on its way through the proxy, and the sequencer of its steps: pick a backend, get a connection,
 * send the head ({@link RequestHead}) and the body ({@link RequestUpload}), pass the answer on ({@link ResponseRelay})
 * or splice a WebSocket through ({@link UpgradeTunnel}), and on failure try another backend when the
 * {@link RetryPolicy} allows. Where the exchange is, is one {@link ExchangePhase}; the helpers do the I/O of their
 * step and report back here, where what follows is decided.
 *
 * <p>Everything here runs on the exchange's I/O thread, so the fields need no synchronisation. The lease is released
 * here only, exactly once, from whichever completion path comes first (a failed attempt, a broken answer, the
 * client's hang-up, a refused body, the tunnel's close, the exchange's end); {@link Lease#release} ignores a second.
 */
final class ProxyExchange extends ReadDeadlines.Waiter implements Runnable, ExchangeCompletionListener {
    /** nginx's status for a request whose client closed the connection before the answer. */
    static final int CLIENT_CLOSED = 499;

    private final BalancingHandler handler;
    private final Pool pool;
    /** The request and the client's side of the exchange. */
    private final ExchangeRequest request;
    private final String targetPath;
    /** The request may go out again after it reached a backend ({@link RetryPolicy#resendable}). */
    private final boolean resendable;
    private final boolean upgrade;
    /** No body to forward: known at the start (a body is only read by the transfer to the backend). */
    private final boolean bodyless;
    private Set<Backend> tried;
    /** Backends picked so far: what {@link RetryPolicy#maxRetries} bounds. */
    private int attempts;
    private Lease lease;
    private BackendConnection connection;
    /** The pool {@link #connection} came from and goes back to (closed, and closing it, once its backend is removed). */
    private BackendConnections connectionOwner;
    private ExchangePhase phase = ExchangePhase.CONNECTING;
    /** Which try is current (see {@link Attempt}): one per pick, and one for a retry on a fresh connection. */
    private int attemptNo;
    /** The one retry on a fresh connection after a pooled one was found closed has been made. */
    private boolean freshRetryMade;
    /** Where the request body goes while it streams to the backend. */
    private StreamSinkChannel upload;
    /**
     * The client's side of the answer (Undertow hands it out once); a streamed answer is flushed whenever the backend
     * has nothing more for now.
     */
    private StreamSinkChannel responseSink;
    private Outcome outcome = Outcome.SUCCESS;
    private Lease stickyLease;
    /** A sticky cookie chose the first backend. */
    private final boolean sticky;
    /** When the current attempt began ({@link SystemClock#nanoTime()}), for the request's record. */
    private long attemptStart;
    /** How the current attempt ended, once its lease went back. */
    private Outcome attemptOutcome;
    private long attemptEnd;
    /** The attempts before the current one, for the request's record: made at the first retry. */
    private RequestRecords.Earlier earlier;

    ProxyExchange(BalancingHandler handler, Pool pool, ExchangeRequest request, String targetPath, Lease stickyLease) {
        this.handler = handler;
        this.pool = pool;
        this.request = request;
        this.targetPath = targetPath;
        this.resendable = handler.retries().resendable(request.getRequestMethod());
        // only an HTTP/1.x connection can be handed over: an HTTP/2 stream cannot, so a WebSocket
        // upgrade asked over HTTP/2 goes to the backend as an ordinary request, its Upgrade header dropped
        this.upgrade = request.getRequestHeaders().contains(Headers.UPGRADE)
                && !"h2c".equalsIgnoreCase(request.getRequestHeaders().getFirst(Headers.UPGRADE))
                && request.http1();
        this.stickyLease = stickyLease;
        this.sticky = stickyLease != null;
        this.bodyless = request.isRequestComplete();
    }

    /**
     * Starts the exchange, from Undertow's dispatch. The exchange is its own dispatch task and completion listener:
     * two lambdas less to allocate per request.
     */
    @Override
    public void run() {
        request.addExchangeCompleteListener(this);
        request.watch(this);
        keepClientReadsOn();
        // a route's mirror: its tee must be on the body's channel before the first attempt reads it; an upgrade's
        // "body" is the tunnel, and is not copied
        Router.Route route = request.route;
        MirrorCopy copy = route != null && route.mirror() != null && !upgrade
                ? MirrorCopy.offer(handler, request, targetPath, bodyless) : null;
        attempt();
        if (copy != null) {
            copy.send(); // after the real request, which it never holds up
        }
    }

    @Override
    public void exchangeEvent(HttpServerExchange ex, NextListener next) {
        try {
            onExchangeComplete();
        } finally {
            next.proceed();
        }
    }

    /**
     * Undertow suspends reads on an HTTP/1.1 client connection when it has parsed a request and resumes
     * them when the exchange ends: one epoll_ctl call each way, per request, while the request waits on a
     * backend. Turning them back on before the selector runs again cancels both calls, and the client watch's
     * probe reads whatever comes meanwhile: a hang-up ends the exchange at once, a pipelined request waits its
     * turn. Over TLS the probe reads through the connection's TLS conduit (decrypted bytes go back the same way).
     * Not for bodies (their channel takes over the reads), upgrades (the tunnel takes over the connection) or
     * HTTP/2 (a stream is no connection of its own).
     */
    private void keepClientReadsOn() {
        if (bodyless && !upgrade && request.http1()) {
            request.probeWhileWaiting();
        }
    }

    private void attempt() {
        // one clock reading per attempt serves the lease, the idle pool and the read deadline; the first attempt has
        // Undertow's, read as the request arrived
        long start = request.getRequestStartTime();
        long now = attempts == 0 && start > 0 ? start : SystemClock.nanoTime();
        Lease l = stickyLease;
        stickyLease = null;
        if (l == null) {
            if (request.recorder != null) {
                request.recorder.attempt(attemptsRecorded() + 1);
            }
            Router.Route route = request.route;
            l = route == null ? pool.pick(request, tried, handler.engineNanos(now))
                    : pool.pick(request, tried, handler.engineNanos(now), route.strategy(), route.ceiling());
        }
        if (l == null) {
            Router.Route route = request.route;
            if (route != null && route.ceiling() != null && heldByCeiling(route.ceiling())) {
                shed(route);
            } else if (tried == null) {
                respondError(503, "no backend available in pool " + pool.name());
            } else {
                respondError(outcome == Outcome.TIMEOUT ? 504 : 502, outcome == Outcome.TIMEOUT
                        ? "backend timed out after " + attempts + " attempt(s)"
                        : "backend unreachable after " + attempts + " attempt(s)");
            }
            return;
        }
        keepEndedAttempt();
        lease = l;
        attempts++;
        attemptStart = now;
        attemptOutcome = null;
        phase = phase.unsent();
        connection = null;
        BackendConnections conns = handler.connections(l.backend());
        conns.acquire(request.getIoThread(), new Attempt(++attemptNo, conns, now), false, now);
    }

    /**
     * Whether a backend of the pool this request has not tried could take it now but for its route's class ceiling:
     * then the pick found none because the route is at its ceiling, not because the pool cannot serve.
     */
    private boolean heldByCeiling(ClassCeiling ceiling) {
        PoolSnapshot s = pool.snapshot();
        return heldByCeiling(s.primaryCandidates(), ceiling) || heldByCeiling(s.backupCandidates(), ceiling);
    }

    private boolean heldByCeiling(Candidates candidates, ClassCeiling ceiling) {
        for (int i = 0; i < candidates.size(); i++) {
            Backend b = candidates.get(i);
            if ((tried == null || !tried.contains(b)) && b.admitsAnother() && !ceiling.admits(b)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Refuses the request at its route's class ceiling: a 503 the client may try again after a second, counted as a
     * shed, and no failure of any backend (none was asked).
     */
    private void shed(Router.Route route) {
        request.shed = true;
        route.ceiling().shed();
        request.getResponseHeaders().put(Headers.RETRY_AFTER, "1");
        respondError(503, "routes[" + route.index() + "]" + (route.routeClass() == null ? ""
                : " (class " + route.routeClass() + ")") + ": no backend of pool " + pool.name()
                + " can take it under the route's class ceiling of " + route.ceiling().max()
                + " request(s) in flight per backend (maxInFlightPerBackend); shed, try again later");
    }

    /**
     * One try on one backend. Every callback carries its attempt's number and is ignored, apart from freeing its
     * own connection, once a retry has moved on: a late notice from a dead backend must not act on the retry's
     * lease or connection.
     */
    private final class Attempt implements BackendConnections.Callback, BackendConnection.Listener {
        private final int a;
        private final BackendConnections conns;
        /** {@link SystemClock#nanoTime()} as the attempt began. */
        private final long startNanos;
        private BackendConnection conn;

        Attempt(int a, BackendConnections conns, long startNanos) {
            this.a = a;
            this.conns = conns;
            this.startNanos = startNanos;
        }

        private boolean current() {
            return a == attemptNo && !phase.ended();
        }

        @Override
        public void connected(BackendConnection c) {
            if (!current()) {
                conns.release(c); // unused: no request went out on it
                return;
            }
            conn = c;
            connection = c;
            connectionOwner = conns;
            phase = phase.sent();
            if (bodyless) {
                // nothing to upload: the wait for an answer starts now, so even a connection that takes the request
                // and never gets to it (a wedged or half-closed keep-alive connection) ends in a retry, not a hang.
                // An idle connection is handed over at once: the attempt's clock reading is still now
                startReadTimer(c.pooled() ? startNanos : SystemClock.nanoTime());
            }
            ByteBuffer head = RequestHead.compose(request, targetPath, lease.backend().authority(),
                    handler.settings().preserveHost(), upgrade, bodyless);
            c.send(head, request.getResponseHeaders(), request.getRequestMethod().equals(Methods.HEAD), this);
        }

        @Override
        public void connectFailed(IOException e) {
            if (a == attemptNo) {
                phase = phase.unsent();
                attemptFailed(Outcome.CONNECT_FAILURE, e, a);
            }
        }

        @Override
        public void headWritten() {
            if (current()) {
                sendBody(conn, a);
            } else {
                conn.close(); // the exchange moved on: nobody will read what comes back
            }
        }

        @Override
        public void responseArrived(int status, String reason, ByteBuffer body) {
            if (current()) {
                ProxyExchange.this.responseArrived(status, reason, body);
            } else {
                conn.close();
            }
        }

        @Override
        public void failed(IOException e) {
            if (a == attemptNo && conn != null && lease != null && !lease.isReleased()
                    && handler.retries().mayRetryOnFreshConnection(phase, conn.pooled(), freshRetryMade, resendable)) {
                retryOnAFreshConnection(e);
                return;
            }
            attemptFailed(Outcome.CONNECT_FAILURE, e, a);
        }

        @Override
        public void bodyWaiting(boolean waiting) {
            if (current()) {
                ProxyExchange.this.bodyWaiting(waiting);
            }
        }
    }

    // ---------------------------------------------------------------- request body

    /** The head is out: streams the body, if any. */
    private void sendBody(BackendConnection c, int a) {
        if (bodyless) {
            c.requestComplete();
            return;
        }
        phase = phase.uploading();
        StreamSinkChannel toBackend = c.requestBody(!request.getRequestHeaders().contains(Headers.CONTENT_LENGTH));
        upload = toBackend;
        RequestUpload.start(this, request.exchange(), c, toBackend, a);
    }

    /** Writing the body to the backend of attempt {@code a} failed (or finishing it did). */
    void uploadFailed(int a, IOException e) {
        if (a == attemptNo && phase.answerArrived()) {
            // the backend answered before it took the whole upload (a 413, say) and stopped reading: its answer
            // stands and goes on to the client; the exchange ends once it is out (see endAfterAnswer)
            if (phase.answerDone()) {
                endAfterAnswer();
            }
            return;
        }
        attemptFailed(Outcome.CONNECT_FAILURE, e, a);
    }

    /**
     * Reading the body from the client failed: the client's doing (it hung up or cut its body short), not the
     * backend's, and there is nothing left to wait for.
     */
    void clientBodyFailed(int a, IOException e) {
        if (a == attemptNo && !phase.ended()) {
            phase = phase.finish();
            cancelReadTimer();
            broke(Outcome.CLIENT_ABORT, e);
        }
    }

    /** The whole body is on the wire to the backend of attempt {@code a}: the wait for its answer starts now. */
    void uploaded(int a) {
        if (a == attemptNo) {
            startReadTimer(SystemClock.nanoTime());
        }
    }

    // ---------------------------------------------------------------- read deadline

    private void startReadTimer(long now) {
        if (handler.settings().readMs() > 0 && phase.awaitingAnswer()) {
            handler.deadlines(request.getIoThread()).arm(this, now);
        }
    }

    @Override
    void deadlinePassed() {
        if (phase.awaitingAnswer()) {
            attemptFailed(Outcome.TIMEOUT, new IOException("no response within " + handler.settings().readMs() + " ms"),
                    attemptNo);
        } else if (phase == ExchangePhase.ANSWERING) {
            // too late for an error answer: the client's connection is closed, as nginx does on proxy_read_timeout
            broke(Outcome.TIMEOUT, new IOException("no body bytes from the backend within " + handler.settings().readMs()
                    + " ms"));
        }
    }

    /**
     * A streamed body waits on the backend (a read found nothing) or moved on. readMs then bounds each wait, as
     * nginx's proxy_read_timeout bounds the time between two reads; a client that holds the body up is not timed
     * here (its reads found bytes; Transfer waits on the client's socket, not the backend's).
     */
    private void bodyWaiting(boolean waiting) {
        if (waiting && responseSink != null && !phase.answerDone()) {
            ResponseRelay.flush(responseSink);
        }
        if (!waiting) {
            cancelReadTimer();
        } else if (handler.settings().readMs() > 0 && !phase.answerDone() && !phase.ended()) {
            handler.deadlines(request.getIoThread()).arm(this);
        }
    }

    private void cancelReadTimer() {
        if (armed()) {
            handler.deadlines(request.getIoThread()).disarm(this);
        }
    }

    // ---------------------------------------------------------------- response

    /** The backend's head is in the exchange's response headers; {@code body} is the whole body, or null to stream it. */
    private void responseArrived(int status, String reason, ByteBuffer body) {
        if (status == 101 && !upgrade) {
            // a 1xx is interim: passed on, the client would keep waiting for an answer that never comes
            attemptFailed(Outcome.SERVER_ERROR, new IOException("backend answered 101 Switching Protocols to a "
                    + "request that asked for no upgrade"), attemptNo);
            return;
        }
        phase = phase.headArrived();
        cancelReadTimer();
        outcome = status >= 500 ? Outcome.SERVER_ERROR : Outcome.SUCCESS;
        request.setStatusCode(status);
        if (!reason.equals(StatusCodes.getReason(status))) {
            request.setReasonPhrase(reason); // an attachment map per exchange: only when it is not the usual one
        }
        HeaderMap out = request.getResponseHeaders(); // the backend's, its hop-by-hop ones left out
        boolean switching = status == 101 && upgrade;
        if (switching) {
            out.put(Headers.CONNECTION, "Upgrade");
        }
        out.put(ErrorResponses.X_FULCRUM_BACKEND, lease.backend().id());
        handler.sticky().onResponse(request, pool, lease.backend());
        if (switching) {
            phase = phase.upgrading();
            UpgradeTunnel.open(this, request.exchange(), connection, handler.tunnels());
            return;
        }
        responseSink = request.getResponseChannel();
        if (body != null) {
            ResponseRelay.sendWhole(this, responseSink, body);
            return;
        }
        ResponseRelay.stream(this, connection.responseBody(), responseSink, request.buffers());
    }

    /** A whole answer is written: the exchange ends. */
    void answerWritten() {
        phase = phase.answered();
        endAfterAnswer();
    }

    /** A streamed answer reached its end; {@code sink} is the client's side of it. */
    void answerStreamed(StreamSinkChannel sink) {
        phase = phase.answered();
        if (request.isRequestComplete()) {
            ResponseRelay.finishWrites(sink); // the exchange ends when the answer is flushed
        } else {
            endAfterAnswer();
        }
    }

    /**
     * The answer is all out: ends the exchange. When the request body is not all read yet (a backend that answered
     * early), the upload to the backend stops and Undertow drains the rest from the client, as for any handler
     * that answers before reading the body (nginx discards it too); the backend connection is then not reused,
     * its request never having ended.
     */
    private void endAfterAnswer() {
        if (!request.isRequestComplete()) {
            if (upload != null) {
                RequestUpload.stop(upload);
                upload = null;
            }
            // Undertow drains the upload before it flushes the answer, and an HTTP/2 stream holds it until a
            // flush: the answer would wait for the client's whole upload (for ever, if the client waits for it)
            ResponseRelay.finishWrites(responseSink);
        }
        request.endExchange();
    }

    /** The 101 is out and the connections are spliced: the tunnel's close listeners watch the client from now on. */
    void tunnelOpened() {
        request.unwatch(this);
        phase = phase.tunnelOpened();
    }

    /**
     * Either side of the tunnel closed: the in-flight slot it held goes back, and the connection is logged and recorded
     * as one request with status 101, its whole life and the bytes each way.
     */
    void tunnelClosed(long clientBytes, long backendBytes) {
        long now = SystemClock.nanoTime();
        endAttempt(Outcome.SUCCESS, now);
        long start = request.getRequestStartTime();
        long life = start > 0 ? now - start : 0;
        String id = lease.backend().id();
        handler.completed(id, 101, life);
        handler.log().log(request, id, 101, attempts, life, clientBytes + backendBytes, request.decision());
        if (handler.requests() != null) {
            recordTunnel(handler.requests(), now, clientBytes, backendBytes);
        }
    }

    /**
     * The tunnel's record in {@code stream} as it stands at {@code now}: at its close, or while open for
     * {@link Tunnels#list}, which may call it from any thread (what it reads was set before the tunnel opened).
     */
    void recordTunnel(RequestStream stream, long now, long clientBytes, long backendBytes) {
        long start = request.getRequestStartTime();
        RequestRecords.writeTunnel(stream, pool.name(), request, lease.backend(),
                start > 0 ? start : attemptStart, now, clientBytes, backendBytes);
    }

    // ---------------------------------------------------------------- failure and completion

    /**
     * An idle connection the backend closed just as the request went out on it ({@link
     * RetryPolicy#mayRetryOnFreshConnection}): tried again on a new connection to the same backend while it can take
     * the request; otherwise the usual retry decides.
     */
    private void retryOnAFreshConnection(IOException e) {
        freshRetryMade = true;
        cancelReadTimer();
        BackendConnection stale = connection;
        connection = null;
        Backend b = lease.backend();
        long now = SystemClock.nanoTime();
        endAttempt(Outcome.CLIENT_ABORT, now); // says nothing about the backend's health
        if (stale != null) {
            stale.close();
        }
        handler.log().attemptFailed(b.id(), Outcome.CLIENT_ABORT, new IOException("an idle connection was closed by "
                + "the backend as the request went out (" + e.getMessage() + "); tried again on a new one", e));
        request.getResponseHeaders().clear();
        Lease again = pool.tryLease(b.id());
        if (again == null) {
            attempt(); // it cannot take the request now: another backend, as any retry would
            return;
        }
        keepEndedAttempt();
        lease = again;
        attemptStart = now;
        attemptOutcome = null;
        phase = phase.unsent();
        BackendConnections conns = handler.connections(b);
        conns.acquire(request.getIoThread(), new Attempt(++attemptNo, conns, now), true, now);
    }

    private void attemptFailed(Outcome why, IOException e, int a) {
        if (a != attemptNo || phase.ended() || lease == null || lease.isReleased()) {
            return;
        }
        cancelReadTimer();
        // The attempt ends (its lease released) BEFORE its connection is closed: anything the close sets off on this
        // very stack, such as a second notice of the same hang-up, must find the attempt over. Otherwise that notice
        // starts the retry from inside this call and blames the retry's healthy backend (HangUpRetryTest).
        BackendConnection failedConnection = connection;
        connection = null;
        Backend failedOn = lease.backend();
        endAttempt(why, SystemClock.nanoTime());
        outcome = why;
        if (failedConnection != null) {
            failedConnection.close();
        }
        if (request.isResponseStarted() || phase.answerArrived()) {
            phase = phase.finish();
            ErrorResponses.cutOff(request);
            return;
        }
        request.getResponseHeaders().clear(); // whatever part of a head the failed backend got to send
        if (tried == null) {
            tried = new HashSet<>(4);
        }
        tried.add(failedOn);
        boolean mayRetry = handler.retries().mayRetry(attempts, phase, resendable);
        handler.log().attemptFailed(failedOn.id(), why, e);
        if (mayRetry && !request.clientOpen()) {
            clientClosed(); // nobody left to answer: no other backend is bothered
            request.endExchange();
        } else if (mayRetry) {
            attempt();
        } else {
            respondError(why == Outcome.TIMEOUT ? 504 : 502, why == Outcome.TIMEOUT
                    ? "backend " + failedOn.id() + " timed out"
                    : "backend " + failedOn.id() + " unreachable after " + attempts + " attempt(s)");
        }
    }

    /** A socket error while sending the response: the backend (read side) or the client (write side) went away. */
    void broke(Outcome why, IOException e) {
        handler.log().attemptFailed(lease.backend().id(), why, e);
        endAttempt(phase.answerDone() ? outcome : why, SystemClock.nanoTime());
        closeConnection();
        ErrorResponses.cutOff(request);
    }

    /**
     * The client's connection closed while this exchange was active, or after it agreed to an upgrade but before
     * the 101 was flushed and the tunnel opened (which then never opens).
     */
    void clientClosed() {
        if (!phase.ended() && phase != ExchangePhase.TUNNEL) {
            phase = phase.finish();
            cancelReadTimer();
            endAttempt(Outcome.CLIENT_ABORT, SystemClock.nanoTime());
            closeConnection();
        }
    }

    /**
     * The client's HTTP/2 stream is gone while this exchange is live: reset by the client, or its connection closed
     * ({@link ClientWatch}). What {@link #clientClosed} does, and the exchange is ended too, as Undertow ends an
     * HTTP/1.1 connection's current exchange when it closes but no HTTP/2 stream's: its completion is what the access
     * log's 499, the metrics and the graceful stop's count of requests in flight wait for.
     */
    void streamGone() {
        if (phase.ended() || phase == ExchangePhase.TUNNEL) {
            return; // whoever ended it ends the exchange; a tunnel has a connection of its own
        }
        clientClosed();
        request.endExchange();
    }

    /**
     * The client's chunked body broke the grammar ({@link ChunkGrammar}): the backend's half-sent request goes with its
     * connection, the client gets 400 and a closed connection (or, if an answer is already under way, the cut).
     */
    void bodyRefused(ChunkGrammar.Malformed e) {
        if (phase.ended()) {
            // the answer is out and Undertow is draining the rest of the body, which will never end well
            request.closeClient();
            return;
        }
        phase = phase.finish();
        cancelReadTimer();
        if (lease != null && !lease.isReleased()) {
            handler.log().attemptFailed(lease.backend().id(), Outcome.CLIENT_ABORT, e);
            endAttempt(Outcome.CLIENT_ABORT, SystemClock.nanoTime());
        }
        closeConnection();
        if (request.isResponseStarted()) {
            ErrorResponses.cutOff(request);
            return;
        }
        request.getResponseHeaders().clear();
        Connectors.terminateRequest(request.exchange()); // nothing more of this body is read
        ErrorResponses.send(request, 400, e.getMessage(), true);
    }

    private void closeConnection() {
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }

    private void respondError(int status, String message) {
        phase = phase.finish();
        ErrorResponses.send(request, status, message, false);
    }

    private void onExchangeComplete() {
        request.stopProbing();
        cancelReadTimer();
        if (phase.upgraded()) {
            // its arm counts the upgrade as answered now; the tunnel's life is no latency of the backend's
            long start = request.getRequestStartTime();
            request.recordArm(request.getStatusCode(), start > 0 ? SystemClock.nanoTime() - start : 0);
            return; // the tunnel holds the lease until it closes; until it opens, the client's hang-up is watched
        }
        request.unwatch(this);
        phase = phase.finish();
        long now = SystemClock.nanoTime(); // for the idle pool, the lease and the latency alike
        if (connection != null) {
            // back to the pool only when both directions finished (the connection knows): one whose request is
            // still being written (a backend that answered an upload early) would queue the next request behind
            // it. Before the lease goes: its release may complete a drain and remove the backend, whose pool
            // then closes it
            connectionOwner.release(connection, now);
            connection = null;
        }
        endAttempt(phase.answerDone() ? outcome : Outcome.CLIENT_ABORT, now);
        String answered = lease == null || !phase.answerArrived() ? null : lease.backend().id();
        int status = request.getStatusCode();
        String logged = answered;
        if (answered == null && lease != null && attemptOutcome == Outcome.CLIENT_ABORT) {
            // the client hung up while a backend had its request: nginx's 499, with the backend it was waiting on
            status = CLIENT_CLOSED;
            logged = lease.backend().id();
        }
        long start = request.getRequestStartTime();
        long latency = start > 0 ? now - start : 0;
        handler.completed(logged, status, latency);
        request.recordArm(status, latency);
        dev.fulcrum.requests.Decision decision = request.decision(); // null, made of nothing, unless recorded
        handler.log().log(request, logged, status, attempts, latency, request.getResponseBytesSent(), decision);
        if (handler.requests() != null) {
            RequestRecords.write(handler.requests(), pool.name(), request, earlier,
                    lease == null ? null : lease.backend(), attemptOutcome, attemptEnd - attemptStart, answered,
                    status, sticky, now, decision);
        }
    }

    /**
     * Gives the current attempt's in-flight slot back with how it ended, once (design rule 7), and remembers that for
     * the request's record. {@code now} is a {@link SystemClock#nanoTime()} reading.
     */
    private void endAttempt(Outcome why, long now) {
        if (lease == null || lease.isReleased()) {
            return;
        }
        lease.release(why, handler.engineNanos(now));
        attemptOutcome = why;
        attemptEnd = now;
    }

    /** Attempts the request's record holds so far: the earlier ones and the current one, once it ended. */
    private int attemptsRecorded() {
        return (earlier == null ? 0 : earlier.size()) + (lease != null && attemptOutcome != null ? 1 : 0);
    }

    /** Before a new attempt: the one that ended goes to the record's list of earlier attempts. */
    private void keepEndedAttempt() {
        if (lease != null && attemptOutcome != null) {
            if (earlier == null) {
                earlier = new RequestRecords.Earlier();
            }
            earlier.add(lease.backend(), attemptOutcome, attemptEnd - attemptStart);
        }
    }

    /** For the tunnel registry: close a WebSocket tunnel when its backend drains past its deadline. */
    Backend backend() {
        return lease == null ? null : lease.backend();
    }
}
