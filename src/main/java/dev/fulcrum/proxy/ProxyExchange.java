package dev.fulcrum.proxy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.Lease;
import dev.fulcrum.engine.Outcome;
import dev.fulcrum.engine.Pool;
import io.undertow.client.ClientCallback;
import io.undertow.client.ClientConnection;
import io.undertow.client.ClientExchange;
import io.undertow.client.ClientRequest;
import io.undertow.client.ClientResponse;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.xnio.ChannelExceptionHandler;
import org.xnio.ChannelListener;
import org.xnio.ChannelListeners;
import org.xnio.IoUtils;
import org.xnio.StreamConnection;
import org.xnio.channels.StreamSinkChannel;
import org.xnio.channels.StreamSourceChannel;
import io.undertow.util.Transfer;

/**
 * One client request on its way through the proxy: pick, connect, forward, stream the answer back, and
 * on failure try another backend when that is safe.
 *
 * <p>Retry rules (CONTRACT 3): an attempt whose connection could not be made never reached a backend, so
 * any method may go elsewhere. Once a request was sent, only GET, HEAD and OPTIONS (or any method with
 * {@code retryNonIdempotent}) are sent again, and only while no body byte was streamed and no response byte
 * reached the client. 5xx answers are passed through, not retried (nginx's default).
 *
 * <p>Everything here runs on the exchange's I/O thread, so the fields need no synchronisation; the lease is
 * released exactly once through {@link Lease#release}, from whichever completion path comes first.
 */
final class ProxyExchange extends ReadDeadlines.Waiter {
    private static final HttpString KEEP_ALIVE = new HttpString("Keep-Alive");
    private static final HttpString PROXY_CONNECTION = new HttpString("Proxy-Connection");
    private static final HttpString TE = new HttpString("TE");
    private static final HttpString TRAILER = new HttpString("Trailer");

    private final BalancingHandler handler;
    private final HttpServerExchange exchange;
    private final Pool pool;
    private final ExchangeRequest request;
    private final String targetPath;
    private final boolean idempotent;
    private final boolean upgrade;
    private Set<Backend> tried;
    private int attempts;
    private Lease lease;
    private ClientConnection connection;
    private boolean sent;
    private boolean requestDone;
    /**
     * Which try is current. Every callback an attempt registers (connect, send, response, stream errors)
     * carries its attempt's number and is ignored, apart from freeing its own connection, once a retry has
     * moved on: a late failure notice from a dead backend must not act on the retry's lease or connection.
     */
    private int attemptNo;
    private boolean bodyStarted;
    private boolean responseReceived;
    private boolean responseDone;
    private boolean finished;
    private boolean upgraded;
    private Outcome outcome = Outcome.SUCCESS;
    private Lease stickyLease;

    ProxyExchange(BalancingHandler handler, HttpServerExchange exchange, Pool pool, ExchangeRequest request,
                  String targetPath, Lease stickyLease) {
        this.handler = handler;
        this.exchange = exchange;
        this.pool = pool;
        this.request = request;
        this.targetPath = targetPath;
        HttpString m = exchange.getRequestMethod();
        this.idempotent = handler.settings().retryNonIdempotent()
                || m.equals(Methods.GET) || m.equals(Methods.HEAD) || m.equals(Methods.OPTIONS);
        this.upgrade = exchange.getRequestHeaders().contains(Headers.UPGRADE)
                && !"h2c".equalsIgnoreCase(exchange.getRequestHeaders().getFirst(Headers.UPGRADE));
        this.stickyLease = stickyLease;
    }

    void start() {
        exchange.addExchangeCompleteListener((ex, next) -> {
            try {
                onExchangeComplete();
            } finally {
                next.proceed();
            }
        });
        ClientWatch.of(exchange).watch(this);
        attempt();
    }

