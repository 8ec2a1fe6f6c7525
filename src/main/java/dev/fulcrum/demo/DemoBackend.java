package dev.fulcrum.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.time.SystemClock;
import io.undertow.Undertow;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RequestTooBigException;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.Options;

/**
 * A small HTTP server that plays a backend for demos, workshops and benchmarks (docs/REFERENCE.md §2.4).
 *
 * <p>It answers on {@code 127.0.0.1:port}, and every answer carries {@code X-Demo-Backend: <id>}:
 * <ul>
 *   <li>{@code GET /health}: 200 {@code {"status":"ok"}};</li>
 *   <li>{@code ANY /echo}: 200 and a JSON object of the method, path, query, headers and body received;</li>
 *   <li>{@code GET /metrics.json}: {@code {"cpu":0..1,"inflight":N,"latencyMs":X}} (see {@link #cpu()});</li>
 *   <li>any other path: 200 {@code hello from <id>} after {@link #latencyMs()}, or 500 for an
 *       {@link #errorRate()} share of requests (the failing ones take as long: a sick server is rarely fast).</li>
 * </ul>
 *
 * <p>Going {@linkplain #update down} really stops the server: the listening socket is closed and open
 * connections are dropped, so clients and the health checker see "connection refused" exactly as with a
 * crashed process. Coming back up listens again on the same port. {@code /health} answers 503 only in the
 * instant between the switch and the socket closing.
 *
 * <p>Latency costs no thread: a slow request is parked with {@code executeAfter} on its own IO thread
 * and answered from there, so thousands of slow requests wait at once on two IO threads. Nothing is logged
 * per request; this server doubles as a benchmark target.
 *
 * <p>Example: {@code DemoBackend.start(new DemoSpec("demo-a", 0, 1, 5, 0.1))} listens on a free port and
 * answers {@code hello from demo-a} after 5 ms to nine requests out of ten, 500 to the tenth.
 */
