package dev.fulcrum.proxy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.Lease;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.Router;
import dev.fulcrum.requests.RequestStream;
import dev.fulcrum.time.SystemClock;
import dev.fulcrum.time.Ticker;
import io.undertow.connector.ByteBufferPool;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The proxy's root handler: refuses ambiguous or oversized requests, routes the path to a pool, honours a
 * sticky cookie, and hands the request to a {@link ProxyExchange}. Runs on the I/O thread; nothing blocks.
 */
final class BalancingHandler implements HttpHandler {
    private final Engine engine;
    private final ProxySettings settings;
    private final RetryPolicy retries;
    private final AccessLog log;
    private final StickyCookies sticky;
    private final Tunnels tunnels = new Tunnels();
    private final Map<Backend, BackendConnections> connections = new ConcurrentHashMap<>();
    private final ByteBufferPool buffers;
    private volatile RequestListener listener = RequestListener.NONE;
    /**
     * {@code proxy.logDecisions}: record how each request's backend was chosen. Read once per request, and changed
     * by a config reload (a plain field read on the request path; the new value reaches the I/O threads at once).
     */
    private volatile boolean logDecisions;
    /** Where finished requests are recorded for the window and the admin API; null when none are kept. */
    private final RequestStream requests;
    /** The engine runs on {@link SystemClock#nanoTime()}: a reading the proxy took serves it too. */
    private final boolean systemClock;
    /** Slot i belongs to I/O thread i, which alone creates and uses it; one per I/O thread. */
    private final ReadDeadlines[] deadlines;
    /** Mirrored copies in flight: slot i belongs to I/O thread i, which alone reads and writes it. */
    private final int[] mirrorsInFlight;

    /** {@code buffers} and {@code ioThreads} are the server's, so a request never finds the handler half made. */
    BalancingHandler(Engine engine, ProxySettings settings, AccessLog log, ByteBufferPool buffers, int ioThreads,
                     RequestStream requests) {
        this.engine = engine;
        this.requests = requests;
        this.settings = settings;
        this.retries = RetryPolicy.of(settings);
        this.log = log;
        this.sticky = new StickyCookies(settings);
        this.buffers = buffers;
        this.deadlines = new ReadDeadlines[ioThreads];
        this.mirrorsInFlight = new int[ioThreads];
        this.systemClock = engine.ticker() == Ticker.system();
        this.logDecisions = settings.logDecisions();
    }

    /** Turns recording each request's decision on or off, from the next request on. */
    void logDecisions(boolean on) {
        this.logDecisions = on;
    }

    boolean logsDecisions() {
        return logDecisions;
    }

    /**
     * The engine's ticker at {@code systemNanos}, a {@link SystemClock#nanoTime()} just read (the same, but in engine
     * tests).
     */
    long engineNanos(long systemNanos) {
        return systemClock ? systemNanos : engine.ticker().nanos();
    }

    /** The randomness of the engine (a split's draw without a key, a mirror's share). */
    dev.fulcrum.engine.strategy.RandomSource random() {
        return engine.random();
    }

    /** The engine's pool {@code name}, or null. */
    Pool pool(String name) {
        return engine.pool(name);
    }

    /**
     * Takes one of {@code thread}'s places for mirrored copies in flight ({@link MirrorCopy}); false when all
     * {@value MirrorCopy#MAX_IN_FLIGHT_PER_THREAD} are taken. Call on that thread only, as for {@link #mirrorGive}.
     */
    boolean mirrorTake(org.xnio.XnioIoThread thread) {
        int i = thread.getNumber() % mirrorsInFlight.length;
        if (mirrorsInFlight[i] >= MirrorCopy.MAX_IN_FLIGHT_PER_THREAD) {
            return false;
        }
        mirrorsInFlight[i]++;
        return true;
    }

    void mirrorGive(org.xnio.XnioIoThread thread) {
        mirrorsInFlight[thread.getNumber() % mirrorsInFlight.length]--;
    }

    /** The read deadlines of exchanges on {@code thread}; call on that thread only. */
    ReadDeadlines deadlines(org.xnio.XnioIoThread thread) {
        ReadDeadlines[] all = deadlines;
        int i = thread.getNumber() % all.length;
        ReadDeadlines d = all[i];
        if (d == null) {
            d = new ReadDeadlines(thread, settings.readMs());
            all[i] = d;
        }
        return d;
    }

    ProxySettings settings() {
        return settings;
    }

    RetryPolicy retries() {
        return retries;
    }