    private void attempt() {
        Lease l = stickyLease;
        stickyLease = null;
        if (l == null) {
            l = pool.pick(request, tried);
        }
        if (l == null) {
            if (tried == null) {
                respondError(503, "no backend available in pool " + pool.name());
            } else {
                respondError(outcome == Outcome.TIMEOUT ? 504 : 502, outcome == Outcome.TIMEOUT
                        ? "backend timed out after " + attempts + " attempt(s)"
                        : "backend unreachable after " + attempts + " attempt(s)");
            }
            return;
        }
        lease = l;
        attempts++;
        sent = false;
        requestDone = false;
        connection = null;
        int a = ++attemptNo;
        BackendConnections conns = handler.connections(l.backend());
        conns.acquire(exchange.getIoThread(), new BackendConnections.Callback() {
            @Override
            public void connected(ClientConnection c) {
                if (a != attemptNo || finished) {
                    conns.release(c); // unused: no request went out on it
                    return;
                }
                ProxyExchange.this.connected(c, a);
            }

            @Override
            public void connectFailed(IOException e) {
                if (a == attemptNo) {
                    sent = false;
                    attemptFailed(Outcome.CONNECT_FAILURE, e, a);
                }
            }
        });
    }

    // ---------------------------------------------------------------- connect

    private void connected(ClientConnection c, int a) {
        connection = c;
        ClientRequest req = buildRequest(c);
        sent = true;
        if (exchange.isRequestComplete()) {
            // nothing to upload: the wait for an answer starts now, so even a connection that takes the request
            // and never gets to it (a wedged or half-closed keep-alive connection) ends in a retry, not a hang
            startReadTimer();
        }
        c.sendRequest(req, new ClientCallback<>() {
            @Override
            public void completed(ClientExchange result) {
                if (a != attemptNo || finished) {
                    IoUtils.safeClose(c);
                    return;
                }
                sentRequest(result, a);
            }

            @Override
            public void failed(IOException e) {
                attemptFailed(Outcome.CONNECT_FAILURE, e, a);
            }
        });
    }

    private ClientRequest buildRequest(ClientConnection c) {
        ClientRequest req = new ClientRequest();
        String qs = exchange.getQueryString();
        req.setPath(qs == null || qs.isEmpty() ? targetPath : targetPath + '?' + qs);
        req.setMethod(exchange.getRequestMethod());
        HeaderMap in = exchange.getRequestHeaders();
        HeaderMap out = req.getRequestHeaders();
        copyEndToEnd(in, out, upgrade);
        String clientIp = request.clientIp();
        String xff = in.getFirst(Headers.X_FORWARDED_FOR);
        out.put(Headers.X_FORWARDED_FOR, xff == null || xff.isEmpty() ? clientIp : xff + ", " + clientIp);
        out.put(Headers.X_FORWARDED_PROTO, exchange.getRequestScheme());
        String host = in.getFirst(Headers.HOST);
        if (host != null) {
            out.put(Headers.X_FORWARDED_HOST, host);
        }
        if (!handler.settings().preserveHost() || host == null) {
            Backend b = lease.backend();
            out.put(Headers.HOST, b.host() + ":" + b.port());
        }
        if (!upgrade) {
            out.put(Headers.CONNECTION, "keep-alive");
        }
        if (!exchange.isRequestComplete() && !out.contains(Headers.CONTENT_LENGTH)) {
            out.put(Headers.TRANSFER_ENCODING, Headers.CHUNKED.toString());
        }
        return req;
    }

    /** Copies headers minus the hop-by-hop ones (RFC 9110 7.6.1), including any the Connection header names. */
    static void copyEndToEnd(HeaderMap in, HeaderMap out, boolean keepUpgrade) {
        List<String> named = null;
        HeaderValues conn = in.get(Headers.CONNECTION);
        if (conn != null) {
            for (String v : conn) {
                named = namedHeaders(v, named);
            }
        }
        for (long f = in.fastIterateNonEmpty(); f != -1L; f = in.fiNextNonEmpty(f)) {
            HeaderValues v = in.fiCurrent(f);
            HttpString name = v.getHeaderName();
            if (isHopByHop(name, keepUpgrade) || (named != null && isNamed(named, name))) {
                continue;
            }
            out.putAll(name, v);
        }
        if (keepUpgrade) {
            out.put(Headers.CONNECTION, "Upgrade");
        }
    }

