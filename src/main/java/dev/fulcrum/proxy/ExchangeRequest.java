package dev.fulcrum.proxy;

import dev.fulcrum.engine.Router;
import dev.fulcrum.engine.strategy.DecisionLog;
import dev.fulcrum.engine.strategy.RequestContext;
import io.undertow.connector.ByteBufferPool;
import io.undertow.server.ExchangeCompletionListener;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.HttpString;
import org.xnio.XnioIoThread;
import org.xnio.channels.StreamSinkChannel;

/**
 * A live request, the one object the proxy's classes hold of it. To the engine it is the request's view
 * ({@link RequestContext}): every value is read lazily, only if a strategy asks. It also keeps what a hashing strategy
 * says it hashed, for the request's record, and, while {@code proxy.logDecisions} is on, how its backend was chosen
 * ({@link DecisionRecorder}); and how it was routed.
 *
 * <p>To the proxy it is the client's side of the exchange: the request's head as parsed, the answer's status and
 * headers, the channel the answer's body goes to, and the connection's state, each under the name Undertow's
 * {@link HttpServerExchange} gives it. The proxy reads and answers the client through these alone; a server side
 * implements them ({@link UndertowRequest} for Undertow's HTTP/1.1 and HTTP/2). What only Undertow's server sides
 * have (a request body's channel, a chunked body's conduit, an upgrade's hand-over) is reached through
 * {@link #exchange()}.
 */
abstract class ExchangeRequest implements RequestContext {
    /** The decoded path with its slashes merged, as routes and strategies read it; set before routing. */
    private String path;
    private String clientIp;
    private String hashedKey;
    private long hash;
    private boolean spilled;
    /** Null unless this request's decision is recorded: what every pick checks, and all it costs when off. */
    DecisionRecorder recorder;
    /** The route it took ({@code routes[i]}), or null for the default pool. */
    Router.Route route;
    /** With a split: the split and its arms' figures as read once for this request, and the arm chosen; else null. */
    Router.Route.Arms arms;
    int arm = -1;
    /** Refused at its route's class ceiling (a shed). */
    boolean shed;

    ExchangeRequest(String path) {
        this.path = path;
    }

    void path(String path) {
        this.path = path;
    }

    @Override
    public String clientIp() {
        if (clientIp == null) {
            clientIp = peerIp();
        }
        return clientIp;
    }

    @Override
    public String method() {
        return getRequestMethod().toString();
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public String header(String name) {
        return getRequestHeaders().getFirst(name);
    }

    @Override
    public String cookie(String name) {
        return StickyCookies.first(getRequestHeaders(), name);
    }

    @Override
    public void hashed(String key, long hash) {
        this.hashedKey = key;
        this.hash = hash;
    }

    @Override
    public void spilled() {
        spilled = true;
    }

    @Override
    public DecisionLog decisions() {
        return recorder;
    }

    /** From now on, the picks for this request record how they chose. */
    void recordDecisions() {
        recorder = new DecisionRecorder(this);
    }

    /** What was recorded of how the backend was chosen, or null (not recorded, or no pick made). */
    dev.fulcrum.requests.Decision decision() {
        return recorder == null ? null : recorder.decision();
    }

    /** The pool of the split's arm it went to, or null without a split. */
    String armPool() {
        return arms == null ? null : arms.split().arms().get(arm).pool();
    }

    /** Its route's index as written, or -1 for the default pool. */
    int routeIndex() {
        return route == null ? -1 : route.index();
    }

    /** Its route's class, or null. */
    String routeClass() {
        return route == null ? null : route.routeClass();
    }

    /**
     * A split request ended with {@code status} sent to its client after {@code latencyNanos}: its arm's figures
     * count it, unless it was shed. A shed says the class sent more than its ceiling, not that the arm's release is
     * worse, so it must not bring a canary guard to roll back. Called once per request, where it ends.
     */
    void recordArm(int status, long latencyNanos) {
        if (arms != null && !shed) {
            arms.stats()[arm].record(status, latencyNanos);
        }
    }

    /** What the last hashing pick hashed, or null. */
    String hashedKey() {
        return hashedKey;
    }

    long hash() {
        return hash;
    }

    boolean wasSpilled() {
        return spilled;
    }


    // ---------------------------------------------------------------- the client's side

    /** Undertow's exchange, for what only its server sides do; null on a server side of another kind. */
    abstract HttpServerExchange exchange();

    /** The client's IP address as text (no port), or 0.0.0.0 when the connection has none. */
    abstract String peerIp();

    abstract HttpString getRequestMethod();

    /** The target's path as the client sent it (absolute-form: with scheme and authority), without the query. */
    abstract String getRequestURI();

    abstract boolean isHostIncludedInRequestURI();

    /** The decoded path, before slashes are merged. */
    abstract String getRequestPath();

    /** The query without its "?", or "" for none. */
    abstract String getQueryString();

    abstract HttpString getProtocol();

    abstract String getRequestScheme();

    abstract HeaderMap getRequestHeaders();

    /** The request's Content-Length, or -1 when it has none (chunked, or no body). */
    abstract long getRequestContentLength();

    /** When the head arrived ({@link dev.fulcrum.time.SystemClock#nanoTime()}), or -1 when not recorded. */
    abstract long getRequestStartTime();

    /** All of the request (head and body) has been read. */
    abstract boolean isRequestComplete();

    abstract XnioIoThread getIoThread();

    /** The client's connection is one HTTP/1.x connection of its own (not an HTTP/2 stream). */
    abstract boolean http1();

    /** The client's connection came over TLS. */
    abstract boolean secure();

    abstract boolean clientOpen();

    /** Closes the client's connection (on HTTP/2, the connection all its streams share). */
    abstract void closeClient();

    abstract ByteBufferPool buffers();

    /** Goes on with {@code task} on this I/O thread once the handler that called this returns. */
    abstract void dispatch(Runnable task);

    abstract void addExchangeCompleteListener(ExchangeCompletionListener l);

    /**
     * From now on a hang-up of the client ends {@code e} as a client abort ({@link ProxyExchange#clientClosed}, or
     * {@link ProxyExchange#streamGone} for an HTTP/2 stream), until {@link #unwatch}.
     */
    abstract void watch(ProxyExchange e);

    abstract void unwatch(ProxyExchange e);

    /**
     * While a request without a body waits on a backend, reads the client's connection for its hang-up (the server
     * side does not read a connection whose request is running); {@link #stopProbing} before the exchange ends.
     */
    abstract void probeWhileWaiting();

    abstract void stopProbing();

    abstract HeaderMap getResponseHeaders();

    abstract int getStatusCode();

    abstract void setStatusCode(int status);

    abstract void setReasonPhrase(String reason);

    /** Whether the connection stays open for another request after this one. */
    abstract void setPersistent(boolean persistent);

    abstract boolean isResponseStarted();

    /** The answer's body goes here, after its head (given out once). */
    abstract StreamSinkChannel getResponseChannel();

    /** Sends {@code text} as the whole answer's body, and ends the exchange once it is out. */
    abstract void send(String text);

    abstract long getResponseBytesSent();

    abstract void endExchange();
}