    /**
     * A request ended with {@code status} sent to its client: the engine counts it among the requests answered
     * ({@link dev.fulcrum.engine.Answers}, once whatever its attempts), then the listener hears of it.
     */
    void completed(String backend, int status, long latencyNanos) {
        engine.answers().answered(status);
        listener.completed(backend, status, latencyNanos);
    }

    void listener(RequestListener l) {
        this.listener = l == null ? RequestListener.NONE : l;
    }

    AccessLog log() {
        return log;
    }

    RequestStream requests() {
        return requests;
    }

    StickyCookies sticky() {
        return sticky;
    }

    Tunnels tunnels() {
        return tunnels;
    }

    BackendConnections connections(Backend b) {
        BackendConnections c = connections.get(b);
        if (c == null) {
            c = connections.computeIfAbsent(b, k -> new BackendConnections(k.url(), BackendConnections.DNS, buffers, deadlines.length,
                    settings.connectMs(), settings.idleMs()));
        }
        return c;
    }

    /** Drops the connection pool of a removed backend. */
    void forget(String backendId) {
        connections.entrySet().removeIf(e -> {
            if (e.getKey().id().equals(backendId)) {
                e.getValue().close();
                return true;
            }
            return false;
        });
    }

    long connectionsOpened() {
        long n = 0;
        for (BackendConnections c : connections.values()) {
            n += c.opened();
        }
        return n;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        ExchangeRequest request = new UndertowRequest(exchange);
        HeadGuard guard = HeadGuard.of(exchange);
        int headProblem = guard == null ? 0 : guard.takeProblem();
        if (headProblem != 0) {
            refuseHead(request, guard, headProblem);
            return;
        }
        handle(request);
    }

    /** A request whose head its server side parsed and checked: refused, or on its way to a backend. */
    void handle(ExchangeRequest request) {
        HeaderMap headers = request.getRequestHeaders();
        HeaderValues connection = headers.get(Headers.CONNECTION);
        if (connection != null && Tokens.listsClose(connection)) {
            // "Connection: keep-alive, close": Undertow reads only a lone "close"; nothing after this request is
            // processed on the connection (RFC 9112 9.6)
            request.setPersistent(false);
        }
        String refusal = framingProblem(headers);
        if (refusal == null && !request.http1()) {
            refusal = fieldValueProblem(headers);
        }
        if (refusal != null) {
            refuse(request, 400, refusal, true);
            return;
        }
        long lineBytes = requestLineBytes(request);
        if (lineBytes > settings.maxHeaderBytes()) {
            // the request line has its own status (RFC 9112 3): 414, not 431, like nginx's large_client_header_buffers
            refuse(request, 414, "request line longer than " + settings.maxHeaderBytes()
                    + " bytes (got: " + lineBytes + ")", true);
            return;
        }
        if (headerBytes(request) > settings.maxHeaderBytes()) {
            refuse(request, 431, "request headers larger than " + settings.maxHeaderBytes() + " bytes", true);
            return;
        }
        String path = Router.mergeSlashes(request.getRequestPath());
        if (hasDotSegment(path)) {
            // routed as written, "/api/x/../admin" would go by the /api rule to a backend that resolves it to
            // /api/admin; clients resolve dot segments before they send (RFC 3986 5.2.4), so one that did not is refused
            refuse(request, 400, "request target: a \".\" or \"..\" path segment (got: "
                    + ErrorResponses.printable(request.getRequestURI()) + ")", true);
            return;
        }
        // the routes read the request lazily through it: a config without routes reads nothing more of it
        request.path(path);
        Router.Route route = engine.router().match(request, path);
        String poolName;
        if (route == null) {
            poolName = Engine.DEFAULT_POOL;
        } else if (route.pool() != null) {
            poolName = route.pool();
        } else {
            // the split as it stands now, read once: the arm chosen and the figures it is counted in go together
            Router.Route.Arms arms = route.arms();
            int arm = arms.split().arm(request, engine.random());
            request.arms = arms;
            request.arm = arm;
            poolName = arms.split().arms().get(arm).pool();
        }
        request.route = route;
        Pool pool = engine.pool(poolName);
        if (pool == null) {
            refuse(request, 503, "no pool for " + path, false);
            return;
        }
        String target = originTarget(request);
        String bad = targetProblem(target, request.getQueryString());
        if (bad != null) {
            refuse(request, 400, bad, true);
            return;
        }
        if (route != null && route.stripPrefix() && route.pathPrefix() != null) {
            target = stripPrefix(target, route.pathPrefix());
        }
        if (logDecisions) {
            request.recordDecisions();
        }
        Lease stickyLease = null;
        if (sticky.enabled()) {
            String id = sticky.backendFor(pool, StickyCookies.first(headers, sticky.cookieName(pool.name())));
            if (id != null) {
                // a route's class ceiling holds for the cookie's backend too: at the ceiling, the pick decides
                stickyLease = pool.tryLease(id, route == null ? null : route.ceiling());
            }
        }
        ProxyExchange proxied = new ProxyExchange(this, pool, request, target, stickyLease);
        if (headers.contains(Headers.TRANSFER_ENCODING)) {
            ChunkGrammar.install(request.exchange(), proxied::bodyRefused);
        }
        // dispatch keeps the exchange open after this method returns; the work continues on this I/O thread
        request.dispatch(proxied);
    }

