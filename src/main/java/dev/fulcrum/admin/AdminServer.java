package dev.fulcrum.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.ConfigProblem;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.Router;
import dev.fulcrum.engine.routing.Split;
import dev.fulcrum.config.SplitArmConfig;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.config.ConfigValidator;
import dev.fulcrum.config.JsonBinder;
import dev.fulcrum.config.ConfigWriter;
import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RoutingHandler;
import io.undertow.util.Headers;
import io.undertow.util.PathTemplateMatcher;
import io.undertow.util.PathTemplateMatch;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin API (docs/REFERENCE.md §4) on its own listener: state, backend commands, strategy, ring, events, config,
 * export, demo faults and Prometheus metrics. Handlers run on worker threads (they wait on the engine's
 * control thread), never on the proxy's I/O threads.
 */
public final class AdminServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);

    private final AdminRuntime runtime;
    private final Engine engine;
    private final String host;
    private final int requestedPort;
    private volatile byte[] token;
    private final EventStream events;
    private final long keepAliveMs;
    private final Set<RequestFeed> feeds = java.util.concurrent.ConcurrentHashMap.newKeySet();
    static final int MAX_EVENT_CLIENTS = 256;
    private final java.util.concurrent.Semaphore eventSlots = new java.util.concurrent.Semaphore(MAX_EVENT_CLIENTS);
    private final java.util.concurrent.ExecutorService eventThreads = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fulcrum-admin-events");
        t.setDaemon(true);
        return t;
    });
    private final Metrics metrics;
    private Undertow server;
    private int port;

    public AdminServer(AdminRuntime runtime, String host, int port, String token) {
        this(runtime, host, port, token, EventStream.KEEP_ALIVE_MS);
    }

    /** As above with the events keep-alive interval chosen (tests use a short one). */
    AdminServer(AdminRuntime runtime, String host, int port, String token, long keepAliveMs) {
        this.runtime = runtime;
        this.engine = runtime.engine();
        this.host = host;
        this.requestedPort = port;
        this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
        this.events = new EventStream(engine, keepAliveMs);
        this.keepAliveMs = keepAliveMs;
        this.metrics = new Metrics(engine);
    }

    /** Feed this to the proxy so {@code fulcrum_requests_total} and the duration histogram count. */
    public dev.fulcrum.proxy.RequestListener requestListener() {
        return metrics;
    }

    /** Feed this the proxy's count of new backend connections for {@code fulcrum_backend_connections_opened_total}. */
    public void countBackendConnections(java.util.function.LongSupplier opened) {
        metrics.countBackendConnections(opened);
    }

    private interface Route {
        void add(String method, String path, io.undertow.server.HttpHandler handler);
    }

    public AdminServer start() {
        RoutingHandler r = new RoutingHandler();
        // each path's methods, for the Allow header of a 405
        PathTemplateMatcher<Set<String>> allowed = new PathTemplateMatcher<>();
        Map<String, Set<String>> methods = new LinkedHashMap<>();
        Route route = (method, path, handler) -> {
            r.add(method, path, handler);
            methods.computeIfAbsent(path, x -> new java.util.TreeSet<>()).add(method);
        };
        route.add("GET", "/api/state", blocking(ex -> json(ex, 200, AdminModel.state(runtime))));
        route.add("POST", "/api/backends", blocking(this::addBackend));
        route.add("PUT", "/api/backends/{id}/weight", blocking(this::setWeight));
        route.add("POST", "/api/backends/{id}/drain", blocking(ex -> {
                    engine.drain(param(ex, "id"));
                    json(ex, 202, Map.of("id", param(ex, "id"), "state", "DRAINING"));
                }));
        route.add("POST", "/api/backends/{id}/enable", blocking(ex -> {
                    engine.enable(param(ex, "id"));
                    json(ex, 200, Map.of("id", param(ex, "id"), "state", "UP"));
                }));
        route.add("DELETE", "/api/backends/{id}", blocking(ex -> {
                    engine.remove(param(ex, "id"));
                    json(ex, 202, Map.of("id", param(ex, "id"), "state", "DRAINING"));
                }));
        route.add("PUT", "/api/strategy", blocking(this::setStrategy));
        route.add("PUT", "/api/routes/{index}/split", blocking(this::setSplit));
        route.add("POST", "/api/routes/{index}/promote", blocking(ex -> {
                    int index = routeIndex(ex);
                    engine.promote(index);
                    json(ex, 200, routeJson(index));
                }));
        route.add("POST", "/api/routes/{index}/rollback", blocking(ex -> {
                    int index = routeIndex(ex);
                    engine.rollback(index);
                    json(ex, 200, routeJson(index));
                }));
        route.add("GET", "/api/ring", blocking(this::ring));
        route.add("GET", "/api/ring/lookup", blocking(this::lookup));
        route.add("POST", "/api/ring/preview", blocking(this::preview));
        route.add("GET", "/api/events", this::events);
        route.add("GET", "/api/requests", this::requestFeed);
        route.add("GET", "/api/requests/recent", blocking(ex -> json(ex, 200,
                recentRequests(ex).stream().map(RequestJson::of).toList())));
        route.add("GET", "/api/requests/har", blocking(ex -> {
            ex.getResponseHeaders().put(io.undertow.util.Headers.CONTENT_DISPOSITION,
                    "attachment; filename=\"fulcrum.har\"");
            json(ex, 200, Har.of(recentRequests(ex)));
        }));
        route.add("GET", "/api/tunnels", blocking(ex -> json(ex, 200,
                runtime.openTunnels().stream().map(RequestJson::of).toList())));
        route.add("GET", "/api/config", blocking(ex -> json(ex, 200, runtime.config())));
        route.add("PUT", "/api/config", blocking(this::putConfig));
        route.add("GET", "/api/config/export", blocking(this::export));
        route.add("PUT", "/api/demo/{id}", blocking(this::demo));
        route.add("GET", "/api/demo", blocking(ex -> json(ex, 200, runtime.demoState())));
        route.add("GET", "/api/health/history", blocking(ex -> json(ex, 200, runtime.probeHistory())));
        route.add("GET", "/metrics", blocking(ex -> {
                    ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
                    ex.getResponseSender().send(metrics.scrape());
                }));
        r.setFallbackHandler(ex -> error(ex, 404, "no such endpoint: " + ex.getRequestMethod() + " " + ex.getRequestPath()));
        r.setInvalidMethodHandler(ex -> {
                    // RFC 9110 15.5.6: a 405 says which methods the resource has
                    PathTemplateMatcher.PathMatchResult<Set<String>> m = allowed.match(ex.getRequestPath());
                    if (m != null) {
                        ex.getResponseHeaders().put(Headers.ALLOW, String.join(", ", m.getValue()));
                    }
                    error(ex, 405, "method not allowed: " + ex.getRequestMethod() + " " + ex.getRequestPath());
                });
        methods.forEach(allowed::add);
        server = Undertow.builder().addHttpListener(requestedPort, host).setIoThreads(1).setWorkerThreads(16)
                .setServerOption(io.undertow.UndertowOptions.MAX_ENTITY_SIZE, MAX_BODY_BYTES)
                .setHandler(auth(r)).build();
        server.start();
        port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
        return this;
    }

    /**
     * Each event stream holds a thread for as long as the client stays (blocking writes, so a stalled client
     * stalls only its own thread). Those threads come from their own pool, never the worker pool, so any
     * number of open streams cannot starve the other endpoints; past {@link #MAX_EVENT_CLIENTS} a new one is
     * refused with 503.
     */
    private void events(HttpServerExchange ex) {
        if (!eventSlots.tryAcquire()) {
            error(ex, 503, "events: too many subscribers (got: " + MAX_EVENT_CLIENTS + " open streams)");
            return;
        }
        try {
            ex.dispatch(eventThreads, e -> {
                try {
                    events.serve(e);
                } finally {
                    eventSlots.release();
                }
            });
        } catch (RuntimeException e) {
            eventSlots.release(); // e.g. the pool is shut down because we are closing
            throw e;
        }
    }

    /** {@code /api/requests}: the request stream as server-sent events, {@code ?rate=N} a second at most. */
    private void requestFeed(HttpServerExchange ex) {
        dev.fulcrum.requests.RequestStream stream;
        int rate;
        try {
            stream = requireRequests();
            rate = queryInt(ex, "rate", RequestFeed.DEFAULT_RATE, 1, RequestFeed.MAX_RATE);
        } catch (EngineException e) {
            error(ex, e.status(), e.getMessage());
            return;
        }
        if (!eventSlots.tryAcquire()) {
            error(ex, 503, "requests: too many subscribers (got: " + MAX_EVENT_CLIENTS + " open streams)");
            return;
        }
        RequestFeed feed = new RequestFeed(stream, keepAliveMs);
        feeds.add(feed);
        try {
            ex.dispatch(eventThreads, e -> {
                try {
                    feed.serve(e, rate);
                } finally {
                    feeds.remove(feed);
                    eventSlots.release();
                }
            });
        } catch (RuntimeException e) {
            feeds.remove(feed);
            eventSlots.release();
            throw e;
        }
    }

    /** {@code ?limit=N} (default and most: all the stream keeps) of the newest requests, newest first. */
    private List<dev.fulcrum.requests.RequestSample> recentRequests(HttpServerExchange ex) {
        dev.fulcrum.requests.RequestStream stream = requireRequests();
        return stream.recent(queryInt(ex, "limit", Integer.MAX_VALUE, 1, Integer.MAX_VALUE));
    }

    private dev.fulcrum.requests.RequestStream requireRequests() {
        dev.fulcrum.requests.RequestStream s = runtime.requests();
        if (s == null) {
            throw new EngineException(404, "requests: none are kept (got: proxy.recentRequests 0)");
        }
        return s;
    }

    private static int queryInt(HttpServerExchange ex, String name, int otherwise, int min, int max) {
        java.util.Deque<String> v = ex.getQueryParameters().get(name);
        if (v == null || v.isEmpty()) {
            return otherwise;
        }
        String text = v.getFirst();
        try {
            long n = Long.parseLong(text);
            if (n >= min && n <= max) {
                return (int) n;
            }
        } catch (NumberFormatException notANumber) {
            // refused below with the value
        }
        throw new EngineException(400, name + ": must be a whole number between " + min + " and " + max + " (got: "
                + text + ")");
    }

    /** How many {@code /api/events} streams are open now. */
    public int eventClients() {
        return events.clients();
    }

    public int port() {
        return port;
    }

    public String url() {
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * The token, and two checks a web page in the operator's own browser cannot pass. A page from another site may
     * send a "simple" cross-origin POST to 127.0.0.1 without a preflight (add a backend of its own, drain the
     * others): a request whose {@code Origin} is not this API's own is refused. Without a token (loopback only),
     * a page served from a name the attacker re-points at 127.0.0.1 (DNS rebinding) would be same-origin and could
     * read answers too: the {@code Host} must then name this machine. Programs (curl, the window, scripts) send
     * neither an Origin nor a foreign Host.
     */
    private HttpHandler auth(HttpHandler next) {
        return ex -> {
            String path = ex.getRequestPath();
            boolean guarded = path.startsWith("/api/") || path.equals("/api") || path.equals("/metrics");
            byte[] expected = token;
            String hostHeader = ex.getRequestHeaders().getFirst(Headers.HOST);
            String origin = ex.getRequestHeaders().getFirst(Headers.ORIGIN);
            if (guarded && origin != null && !origin.equalsIgnoreCase("http://" + hostHeader)) {
                error(ex, 403, "Origin: requests from web pages of other sites are refused (got: " + origin + ")");
                return;
            }
            if (guarded && expected == null && hostHeader != null && !ConfigValidator.isLoopback(hostOnly(hostHeader))) {
                error(ex, 403, "Host: without admin.token only a loopback name or address is accepted (got: "
                        + hostHeader + ")");
                return;
            }
            if (guarded && expected != null && !validToken(ex.getRequestHeaders().getFirst(Headers.AUTHORIZATION), expected)) {
                ex.getResponseHeaders().put(Headers.WWW_AUTHENTICATE, "Bearer");
                error(ex, 401, "Authorization: a valid Bearer token is required");
                return;
            }
            next.handleRequest(ex);
        };
    }

    /** The host part of a Host header: {@code [::1]:8081} gives {@code [::1]}, {@code localhost:8081} gives {@code localhost}. */
    static String hostOnly(String hostHeader) {
        if (hostHeader.startsWith("[")) {
            int end = hostHeader.indexOf(']');
            return end < 0 ? hostHeader : hostHeader.substring(0, end + 1);
        }
        int colon = hostHeader.indexOf(':');
        return colon < 0 ? hostHeader : hostHeader.substring(0, colon);
    }

    /**
     * Replaces the Bearer token (null = none) from the next request on: a token rotated in the config file or
     * through {@code PUT /api/config} takes effect at once instead of leaving the old one valid.
     */
    public void setToken(String newToken) {
        this.token = newToken == null ? null : newToken.getBytes(StandardCharsets.UTF_8);
    }

    /** The host the admin API listens on. */
    public String host() {
        return host;
    }

    private static boolean validToken(String header, byte[] token) {
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        byte[] given = header.substring(7).trim().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(given, token); // constant time for equal lengths
    }

    @FunctionalInterface
    private interface Work {
        void run(HttpServerExchange ex) throws Exception;
    }

    /** Runs on a worker thread with a blocking body; EngineExceptions become JSON errors. */
    private HttpHandler blocking(Work work) {
        return ex -> {
            if (ex.isInIoThread()) {
                ex.dispatch(e -> run(work, e));
                return;
            }
            run(work, ex);
        };
    }

    private void run(Work work, HttpServerExchange ex) {
        try {
            ex.startBlocking();
            work.run(ex);
        } catch (EngineException e) {
            error(ex, e.status(), e.getMessage());
        } catch (ConfigException e) {
            error(ex, 400, Validation.message(e));
        } catch (Exception e) {
            LOG.warn("admin request {} {} failed", ex.getRequestMethod(), ex.getRequestPath(), e);
            error(ex, 500, e.toString());
        }
    }

    static void json(HttpServerExchange ex, int status, Object body) {
        ex.setStatusCode(status);
        ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        ex.getResponseSender().send(Json.write(body));
    }

    static void error(HttpServerExchange ex, int status, String message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("error", message);
        m.put("status", status);
        json(ex, status, m);
    }

    private static String param(HttpServerExchange ex, String name) {
        PathTemplateMatch m = ex.getAttachment(PathTemplateMatch.ATTACHMENT_KEY);
        return m.getParameters().get(name);
    }

    private static String query(HttpServerExchange ex, String name, String dflt) {
        Deque<String> v = ex.getQueryParameters().get(name);
        return v == null || v.isEmpty() ? dflt : v.getFirst();
    }

    private static String body(HttpServerExchange ex) throws IOException {
        try {
            return new String(ex.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (io.undertow.server.RequestTooBigException e) {
            // a config of 1000 backends is a tenth of the limit
            throw new EngineException(413, "body: larger than " + MAX_BODY_BYTES + " bytes (got: "
                    + (ex.getRequestContentLength() < 0 ? "more" : Long.toString(ex.getRequestContentLength())) + ")");
        }
    }

    /** The largest request body the admin API reads (Undertow's MAX_ENTITY_SIZE, set to this). */
    static final long MAX_BODY_BYTES = 2 * 1024 * 1024;

    private Pool pool(HttpServerExchange ex) {
        String name = query(ex, "pool", Engine.DEFAULT_POOL);
        Pool p = engine.pool(name);
        if (p == null) {
            throw new EngineException(404, "pool: no such pool (got: " + name + ")");
        }
        return p;
    }

    // ---------------------------------------------------------------- commands

    // Each body is a record bound by the config's rules (Json.bind): a field's JSON kind is its component's type, as
    // in the config's records, so a backend's weight is refused here exactly as in a config's backends[].

    /** {@code POST /api/backends}: a backend as a config's {@code backends[]} writes one, and the pool it joins. */
    private record NewBackend(String id, String url, int weight, String pool, Integer maxInFlight, boolean backup,
                              Map<String, String> labels) {
    }

    private static final JsonBinder.Shape<NewBackend> NEW_BACKEND = JsonBinder.Shape.of(NewBackend.class,
            new NewBackend(null, null, 1, Engine.DEFAULT_POOL, null, false, Map.of()), "id", "url");

    /** {@code PUT /api/backends/{id}/weight}. */
    private record NewWeight(int weight) {
    }

    private static final JsonBinder.Shape<NewWeight> NEW_WEIGHT = JsonBinder.Shape.of(NewWeight.class, null, "weight");

    /** {@code POST /api/ring/preview}: one of the three what-ifs. */
    private record PreviewBody(List<String> remove, List<PreviewAdd> add, Map<String, Integer> weights) {
    }

    private record PreviewAdd(String id, int weight) {
    }

    private static final JsonBinder.Shape<PreviewBody> PREVIEW = JsonBinder.Shape.of(PreviewBody.class,
            new PreviewBody(List.of(), List.of(), Map.of()));
    private static final JsonBinder.Shape<PreviewAdd> PREVIEW_ADD = JsonBinder.Shape.of(PreviewAdd.class,
            new PreviewAdd(null, 1), "id");

    /** {@code PUT /api/demo/{id}}: a field left out, or null, stays as it is. */
    private record DemoChange(Double latencyMs, Double errorRate, Boolean down) {
    }

    private static final JsonBinder.Shape<DemoChange> DEMO_CHANGE = JsonBinder.Shape.of(DemoChange.class, null);

    private void addBackend(HttpServerExchange ex) throws IOException {
        NewBackend b = Json.bind(Json.object(body(ex)), NEW_BACKEND);
        Validation.backend(b.id(), b.url(), b.weight());
        Validation.labels(b.labels());
        String pool = b.pool() == null ? Engine.DEFAULT_POOL : b.pool();
        // maxInFlight is the engine's check, in the words the config's is
        BackendSpec spec = new BackendSpec(b.id(), b.url(), b.weight(), b.maxInFlight(), b.backup(), b.labels());
        engine.addBackend(pool, spec, true);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", b.id());
        out.put("url", b.url());
        out.put("weight", b.weight());
        out.put("pool", pool);
        out.put("labels", spec.labels());
        json(ex, 201, out);
    }

    private void setWeight(HttpServerExchange ex) throws IOException {
        int w = Json.bind(Json.object(body(ex)), NEW_WEIGHT).weight();
        Validation.weight(w, "weight");
        String id = param(ex, "id");
        engine.setWeight(id, w);
        json(ex, 200, Map.of("id", id, "weight", w));
    }

    private void setStrategy(HttpServerExchange ex) throws IOException {
        Pool p = pool(ex);
        String body = body(ex);
        JsonNode n = Json.object(body, Strategies.fieldNames());
        StrategySpec spec = ConfigLoader.parseStrategy(n, "");
        engine.setStrategy(p.name(), spec);
        json(ex, 200, AdminModel.strategyJson(p.snapshot().spec()));
    }

    // ---------------------------------------------------------------- routes

    /** {@code PUT /api/routes/{index}/split}: the body is the split list, bound as a config's {@code split} is. */
    private record SplitBody(List<SplitArmConfig> split) {
    }

    private static final JsonBinder.Shape<SplitBody> SPLIT_BODY = JsonBinder.Shape.of(SplitBody.class, null, "split");

    private void setSplit(HttpServerExchange ex) throws IOException {
        int index = routeIndex(ex);
        json(ex, 200, setSplit(engine, index, body(ex)));
    }

    /**
     * Reads {@code body}, the split list ({@code [{"pool":"stable","weight":90},{"pool":"canary","weight":10}]}), by the
     * config's rules with each value named from {@code split} ({@code split[1].weight: must be an integer (got:
     * "x")}), sets it on route {@code index} and answers the route. The engine checks the arms against the route's.
     */
    private static Map<String, Object> setSplit(Engine engine, int index, String body) {
        if (body == null || body.isBlank()) {
            throw new EngineException(400, "split: must be an array (got: empty body)");
        }
        ObjectNode wrapped = Json.MAPPER.createObjectNode();
        wrapped.set("split", Json.value(body));
        SplitBody b = Json.bind(wrapped, SPLIT_BODY);
        engine.setSplit(index, arms(b.split()));
        return routeJson(engine, index);
    }

    private static List<Split.Arm> arms(List<SplitArmConfig> split) {
        return split.stream().map(a -> new Split.Arm(a.pool(), a.weight())).toList();
    }

    /** The {@code {index}} of a route's path: a number, or 404 as for a route that is not there. */
    private int routeIndex(HttpServerExchange ex) {
        return routeIndex(param(ex, "index"));
    }

    private static int routeIndex(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new EngineException(404, "route: no such route (got: " + text + ")");
        }
    }

    private Map<String, Object> routeJson(int index) {
        return routeJson(engine, index);
    }

    /** Route {@code index} as {@code GET /api/state} lists it. */
    private static Map<String, Object> routeJson(Engine engine, int index) {
        Router.Route r = engine.router().route(index);
        if (r == null) {
            throw new EngineException(404, "route: no such route (got: " + index + ")");
        }
        return AdminModel.route(r);
    }

    // ---------------------------------------------------------------- ring

    private void ring(HttpServerExchange ex) {
        json(ex, 200, AdminModel.ring(pool(ex)));
    }

    private void lookup(HttpServerExchange ex) {
        String key = query(ex, "key", null);
        if (key == null) {
            throw new EngineException(400, "key: required query parameter (got: null)");
        }
        json(ex, 200, AdminModel.lookup(pool(ex), key));
    }

    private void preview(HttpServerExchange ex) throws IOException {
        Pool p = pool(ex);
        AdminModel.keySpace(p);
        PreviewBody b = Json.bind(Json.object(body(ex)), PREVIEW, PREVIEW_ADD);
        Map<String, Integer> add = new LinkedHashMap<>();
        for (int i = 0; i < b.add().size(); i++) {
            PreviewAdd a = b.add().get(i);
            String at = "add[" + i + "].";
            // what POST /api/backends would refuse is no backend to preview either
            Validation.id(a.id(), at);
            Validation.weight(a.weight(), at + "weight");
            if (add.put(a.id(), a.weight()) != null) {
                throw new EngineException(400, at + "id: added twice (got: " + a.id() + ")");
            }
        }
        b.weights().forEach((id, w) -> Validation.weight(w, "weights." + id));
        json(ex, 200, AdminModel.preview(p, b.remove(), add, b.weights()));
    }

    // ---------------------------------------------------------------- config, export, demo

    private void putConfig(HttpServerExchange ex) throws IOException {
        List<String> errors = runtime.applyConfig(body(ex));
        if (!errors.isEmpty()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("error", "config rejected: " + errors.size() + " problem(s), nothing changed");
            m.put("status", 400);
            m.put("errors", errors);
            json(ex, 400, m);
            return;
        }
        json(ex, 200, runtime.config());
    }

    private void export(HttpServerExchange ex) {
        String format = query(ex, "format", null);
        if (format == null || !List.of("nginx", "haproxy", "envoy").contains(format)) {
            throw new EngineException(400, "format: one of nginx, haproxy, envoy (got: " + format + ")");
        }
        String pool = query(ex, "pool", null);
        if (pool != null && engine.pool(pool) == null) {
            throw new EngineException(404, "pool: no such pool (got: " + pool + ")");
        }
        ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
        ex.getResponseSender().send(runtime.export(format, pool));
    }

    private void demo(HttpServerExchange ex) throws IOException {
        JsonNode n = Json.object(body(ex));
        DemoChange d = Json.bind(n, DEMO_CHANGE);
        // ranges are checked by the demo backend itself, so the in-process client gets the same message
        String id = param(ex, "id");
        runtime.updateDemo(id, d.latencyMs(), d.errorRate(), d.down());
        engine.publish("demo", null, id, null, Json.write(n));
        json(ex, 200, runtime.demoState().getOrDefault(id, Map.of("id", id)));
    }

    @Override
    public void close() {
        events.close();
        metrics.close();
        feeds.forEach(RequestFeed::close);
        eventThreads.shutdown();
        if (server != null) {
            server.stop();
            server = null;
        }
    }
}