public final class DemoBackend implements AutoCloseable {
    public static final String HEADER = "X-Demo-Backend";
    /** The header the proxy marks a mirrored copy with ({@code X-Fulcrum-Mirror: 1}). */
    public static final String MIRROR_HEADER = "X-Fulcrum-Mirror";
    static final HttpString HEADER_NAME = new HttpString(HEADER);
    static final long MAX_ECHO_BYTES = 16L << 20;
    private static final Logger log = LoggerFactory.getLogger(DemoBackend.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TEXT = "text/plain; charset=utf-8";
    private static final String APPLICATION_JSON = "application/json";
    private static final byte[] HEALTH_OK = "{\"status\":\"ok\"}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] HEALTH_DOWN = "{\"status\":\"down\"}".getBytes(StandardCharsets.UTF_8);
    /** A guess that keeps the synthetic cpu in a readable range; see {@link #cpu()}. */
    static final double CPU_HALF_LOAD = 20;

    private final String id;
    private final int weight;
    private final byte[] hello;
    private final byte[] failure;
    private volatile double latencyMs;
    private volatile double errorRate;
    private volatile boolean down;
    private final AtomicLong spikeMs = new AtomicLong();
    private final LongAdder requests = new LongAdder();
    private final ConcurrentHashMap<Integer, LongAdder> byStatus = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, LongAdder> receivedByMethod = new ConcurrentHashMap<>();
    /** Application requests received carrying {@code X-Fulcrum-Mirror: 1}: copies a proxy mirrored here. */
    private final LongAdder mirrored = new LongAdder();
    private final RecentLatency recent = new RecentLatency();

    // guarded by this
    private Undertow server;
    private int port;
    /**
     * In-flight requests of the current server run. Stopping the server drops its connections and the timers
     * of parked requests with them, so their completion listeners may never run; a fresh counter per run
     * keeps the count from leaking across a down/up cycle.
     */
    private volatile AtomicInteger inFlight = new AtomicInteger();

    private DemoBackend(DemoSpec spec) {
        this.id = spec.id();
        this.weight = spec.weight();
        this.port = spec.port();
        this.latencyMs = spec.latencyMs();
        this.errorRate = spec.errorRate();
        this.hello = ("hello from " + id).getBytes(StandardCharsets.UTF_8);
        this.failure = ("error from " + id).getBytes(StandardCharsets.UTF_8);
    }

    /** Starts a demo backend; with port 0 the OS picks a free port, which {@link #port()} then reports. */
    public static DemoBackend start(DemoSpec spec) {
        DemoBackend b = new DemoBackend(spec);
        synchronized (b) {
            b.listen();
        }
        log.info("demo backend {} listening on {}", b.id, b.url());
        return b;
    }

    // ---------------------------------------------------------------- accessors

    public String id() {
        return id;
    }

    /** The actual port (stays the same across down/up cycles). */
    public synchronized int port() {
        return port;
    }

    /** {@code http://127.0.0.1:<port>}. */
    public String url() {
        return "http://127.0.0.1:" + port();
    }

    public int weight() {
        return weight;
    }

    /** The spec this backend would be restarted with: its id, port, weight and current settings. */
    public DemoSpec spec() {
        return new DemoSpec(id, port(), weight, latencyMs, errorRate);
    }

    /** How this backend joins a pool: its id, url and weight, no in-flight cap, not a backup. */
    public BackendSpec backendSpec() {
        return new BackendSpec(id, url(), weight, null, false);
    }

    public double latencyMs() {
        return latencyMs;
    }

    public double errorRate() {
        return errorRate;
    }

    public boolean isDown() {
        return down;
    }

    /** Requests being served right now (parked slow ones included). */
    public int inFlight() {
        return inFlight.get();
    }

    /** A one-shot spike armed by {@link #spike} and not yet taken by a request; 0 when none. */
    public long pendingSpikeMs() {
        return spikeMs.get();
    }

    public DemoCounters counters() {
        Map<Integer, Long> m = new TreeMap<>();
        byStatus.forEach((status, n) -> m.put(status, n.sum()));
        return new DemoCounters(requests.sum(), m, inFlight());
    }

    /**
     * Application requests received since start, by method, counted as each one arrives (before any latency, and
     * whether or not it is ever answered): what shows a request sent twice, where {@link #counters()} counts answers.
     * {@code /health} and {@code /metrics.json} are not counted, as in {@link DemoCounters}.
     */
    public Map<String, Long> receivedByMethod() {
        Map<String, Long> m = new TreeMap<>();
        receivedByMethod.forEach((method, n) -> m.put(method, n.sum()));
        return m;
    }

    /**
     * Application requests received since start that carried {@code X-Fulcrum-Mirror: 1}, the proxy's mark on a
     * mirrored copy (counted in {@link #receivedByMethod()} too): what shows a shadow pool got its copies.
     */
    public long mirrored() {
        return mirrored.sum();
    }

    /**
     * The synthetic cpu figure served at {@code /metrics.json}. A demo backend burns no real cpu, so it
     * pretends each in-flight request costs work in proportion to its latency setting:
     * {@code load = inflight * (1 + latencyMs / 100)} and {@code cpu = load / (load + 20)}, which is 0 when
     * idle, rises with both, and saturates below 1. Worked example: 20 in flight at 0 ms gives 0.5; 10 in
     * flight at 100 ms gives load 20, so 0.5; 100 in flight at 100 ms gives load 200, so 0.91.
     */
    public double cpu() {
        return syntheticCpu(inFlight(), latencyMs);
    }

    static double syntheticCpu(int inFlight, double latencyMs) {
        double load = inFlight * (1 + latencyMs / 100.0);
        return load / (load + CPU_HALF_LOAD);
    }

    /**
     * The latency served at {@code /metrics.json}: an exponentially weighted average of the time ordinary
     * requests actually took (spikes included), or the latency setting when none completed in the last 2 s
     * (then the setting is the best guess of what the next request takes).
     */
    public double recentLatencyMs() {
        return recent.value(latencyMs);
    }

    // ---------------------------------------------------------------- live changes

    /**
     * Changes any subset of the settings (null = leave as is). Everything is validated before anything
     * changes, e.g. {@code errorRate: must be between 0 and 1 (got: 2)}. {@code down=true} stops the server
     * (connections are refused); {@code down=false} listens again on the same port.
     *
     * @throws IllegalArgumentException for a value out of range
     * @throws IllegalStateException    when the port cannot be bound again
     */
    public synchronized void update(Double latencyMs, Double errorRate, Boolean down) {
        if (latencyMs != null) {
            DemoSpec.checkLatency(latencyMs);
        }
        if (errorRate != null) {
            DemoSpec.checkErrorRate(errorRate);
        }
        if (latencyMs != null) {
            this.latencyMs = latencyMs;
        }
        if (errorRate != null) {
            this.errorRate = errorRate;
        }
        if (down != null && down != this.down) {
            if (down) {
                this.down = true; // /health says 503 to anyone who races the socket closing
                stopServer();
                log.info("demo backend {} down: port {} closed", id, port);
            } else {
                listen();
                this.down = false;
                log.info("demo backend {} up again on port {}", id, port);
            }
        }
    }

    /** Makes the next ordinary request take {@code ms} (the window's "slow request" button). */
    public void spike(long ms) {
        if (ms < 1 || ms > DemoSpec.MAX_LATENCY_MS) {
            throw new IllegalArgumentException("spikeMs: must be between 1 and 60000 (got: " + ms + ")");
        }
        spikeMs.set(ms);
    }

    @Override
    public synchronized void close() {
        stopServer();
    }

    // ---------------------------------------------------------------- server lifecycle (guarded by this)

    private void listen() {
        inFlight = new AtomicInteger();
        Undertow u = Undertow.builder()
                .addHttpListener(port, "127.0.0.1")
                // many demo backends share a small machine; latency costs no thread, so two IO threads are plenty
                .setIoThreads(2)
                .setWorkerThreads(2)
                .setSocketOption(Options.REUSE_ADDRESSES, true) // rebind the same port right after going down
                .setHandler(this::handle)
                .build();
        try {
            u.start();
        } catch (RuntimeException e) {
            u.stop();
            throw new IllegalStateException("port: cannot listen on 127.0.0.1:" + port + " (got: " + e.getMessage() + ")", e);
        }
        server = u;
        port = ((InetSocketAddress) u.getListenerInfo().get(0).getAddress()).getPort();
    }

    private void stopServer() {
        if (server != null) {
            server.stop(); // closes the listener, then the worker and with it every open connection
            server = null;
        }
    }

    // ---------------------------------------------------------------- request handling (IO threads)

    private void handle(HttpServerExchange exchange) {
        exchange.getResponseHeaders().put(HEADER_NAME, id);
        switch (exchange.getRequestPath()) {
            case "/health" -> {
                if (readOnly(exchange)) {
                    respond(exchange, down ? 503 : 200, APPLICATION_JSON, down ? HEALTH_DOWN : HEALTH_OK);
                }
            }
            case "/metrics.json" -> {
                if (readOnly(exchange)) {
                    String body = String.format(Locale.ROOT, "{\"cpu\":%.4f,\"inflight\":%d,\"latencyMs\":%.3f}",
                            cpu(), inFlight(), recentLatencyMs());
                    respond(exchange, 200, APPLICATION_JSON, body.getBytes(StandardCharsets.UTF_8));
                }
            }
            case "/echo" -> echo(exchange);
            default -> hello(exchange);
        }
    }

    /** GET and HEAD only; anything else is 405 with Allow. */
    private static boolean readOnly(HttpServerExchange exchange) {
        HttpString m = exchange.getRequestMethod();
        if (m.equals(Methods.GET) || m.equals(Methods.HEAD)) {
            return true;
        }
        exchange.getResponseHeaders().put(Headers.ALLOW, "GET, HEAD");
        respond(exchange, 405, TEXT, "method not allowed".getBytes(StandardCharsets.UTF_8));
        return false;
    }

    private void received(HttpServerExchange exchange) {
        receivedByMethod.computeIfAbsent(exchange.getRequestMethod().toString(), m -> new LongAdder()).increment();
        if ("1".equals(exchange.getRequestHeaders().getFirst(MIRROR_HEADER))) {
            mirrored.increment();
        }
    }

    private void hello(HttpServerExchange exchange) {
        received(exchange);
        AtomicInteger run = inFlight;
        run.incrementAndGet();
        long start = SystemClock.nanoTime();
        exchange.addExchangeCompleteListener((ex, next) -> {
            run.decrementAndGet();
            recent.record(SystemClock.nanoTime() - start);
            next.proceed();
        });
        // a plain read on the hot path; only an armed spike pays for the write that takes it
        long spike = spikeMs.get() > 0 ? spikeMs.getAndSet(0) : 0;
        double delay = spike > 0 ? spike : latencyMs;
        double rate = errorRate;
        boolean fail = rate > 0 && ThreadLocalRandom.current().nextDouble() < rate;
        if (delay <= 0) {
            answerHello(exchange, fail);
            return;
        }
        long ms = (long) Math.ceil(delay);
        exchange.dispatch(exchange.getIoThread(),
                () -> exchange.getIoThread().executeAfter(() -> answerHello(exchange, fail), ms, TimeUnit.MILLISECONDS));
    }

    private void answerHello(HttpServerExchange exchange, boolean fail) {
        count(fail ? 500 : 200);
        if (fail) {
            respond(exchange, 500, TEXT, failure);
        } else {
            respond(exchange, 200, TEXT, hello);
        }
    }

    private void echo(HttpServerExchange exchange) {
        received(exchange);
        AtomicInteger run = inFlight;
        run.incrementAndGet();
        exchange.addExchangeCompleteListener((ex, next) -> {
            run.decrementAndGet();
            next.proceed();
        });
        exchange.setMaxEntitySize(MAX_ECHO_BYTES);
        // the receiver reads without blocking and calls back (on the IO thread) once the whole body is in
        exchange.getRequestReceiver().receiveFullBytes(this::answerEcho, (ex, e) -> {
            if (e instanceof RequestTooBigException) {
                count(413);
                respond(ex, 413, TEXT, ("echo: body must be at most " + MAX_ECHO_BYTES + " bytes")
                        .getBytes(StandardCharsets.UTF_8));
            } else {
                count(400);
                ex.setStatusCode(400);
                ex.endExchange();
            }
        });
    }

    private void answerEcho(HttpServerExchange exchange, byte[] body) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("backend", id);
        out.put("method", exchange.getRequestMethod().toString());
        out.put("path", exchange.getRequestPath());
        out.put("query", exchange.getQueryString());
        Map<String, List<String>> params = new LinkedHashMap<>();
        for (Map.Entry<String, Deque<String>> e : exchange.getQueryParameters().entrySet()) {
            params.put(e.getKey(), new ArrayList<>(e.getValue()));
        }
        out.put("queryParams", params);
        Map<String, String> headers = new LinkedHashMap<>();
        for (HeaderValues h : exchange.getRequestHeaders()) {
            headers.put(h.getHeaderName().toString(), String.join(", ", h));
        }
        out.put("headers", headers);
        out.put("body", new String(body, StandardCharsets.UTF_8));
        out.put("bodyBytes", body.length);
        try {
            byte[] json = JSON.writeValueAsBytes(out);
            count(200);
            respond(exchange, 200, APPLICATION_JSON, json);
        } catch (JsonProcessingException e) {
            // maps of strings always serialize; this is a programming error
            throw new IllegalStateException(e);
        }
    }

    private static void respond(HttpServerExchange exchange, int status, String contentType, byte[] body) {
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, contentType);
        exchange.getResponseSender().send(ByteBuffer.wrap(body));
    }