    /** Answers a head {@link HeadGuard} marked: an HTTP version it does not speak (505), a folded field (400). */
    private void refuseHead(ExchangeRequest request, HeadGuard guard, int problem) {
        if ((problem & HeadGuard.VERSION) != 0) {
            refuse(request, 505, "HTTP version not supported (got: " + guard.version() + "); HTTP/1.1 and HTTP/1.0 "
                    + "are", true);
        } else {
            refuse(request, 400, "a header field folded onto a line starting with a space or tab (obs-fold, "
                    + "RFC 9112 5.2): folding is not accepted, send each field on one line", true);
        }
    }

    /**
     * Answers a request refused before any backend was asked (400, 414, 431, 503 without a pool) and logs it as any
     * other: one access-log line and one metrics count per request, refused or not. A request refused once routed
     * counts in its route's arm.
     */
    private void refuse(ExchangeRequest request, int status, String message, boolean close) {
        ErrorResponses.send(request, status, message, close);
        long start = request.getRequestStartTime();
        long latency = start > 0 ? SystemClock.nanoTime() - start : 0;
        completed(null, status, latency);
        request.recordArm(status, latency);
        log.log(request, null, status, 0, latency, request.getResponseBytesSent(), null);
        if (requests != null) {
            RequestRecords.write(requests, null, request, null, null, null, 0, null, status, false,
                    SystemClock.nanoTime());
        }
    }

    /**
     * Request smuggling defence (RFC 9112 6.3): Content-Length together with Transfer-Encoding, several
     * different Content-Lengths, or a transfer coding other than chunked are refused, never guessed at.
     */
    static String framingProblem(HeaderMap h) {
        HeaderValues te = h.get(Headers.TRANSFER_ENCODING);
        HeaderValues cl = h.get(Headers.CONTENT_LENGTH);
        if (te != null && cl != null) {
            return "Content-Length and Transfer-Encoding together (got: Content-Length: " + cl.getFirst()
                    + ", Transfer-Encoding: " + te.getFirst() + ")";
        }
        if (te != null && !Tokens.onlyChunked(te)) {
            return "Transfer-Encoding: only chunked is accepted (got: " + String.join(", ", te) + ")";
        }
        if (cl != null && Tokens.contentLength(cl) < 0) {
            return "Content-Length: conflicting or invalid values (got: " + String.join(", ", cl) + ")";
        }
        return null;
    }

    /**
     * The raw target without the route's prefix. The router matched the decoded path with its slashes merged, so the
     * prefix is found in the raw target the same way: {@code %73} counts as the {@code s} it stands for, {@code //} as
     * one slash, and the rest goes on as the client wrote it. ({@code %2F} stays three characters, as Undertow leaves
     * an encoded slash undecoded.)
     */
    static String stripPrefix(String target, String prefix) {
        byte[] want = prefix.getBytes(StandardCharsets.UTF_8);
        int i = 0;
        int k = 0;
        while (k < want.length) {
            if (i >= target.length()) {
                return "/";
            }
            int b = target.charAt(i);
            int step = 1;
            if (b == '/' && k > 0 && want[k - 1] == '/') {
                i++;
                continue;
            }
            if (b == '%' && i + 2 < target.length()) {
                int hi = Character.digit(target.charAt(i + 1), 16);
                int lo = Character.digit(target.charAt(i + 2), 16);
                if (hi >= 0 && lo >= 0 && (hi << 4 | lo) != '/') {
                    b = hi << 4 | lo;
                    step = 3;
                }
            }
            if ((byte) b != want[k]) {
                // not the prefix the router matched (a decoding this walk does not know): cut by the prefix's length
                String rest = target.substring(Math.min(target.length(), prefix.length()));
                return rest.startsWith("/") ? rest : "/" + rest;
            }
            i += step;
            k++;
        }
        String rest = target.substring(i);
        return rest.startsWith("/") ? rest : "/" + rest;
    }

