package dev.fulcrum.proxy;

import dev.fulcrum.engine.Engine;
import dev.fulcrum.requests.RequestStream;
import dev.fulcrum.time.SystemClock;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.connector.ByteBufferPool;
import io.undertow.server.HttpHandler;
import io.undertow.server.ExchangeCompletionListener;
import io.undertow.server.handlers.HttpContinueReadHandler;
import io.undertow.util.Headers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLContext;
import org.xnio.Options;

/**
 * The proxy listener: an Undertow server whose root handler is the {@link BalancingHandler}. Everything
 * runs on the I/O threads (one per core); there is no worker pool on the request path.
 */
public final class ProxyServer implements AutoCloseable {
    /** Requests whose headers exceed even this are cut off by Undertow with a bare 400. */
    private static final int HARD_HEADER_LIMIT = 256 * 1024;

    private final Engine engine;
    private final ProxySettings settings;
    private final AccessLog accessLog;
    private final int ioThreads;
    private final ByteBufferPool buffers = new ThreadCachedBufferPool(16 * 1024, true, 64, 256);
    private final BalancingHandler balancer;
    private final HttpHandler root;
    /**
     * Requests begun and not yet complete, for the graceful stop. A LongAdder: Undertow's GracefulShutdownHandler
     * kept one shared counter that every I/O thread updated twice per request, moving its cache line between cores.
     */
    private final LongAdder inFlight = new LongAdder();
    private final ExchangeCompletionListener done = (ex, next) -> {
        inFlight.decrement();
        HeadGuard.exchangeDone(ex); // before Undertow looks at the next request's bytes
        next.proceed();
    };
    /** Set by {@link #shutdownGracefully}: requests that still arrive get the contract's 503 and a closed connection. */
    private volatile boolean shuttingDown;
    private Undertow server;
    private int port;
    private int tlsPort = -1;
    private final RequestStream requests;
    /** Fulcrum's own HTTP/1.1 server side on the plain port, or null. */
    private Http1Front front;

    public ProxyServer(Engine engine, ProxySettings settings) {
        this.engine = engine;
        this.settings = settings;
        try {
            this.accessLog = new AccessLog(settings.accessLog());
        } catch (IOException e) {
            throw new UncheckedIOException("proxy.accessLog: cannot open (got: " + settings.accessLog() + ")", e);
        }
        this.ioThreads = settings.ioThreads() > 0 ? settings.ioThreads() : Math.max(2, Runtime.getRuntime().availableProcessors());
        this.requests = settings.recentRequests() > 0
                ? new RequestStream(settings.recentRequests(), RequestRecords.HEADERS) : null;
        this.balancer = new BalancingHandler(engine, settings, accessLog, buffers, ioThreads, requests);
        // 100-continue handling only where a client asked for it and a body follows: its check costs every other
        // request a set lookup, and on a request without a body it would end the connection after the answer (no
        // body to wait for, nothing to continue; RFC 9110 10.1.1)
        HttpHandler continuing = new HttpContinueReadHandler(balancer);
        this.root = ex -> (!ex.isRequestComplete() && ex.getRequestHeaders().contains(Headers.EXPECT) ? continuing
                : balancer).handleRequest(ex);
    }

    /** Requests Fulcrum's own HTTP/1.1 server side read, since the start (0 when it is off). */
    long http1FrontRequests() {
        return front == null ? 0 : front.served();
    }

    /** A request {@link Http1Front} read: counted, and refused while stopping, as the listener's own below. */
    private void serve(FrontRequest r) {
        inFlight.increment();
        r.addExchangeCompleteListener(done);
        if (shuttingDown) {
            ErrorResponses.send(r, 503, "shutting down: no new requests", true);
            return;
        }
        balancer.handle(r);
    }