    /**
     * Adds the header names a Connection value lists to {@code named}. The usual tokens ({@code keep-alive},
     * {@code close}, {@code upgrade}) name nothing to remove beyond the hop-by-hop headers, so the common
     * answer costs no allocation.
     */
    private static List<String> namedHeaders(String value, List<String> named) {
        int i = 0;
        int n = value.length();
        while (i < n) {
            int end = value.indexOf(',', i);
            if (end < 0) {
                end = n;
            }
            int a = i;
            int b = end;
            while (a < b && value.charAt(a) <= ' ') {
                a++;
            }
            while (b > a && value.charAt(b - 1) <= ' ') {
                b--;
            }
            if (a < b && !isPlainToken(value, a, b)) {
                if (named == null) {
                    named = new ArrayList<>(2);
                }
                named.add(value.substring(a, b));
            }
            i = end + 1;
        }
        return named;
    }

    private static boolean isPlainToken(String v, int from, int to) {
        int len = to - from;
        return (len == 10 && v.regionMatches(true, from, "keep-alive", 0, 10))
                || (len == 5 && v.regionMatches(true, from, "close", 0, 5))
                || (len == 7 && v.regionMatches(true, from, "upgrade", 0, 7));
    }

    private static boolean isNamed(List<String> named, HttpString name) {
        for (String n : named) {
            if (name.equalToString(n)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isHopByHop(HttpString n, boolean keepUpgrade) {
        return n.equals(Headers.CONNECTION) || n.equals(KEEP_ALIVE) || n.equals(PROXY_CONNECTION)
                || n.equals(Headers.TRANSFER_ENCODING) || n.equals(TE) || n.equals(TRAILER)
                || n.equals(Headers.PROXY_AUTHENTICATE) || n.equals(Headers.PROXY_AUTHORIZATION)
                || n.equals(Headers.EXPECT) || (!keepUpgrade && n.equals(Headers.UPGRADE));
    }

    // ---------------------------------------------------------------- request sent

    private void sentRequest(ClientExchange result, int a) {
        result.setResponseListener(new ClientCallback<>() {
            @Override
            public void completed(ClientExchange r) {
                if (a != attemptNo || finished) {
                    IoUtils.safeClose(r.getConnection());
                    return;
                }
                responseArrived(r);
            }

            @Override
            public void failed(IOException e) {
                attemptFailed(Outcome.CONNECT_FAILURE, e, a);
            }
        });
        ChannelExceptionHandler<java.nio.channels.Channel> onError = (ch, e) -> attemptFailed(Outcome.CONNECT_FAILURE, e, a);
        // the read timeout counts from the end of the request: a long upload is not a slow backend
        ChannelListener<StreamSinkChannel> done = sink -> {
            finishWrites(sink);
            if (a == attemptNo) {
                requestDone = true;
                startReadTimer();
            }
        };
        if (!exchange.isRequestComplete()) {
            bodyStarted = true;
            Transfer.initiateTransfer(exchange.getRequestChannel(), result.getRequestChannel(),
                    ChannelListeners.closingChannelListener(), done, onError, onError,
                    exchange.getConnection().getByteBufferPool());
        } else {
            done.handleEvent(result.getRequestChannel());
        }
    }

    private void startReadTimer() {
        if (handler.settings().readMs() > 0 && !responseReceived && !finished) {
            handler.deadlines(exchange.getIoThread()).arm(this);
        }
    }

    @Override
    void deadlinePassed() {
        readTimedOut();
    }

    /** Ends a sink: shutdown and flush, finishing the flush asynchronously if it cannot complete now. */
    static void finishWrites(StreamSinkChannel channel) {
        try {
            channel.shutdownWrites();
            if (!channel.flush()) {
                channel.getWriteSetter().set(ChannelListeners.flushingChannelListener(
                        ch -> {
                            ch.suspendWrites();
                            ch.getWriteSetter().set(null);
                        }, ChannelListeners.closingChannelExceptionHandler()));
                channel.resumeWrites();
            } else {
                channel.getWriteSetter().set(null);
            }
        } catch (IOException e) {
            IoUtils.safeClose(channel);
        }
    }

    private void readTimedOut() {
        if (!responseReceived && !finished) {
            attemptFailed(Outcome.TIMEOUT, new IOException("no response within " + handler.settings().readMs() + " ms"),
                    attemptNo);
        }
    }

    // ---------------------------------------------------------------- response

    private void responseArrived(ClientExchange result) {
        responseReceived = true;
        cancelReadTimer();
        ClientResponse response = result.getResponse();
        int status = response.getResponseCode();
        outcome = status >= 500 ? Outcome.SERVER_ERROR : Outcome.SUCCESS;
        exchange.setStatusCode(status);
        exchange.setReasonPhrase(response.getStatus());
        HeaderMap out = exchange.getResponseHeaders();
        boolean switching = status == 101 && upgrade;
        copyEndToEnd(response.getResponseHeaders(), out, switching);
        out.put(ErrorResponses.X_FULCRUM_BACKEND, lease.backend().id());
        handler.sticky().onResponse(exchange, pool, lease.backend());
        if (switching) {
            upgradeTunnel(result);
            return;
        }
        StreamSourceChannel fromBackend = result.getResponseChannel();
        ChannelExceptionHandler<java.nio.channels.Channel> onError = (ch, e) -> {
            // a failed read is the backend's doing (a reset mid-body counts against it); a failed write, the client's
            Outcome why = ch == fromBackend ? Outcome.CONNECT_FAILURE : Outcome.CLIENT_ABORT;
            handler.log().attemptFailed(lease.backend().id(), why, e);
            brokeMidResponse(why);
        };
        Transfer.initiateTransfer(fromBackend, exchange.getResponseChannel(),
                ChannelListeners.closingChannelListener(), sink -> {
                    responseDone = true;
                    finishWrites(sink);
                }, onError, onError, exchange.getConnection().getByteBufferPool());
    }

    /** HTTP/1.1 Upgrade (WebSocket): splice the two connections until either side closes. */
    private void upgradeTunnel(ClientExchange result) {
        upgraded = true;
        exchange.upgradeChannel((StreamConnection client, HttpServerExchange ex) -> {
            StreamConnection backendSide = null;
            try {
                backendSide = result.getConnection().performUpgrade();
                StreamConnection b = backendSide;
                ChannelListener<StreamConnection> closed = c -> {
                    IoUtils.safeClose(client, b);
                    lease.release(Outcome.SUCCESS);
                    handler.tunnels().remove(this);
                };
                client.setCloseListener(closed);
                b.setCloseListener(closed);
                handler.tunnels().add(this, client, b);
                ChannelExceptionHandler<java.nio.channels.Channel> close = (ch, e) -> IoUtils.safeClose(client, b);
                splice(b.getSourceChannel(), client.getSinkChannel(), close, result);
                splice(client.getSourceChannel(), b.getSinkChannel(), close, result);
            } catch (IOException e) {
                IoUtils.safeClose(client, backendSide);
                lease.release(Outcome.CONNECT_FAILURE);
            }
        });
        exchange.endExchange();
    }

    private static void splice(StreamSourceChannel from, StreamSinkChannel to,
                               ChannelExceptionHandler<java.nio.channels.Channel> onError, ClientExchange result) {
        Transfer.initiateTransfer(from, to, ChannelListeners.closingChannelListener(),
                ChannelListeners.writeShutdownChannelListener(ChannelListeners.flushingChannelListener(
                        ChannelListeners.closingChannelListener(), ChannelListeners.closingChannelExceptionHandler()),
                        ChannelListeners.closingChannelExceptionHandler()),
                onError, onError, result.getConnection().getBufferPool());
    }

    // ---------------------------------------------------------------- failure and completion

    private void attemptFailed(Outcome why, IOException e, int a) {
        if (a != attemptNo || finished || lease == null || lease.isReleased()) {
            return;
        }
        cancelReadTimer();
        // End the attempt BEFORE closing its connection. When the backend hung up with the request pending,
        // Undertow reports the failure from its read listener and then again from the connection's close
        // listener, which our close below runs on this very stack. That second notice carries the same attempt
        // number, so only the released lease tells it the attempt is over; were the lease still held, it would
        // start the retry from inside this call, and this call would then blame the retry's (healthy) backend,
        // drop the retry's connection and answer 502 (issue 7).
        ClientConnection failedConnection = connection;
        connection = null;
        Backend failedOn = lease.backend();
        lease.release(why);
        outcome = why;
        IoUtils.safeClose(failedConnection);
        if (exchange.isResponseStarted() || responseReceived) {
            finished = true;
            IoUtils.safeClose(exchange.getConnection());
            return;
        }
        if (tried == null) {
            tried = new HashSet<>(4);
        }
        tried.add(failedOn);
        boolean reached = sent;
        boolean mayRetry = attempts <= handler.settings().maxRetries() && !bodyStarted && (!reached || idempotent);
        handler.log().attemptFailed(failedOn.id(), why, e);
        if (mayRetry) {
            attempt();
        } else {
            respondError(why == Outcome.TIMEOUT ? 504 : 502, why == Outcome.TIMEOUT
                    ? "backend " + failedOn.id() + " timed out"
                    : "backend " + failedOn.id() + " unreachable after " + attempts + " attempt(s)");
        }
    }

    /** A socket error while streaming the response: the backend (read side) or the client (write side) went away. */
    private void brokeMidResponse(Outcome why) {
        if (lease != null && !lease.isReleased()) {
            lease.release(responseDone ? outcome : why);
        }
        IoUtils.safeClose(connection);
        connection = null;
        IoUtils.safeClose(exchange.getConnection());
    }

    /** The client's connection closed while this exchange was active. */
    void clientClosed() {
        if (!finished && !upgraded) {
            finished = true;
            cancelReadTimer();
            if (lease != null && !lease.isReleased()) {
                lease.release(Outcome.CLIENT_ABORT);
            }
            IoUtils.safeClose(connection);
            connection = null;
        }
    }

    private void respondError(int status, String message) {
        finished = true;
        ErrorResponses.send(exchange, status, message, false);
    }

    private void cancelReadTimer() {
        if (armed()) {
            handler.deadlines(exchange.getIoThread()).disarm(this);
        }
    }

    private void onExchangeComplete() {
        ClientWatch.of(exchange).unwatch(this);
        cancelReadTimer();
        if (upgraded) {
            return; // the tunnel holds the lease until it closes
        }
        finished = true;
        if (connection != null) {
            // back to the pool only when both directions finished: a connection whose request is still being
            // written (a backend that answered an upload early) would queue the next request behind it. Before
            // the lease goes: its release may complete a drain and remove the backend, whose pool then closes it
            if (responseDone && requestDone) {
                handler.returnConnection(lease.backend(), connection);
            } else {
                IoUtils.safeClose(connection);
            }
            connection = null;
        }
        if (lease != null && !lease.isReleased()) {
            lease.release(responseDone ? outcome : Outcome.CLIENT_ABORT);
        }
        String id = lease == null || !responseReceived ? null : lease.backend().id();
        long start = exchange.getRequestStartTime();
        long latency = start > 0 ? System.nanoTime() - start : 0;
        handler.listener().completed(id, exchange.getStatusCode(), latency);
        handler.log().log(exchange, id, attempts, latency);
    }

    /** For the tunnel registry: close a WebSocket tunnel when its backend drains past its deadline. */
    Backend backend() {
        return lease == null ? null : lease.backend();
    }
}