    /** Counted as the answer is written (the in-flight count drops once it is sent), so a client that has read it sees it counted. */
    private void count(int status) {
        requests.increment();
        byStatus.computeIfAbsent(status, s -> new LongAdder()).increment();
    }

    /**
     * An exponentially weighted moving average of request durations (alpha 0.2: a guess that follows a
     * latency change within about ten requests yet smooths one slow outlier), lock-free.
     */
    static final class RecentLatency {
        static final double ALPHA = 0.2;
        static final long FRESH_NANOS = 2_000_000_000L;
        private final AtomicLong bits = new AtomicLong(Double.doubleToLongBits(Double.NaN));
        private volatile long lastNanos;

        void record(long nanos) {
            double ms = nanos / 1e6;
            long cur;
            long next;
            do {
                cur = bits.get();
                double c = Double.longBitsToDouble(cur);
                next = Double.doubleToLongBits(Double.isNaN(c) ? ms : c + ALPHA * (ms - c));
            } while (!bits.compareAndSet(cur, next));
            lastNanos = SystemClock.nanoTime();
        }

        double value(double fallback) {
            double v = Double.longBitsToDouble(bits.get());
            if (Double.isNaN(v) || SystemClock.nanoTime() - lastNanos > FRESH_NANOS) {
                return fallback;
            }
            return v;
        }
    }

    @Override
    public String toString() {
        return "DemoBackend[" + id + " " + url() + "]";
    }
}