    public ProxyServer start() {
        Undertow.Builder builder = Undertow.builder()
                .setByteBufferPool(buffers)
                .addHttpListener(settings.port(), settings.host());
        ProxySettings.Tls tls = settings.tls();
        if (tls != null) {
            SSLContext ssl = tls.certificate() == null
                    ? TlsContexts.local(tls.certificateDir(), tls.names())
                    : TlsContexts.fromPem(Path.of(tls.certificate()), Path.of(tls.privateKey()));
            builder.addHttpsListener(tls.port(), settings.host(), ssl);
        }
        server = builder
                .setIoThreads(ioThreads)
                .setWorkerThreads(4)
                .setServerOption(UndertowOptions.MAX_HEADER_SIZE, Math.max(HARD_HEADER_LIMIT, settings.maxHeaderBytes() * 4))
                .setServerOption(UndertowOptions.REQUEST_PARSE_TIMEOUT, (int) settings.requestHeaderMs())
                .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, (int) settings.idleMs())
                .setServerOption(UndertowOptions.RECORD_REQUEST_START_TIME, true)
                .setServerOption(UndertowOptions.MAX_ENTITY_SIZE, -1L) // bodies stream through; the backend decides
                .setServerOption(UndertowOptions.ALWAYS_SET_DATE, true)
                // h2 through ALPN on the TLS listener, h2c on the plain one, with or without TLS beside it
                .setServerOption(UndertowOptions.ENABLE_HTTP2, settings.http2())
                // Undertow's builder holds the answers to pipelined requests until no request is left to read: the
                // bare 400 it writes for a malformed next head would go out alone, and an answer would wait on the
                // next head (lost if that never completes). Off, each answer goes out as it is done
                .setServerOption(UndertowOptions.BUFFER_PIPELINED_DATA, false)
                .setSocketOption(Options.TCP_NODELAY, true)
                .setSocketOption(Options.BACKLOG, 4096)
                .setHandler(ex -> {
                    // counted before the flag is read: a stop that reads no request in flight after setting the flag
                    // cannot miss one that read the flag unset (both sides are sequentially consistent)
                    inFlight.increment();
                    ex.addExchangeCompleteListener(done);
                    if (shuttingDown) {
                        // Undertow's own refusal is a bare 503 that keeps the connection: a JSON 503, and the
                        // keep-alive client moves on
                        ErrorResponses.send(new UndertowRequest(ex), 503, "shutting down: no new requests", true);
                        return;
                    }
                    root.handleRequest(ex);
                })
                .build();
        server.start();
        // Fulcrum's own HTTP/1.1 server side on the plain listener (Http1Front)
        front = settings.http1Front() ? new Http1Front(buffers, this::serve, settings.idleMs(), ioThreads) : null;
        for (Undertow.ListenerInfo info : server.getListenerInfo()) {
            if (!HeadGuard.installOn(info, "https".equals(info.getProtcol()) ? null : front)) {
                org.slf4j.LoggerFactory.getLogger(ProxyServer.class).warn("listener {}: request heads are not "
                        + "checked for obs-fold and HTTP versions (Undertow's listener is not as expected)", info);
            }
            int p = ((InetSocketAddress) info.getAddress()).getPort();
            if ("https".equals(info.getProtcol())) {
                tlsPort = p;
            } else {
                port = p;
            }
        }
        engine.subscribe(e -> {
            if ("membership".equals(e.type()) && "removed".equals(e.to())) {
                balancer.forget(e.backend());
                balancer.tunnels().close(e.backend());
            } else if ("drain".equals(e.type()) && "DRAINING".equals(e.to())) {
                // a drain waits for open WebSockets like any request, but only up to drainTimeoutMs; the deadline is
                // set whether or not one is open now: a WebSocket whose 101 is on its way to the client as the drain
                // starts is counted only once that answer has gone, and must not stay open past the drain
                String id = e.backend();
                var worker = server.getWorker();
                worker.getIoThread().executeAfter(() -> worker.execute(() -> closeTunnelsIfStillDraining(id)),
                        settings.drainTimeoutMs(), java.util.concurrent.TimeUnit.MILLISECONDS);
            }
        });
        return this;
    }


    /**
     * The backend a request's sticky cookie names in {@code pool}, as the proxy reads it (null when sticky sessions
     * are off, or the cookie is missing, forged or another pool's): for "why this backend".
     */
    public String stickyBackend(dev.fulcrum.engine.Pool pool, dev.fulcrum.engine.strategy.RequestContext request) {
        StickyCookies sticky = balancer.sticky();
        return sticky.enabled() ? sticky.backendFor(pool, request.cookie(sticky.cookieName(pool.name()))) : null;
    }

    public int port() {
        return port;
    }

    /** The HTTPS port, or -1 without TLS. */
    public int tlsPort() {
        return tlsPort;
    }

    /** {@code https://host:port}, or null without TLS. */
    public String tlsUrl() {
        return tlsPort < 0 ? null : "https://" + hostForUrl(settings.host()) + ":" + tlsPort;
    }

    public String url() {
        return "http://" + hostForUrl(settings.host()) + ":" + port;
    }

    static String hostForUrl(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    /** New backend connections opened so far (reuse check: per request this should be near 0). */
    public long backendConnectionsOpened() {
        return balancer.connectionsOpened();
    }

    /** The requests this proxy completed, newest kept ({@code proxy.recentRequests} per I/O thread); null if none. */
    public RequestStream requests() {
        return requests;
    }

    /**
     * {@code proxy.logDecisions}: from the next request on, record (or stop recording) how each request's backend was
     * chosen, in the access log's {@code "decision"} and the request stream (docs/REFERENCE.md §5).
     */
    public void logDecisions(boolean on) {
        balancer.logDecisions(on);
    }

    /** Whether requests' decisions are recorded now. */
    public boolean logsDecisions() {
        return balancer.logsDecisions();
    }

    /** Observes every finished request (metrics). */
    public void setRequestListener(RequestListener listener) {
        balancer.listener(listener);
    }

    /** Threads running the proxy's sockets ({@code proxy.ioThreads}, or one per core and at least 2). */
    public int ioThreads() {
        return server.getWorker().getIoThreadCount();
    }

    public int openTunnels() {
        return balancer.tunnels().count();
    }

    /**
     * The upgraded connections (WebSockets) open now, newest first, each as its record would read if it closed now
     * (status 101, its life and the bytes each way so far), named {@code tunnel:N}; read-only, from any thread.
     */
    public java.util.List<dev.fulcrum.requests.RequestSample> listOpenTunnels() {
        return balancer.tunnels().list();
    }

    private void closeTunnelsIfStillDraining(String id) {
        for (var v : engine.backends()) {
            if (v.id().equals(id) && v.state() == dev.fulcrum.engine.BackendState.DRAINING) {
                balancer.tunnels().close(id);
            }
        }
    }

    /** Opens the access log file again by its name (after logrotate moved it; SIGUSR1). */
    public void reopenAccessLog() {
        accessLog.reopen();
    }

    /** Closes the WebSocket tunnels to a backend (its drain deadline passed). */
    public void closeTunnels(String backendId) {
        balancer.tunnels().close(backendId);
    }

    /**
     * Graceful stop: refuse new requests (503), wait for in-flight ones up to the drain timeout, then stop.
     * @return true when every in-flight request finished in time
     */
    public boolean shutdownGracefully() {
        shuttingDown = true;
        if (server != null) {
            for (Undertow.ListenerInfo l : server.getListenerInfo()) {
                closeListeningSocket(l);
            }
        }
        boolean clean;
        try {
            clean = awaitNoRequests(settings.drainTimeoutMs());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            clean = false;
        }
        balancer.tunnels().close(null);
        close();
        return clean;
    }

    private boolean awaitNoRequests(long ms) throws InterruptedException {
        long deadline = SystemClock.nanoTime() + ms * 1_000_000L;
        while (inFlight.sum() > 0) {
            if (SystemClock.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    /**
     * Stops accepting as nginx does on a graceful quit: the listening socket closes, so a new connection is refused
     * at once (a client or a balancer in front tries elsewhere) while open connections finish. Undertow's own
     * {@code ListenerInfo.suspend()} would also close every open connection, requests in flight included, so the
     * listener's channel is closed directly (a private field of Undertow 2.3's ListenerInfo; should it move, the
     * socket stays open until the end and late requests still get the JSON 503 with the connection closed).
     */
    private static void closeListeningSocket(Undertow.ListenerInfo l) {
        try {
            java.lang.reflect.Field f = Undertow.ListenerInfo.class.getDeclaredField("channel");
            f.setAccessible(true);
            org.xnio.IoUtils.safeClose((java.io.Closeable) f.get(l));
        } catch (ReflectiveOperationException | RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(ProxyServer.class).debug("listener {} stays open until the end", l, e);
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.stop();
            server = null;
        }
        accessLog.close();
    }
}