    /** Whether the decoded path has a {@code .} or {@code ..} segment (encoded ones, %2e, come decoded here). */
    static boolean hasDotSegment(String path) {
        int n = path.length();
        for (int i = 0; i < n; i++) {
            if (path.charAt(i) == '.' && (i == 0 || path.charAt(i - 1) == '/')) {
                int end = i + 1 < n && path.charAt(i + 1) == '.' ? i + 2 : i + 1;
                if (end == n || path.charAt(end) == '/') {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The path to send on, as the client sent it (never decoded: a decoded %0d%0a would end the line). An absolute-form
     * target ({@code GET http://host/p HTTP/1.1}) loses its scheme and authority.
     */
    static String originTarget(ExchangeRequest request) {
        String uri = request.getRequestURI();
        if (!request.isHostIncludedInRequestURI()) {
            return uri;
        }
        int scheme = uri.indexOf("://");
        int path = scheme < 0 ? -1 : uri.indexOf('/', scheme + 3);
        return path < 0 ? "/" : uri.substring(path);
    }

    /**
     * What goes into the backend's request line must be one visible-ASCII token: a space, CR, LF or other control
     * byte, a fragment or a non-ASCII char there would let a client write a request line (and headers, and a second
     * request) of its own. HTTP/1.1's parser lets none of them through raw; this holds the line for every way in
     * (an HTTP/2 :path, an absolute-form target).
     */
    static String targetProblem(String target, String query) {
        String t = target;
        for (int part = 0; part < 2; part++) {
            for (int i = 0; t != null && i < t.length(); i++) {
                char c = t.charAt(i);
                if (c <= 0x20 || c >= 0x7f || c == '#') {
                    return "request target: invalid character 0x" + Integer.toHexString(c) + " (got: "
                            + ErrorResponses.printable(target + (query == null || query.isEmpty() ? "" : "?" + query)) + ")";
                }
            }
            t = query;
        }
        return null;
    }

    /**
     * RFC 9113 8.2.1: an HTTP/2 field value holding CR, LF or NUL is malformed. HPACK carries any octet and Undertow
     * checks names, not values; passed on, such a value would split the HTTP/1.1 head written to the backend into
     * two requests (smuggling). HTTP/1.1's own parser never lets them through.
     */
    static String fieldValueProblem(HeaderMap h) {
        if (h.getFirst(Headers.HOST) == null) {
            // Undertow sets Host from :authority, dropping any host field; HTTP/1.1 without Host gets 400 too (RFC 9112 3.2)
            return "HTTP/2 request without :authority (a host field alone is not read; send :authority)";
        }
        for (long f = h.fastIterateNonEmpty(); f != -1L; f = h.fiNextNonEmpty(f)) {
            HeaderValues v = h.fiCurrent(f);
            for (int i = 0; i < v.size(); i++) {
                String s = v.get(i);
                for (int k = 0; k < s.length(); k++) {
                    char c = s.charAt(k);
                    if (c == '\r' || c == '\n' || c == 0) {
                        return "header " + v.getHeaderName() + ": CR, LF or NUL in an HTTP/2 field value";
                    }
                }
            }
        }
        return null;
    }

    /** "METHOD SP target[?query] SP VERSION" as it came on the wire, without the CRLF. */
    private static long requestLineBytes(ExchangeRequest ex) {
        long n = ex.getRequestMethod().length() + 1 + ex.getRequestURI().length() + 1 + ex.getProtocol().length();
        String qs = ex.getQueryString();
        if (qs != null && !qs.isEmpty()) {
            n += qs.length() + 1;
        }
        return n;
    }

    /** Request line plus headers as they came on the wire (name, ": ", value, CRLF). */
    private static long headerBytes(ExchangeRequest ex) {
        HeaderMap h = ex.getRequestHeaders();
        long n = ex.getRequestMethod().length() + ex.getRequestURI().length() + 12;
        String qs = ex.getQueryString();
        if (qs != null) {
            n += qs.length() + 1;
        }
        for (long f = h.fastIterateNonEmpty(); f != -1L; f = h.fiNextNonEmpty(f)) {
            HeaderValues v = h.fiCurrent(f);
            int nameLen = v.getHeaderName().length();
            for (int i = 0; i < v.size(); i++) {
                n += nameLen + 4 + v.get(i).length();
            }
        }
        return n;
    }
}
