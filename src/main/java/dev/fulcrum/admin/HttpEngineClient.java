package dev.fulcrum.admin;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.time.SystemClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A remote Fulcrum managed through its admin API (docs/REFERENCE.md §4) over {@code java.net.http}: what
 * {@code --attach http://host:adminport [--token T]} runs the window on.
 *
 * <p>Commands are one request each; a refused one throws {@link EngineException} with the server's status and
 * the {@code error} text of its JSON body, so the window shows exactly what the in-process client would. A
 * network failure (server gone, connection refused) throws {@link UncheckedIOException}.
 *
 * <p>Events: the first {@link #subscribe} opens one {@code GET /api/events} stream read by a daemon thread and
 * waits (up to {@value #CONNECT_WAIT_MS} ms) until the server has registered it, so a command issued right
 * after {@code subscribe} returns is never missed. Every listener gets every event. When the stream drops the
 * thread reconnects with exponential back-off ({@link SseStream}: 100 ms doubling to 5 s); the drop is delivered as a
 * synthetic {@code disconnected} event (from "connected to URL", to "gone: why") and the return as {@code reconnected}
 * (from "gone for 3.2 s", to "connected to URL"): events in the gap are lost, so a listener should re-read
 * {@link #state()}. The server's {@code dropped} notice (this client was too slow) arrives as an event of
 * type {@code dropped} whose {@code to} is the number of events lost.
 *
 * <p>Example: {@code new HttpEngineClient(URI.create("http://10.0.0.5:8081"), "s3cret").setWeight("a", 5)} sends
 * {@code PUT /api/backends/a/weight} with {@code {"weight":5}} and {@code Authorization: Bearer s3cret}.
 */
public final class HttpEngineClient implements EngineClient {
    private static final Logger LOG = LoggerFactory.getLogger(HttpEngineClient.class);
    static final long CONNECT_WAIT_MS = 5_000;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** The environment variable {@code --attach} reads the admin token from when {@code --token} is not given. */
    public static final String TOKEN_ENV = "FULCRUM_TOKEN";

    /**
     * The admin token to attach with: {@code --token}'s value when given, else {@link #TOKEN_ENV}'s (which, unlike a
     * command-line argument, {@code ps} does not show), else null.
     */
    public static String token(String flag, java.util.function.UnaryOperator<String> env) {
        if (flag != null && !flag.isBlank()) {
            return flag;
        }
        String v = env.apply(TOKEN_ENV);
        return v == null || v.isBlank() ? null : v;
    }

    private final URI base;
    private final String token;
    private final HttpClient http;
    private final List<Consumer<EngineEvent>> listeners = new CopyOnWriteArrayList<>();
    private final Object streamLock = new Object();
    private SseStream events;
    private final List<RemoteRequests> requestSources = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /**
     * @param adminUrl the admin API's base, e.g. {@code http://127.0.0.1:8081} (a trailing slash is ignored)
     * @param token    the Bearer token, or null when the server has none
     */
    public HttpEngineClient(URI adminUrl, String token) {
        String s = adminUrl.toString();
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        String scheme = adminUrl.getScheme();
        if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || adminUrl.getHost() == null) {
            throw new IllegalArgumentException("admin url: must be an absolute http://host:port URL (got: " + adminUrl + ")");
        }
        this.base = URI.create(s);
        this.token = token == null || token.isBlank() ? null : token;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** The admin API's base URL this client talks to. */
    public URI adminUrl() {
        return base;
    }

    @Override
    public String describe() {
        return "remote engine at " + base;
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.FULCRUM;
    }

    @Override
    public EngineState state() {
        String body = send("GET", "/api/state", null);
        EngineState s = read(body, EngineState.class);
        try {
            JsonNode n = Json.MAPPER.readTree(body);
            instance = n != null && n.hasNonNull("instance") ? n.get("instance").asText() : null;
        } catch (IOException | RuntimeException notJson) {
            instance = null; // read() above accepted it; an engine without the field answers no instance
        }
        return s;
    }

    private volatile String instance;

    /**
     * The {@code instance} of the last {@code GET /api/state} answer (docs/REFERENCE.md §4), or null before one or
     * from an engine that does not say: it changes when the engine is restarted.
     */
    public String instance() {
        return instance;
    }

    @Override
    public void addBackend(String pool, String id, String url, int weight) {
        addBackend(pool, id, url, weight, null, false);
    }

    @Override
    public void addBackend(String pool, String id, String url, int weight, Integer maxInFlight, boolean backup) {
        addBackend(pool, id, url, weight, maxInFlight, backup, Map.of());
    }

    @Override
    public void addBackend(String pool, String id, String url, int weight, Integer maxInFlight, boolean backup,
                           Map<String, String> labels) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", id);
        body.put("url", url);
        body.put("weight", weight);
        if (maxInFlight != null) {
            body.put("maxInFlight", maxInFlight);
        }
        if (backup) {
            body.put("backup", true);
        }
        if (pool != null) {
            body.put("pool", pool);
        }
        if (labels != null && !labels.isEmpty()) {
            body.put("labels", labels);
        }
        send("POST", "/api/backends", body);
    }

    @Override
    public void setWeight(String id, int weight) {
        send("PUT", "/api/backends/" + segment(id) + "/weight", Map.of("weight", weight));
    }

    @Override
    public void drain(String id) {
        send("POST", "/api/backends/" + segment(id) + "/drain", null);
    }

    @Override
    public void enable(String id) {
        send("POST", "/api/backends/" + segment(id) + "/enable", null);
    }

    @Override
    public void remove(String id) {
        send("DELETE", "/api/backends/" + segment(id), null);
    }

    @Override
    public void setStrategy(String pool, Map<String, Object> strategy) {
        send("PUT", "/api/strategy" + poolQuery(pool, "?"), strategy);
    }

    @Override
    public Ring ring(String pool) {
        try {
            return read(send("GET", "/api/ring" + poolQuery(pool, "?"), null), Ring.class);
        } catch (EngineException e) {
            if (e.status() == 409) {
                return null; // the pool's strategy has no ring or table
            }
            throw e;
        }
    }

    @Override
    public Lookup lookup(String pool, String key) {
        return read(send("GET", "/api/ring/lookup?key=" + query(key) + poolQuery(pool, "&"), null), Lookup.class);
    }

    @Override
    public Preview preview(String pool, List<String> remove, Map<String, Integer> add, Map<String, Integer> weights) {
        Map<String, Object> body = new LinkedHashMap<>();
        if (remove != null && !remove.isEmpty()) {
            body.put("remove", remove);
        }
        if (add != null && !add.isEmpty()) {
            List<Map<String, Object>> list = new ArrayList<>();
            add.forEach((id, w) -> {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("id", id);
                one.put("weight", w);
                list.add(one);
            });
            body.put("add", list);
        }
        if (weights != null && !weights.isEmpty()) {
            body.put("weights", weights);
        }
        return read(send("POST", "/api/ring/preview" + poolQuery(pool, "?"), body), Preview.class);
    }

    @Override
    public Map<String, Map<String, Object>> demoState() {
        return read(send("GET", "/api/demo", null), new TypeReference<>() { });
    }

    @Override
    public void updateDemo(String id, Double latencyMs, Double errorRate, Boolean down) {
        Map<String, Object> body = new LinkedHashMap<>();
        if (latencyMs != null) {
            body.put("latencyMs", latencyMs);
        }
        if (errorRate != null) {
            body.put("errorRate", errorRate);
        }
        if (down != null) {
            body.put("down", down);
        }
        send("PUT", "/api/demo/" + segment(id), body);
    }

    /** {@code PUT /api/routes/{route}/split} with the arms in the route's order. */
    @Override
    public void setSplit(int route, List<dev.fulcrum.engine.routing.Split.Arm> arms) {
        send("PUT", "/api/routes/" + route + "/split", arms);
    }

    @Override
    public void promote(int route) {
        send("POST", "/api/routes/" + route + "/promote", null);
    }

    @Override
    public void rollback(int route) {
        send("POST", "/api/routes/" + route + "/rollback", null);
    }

    /**
     * The remote engine's breaker thresholds, from its running config (GET /api/config), or null when it does not
     * give a readable one: the window's Breakers tab then shows the rates without "opens at".
     */
    public dev.fulcrum.config.BreakerConfig breakerConfig() {
        try {
            return dev.fulcrum.config.ConfigLoader.parse(send("GET", "/api/config", null)).circuitBreaker();
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Override
    public String configJson() {
        return send("GET", "/api/config", null);
    }

    /** {@code PUT /api/config}: 200 is applied; 400 carries the problems in {@code errors}. */
    @Override
    public List<String> applyConfig(String json) {
        HttpRequest.Builder b = request("PUT", "/api/config", null)
                .header("Content-Type", "application/json")
                .method("PUT", HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
        HttpResponse<String> r;
        try {
            r = http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("PUT " + base + "/api/config: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during PUT /api/config", e);
        }
        if (r.statusCode() == 200) {
            return List.of();
        }
        if (r.statusCode() == 400) {
            try {
                JsonNode errors = Json.MAPPER.readTree(r.body()).get("errors");
                if (errors != null && errors.isArray()) {
                    List<String> out = new ArrayList<>();
                    errors.forEach(e -> out.add(e.asText()));
                    return out;
                }
            } catch (IOException | RuntimeException notJson) {
                // not the admin API's answer: reported as an error below
            }
        }
        throw error(r.statusCode(), r.body());
    }

    @Override
    public Map<String, List<Map<String, Object>>> probeHistory() {
        return read(send("GET", "/api/health/history", null), new TypeReference<>() { });
    }

    // ---------------------------------------------------------------- requests

    /**
     * {@code GET /api/requests} at the server's default rate, one stream per call; returns once the server has the
     * stream (or after {@value #CONNECT_WAIT_MS} ms), so the requests completed after it returns reach it.
     */
    @Override
    public RequestSource requests() {
        RemoteRequests r = new RemoteRequests(limit -> samples("/api/requests/recent?limit=" + limit));
        CountDownLatch connected = new CountDownLatch(1);
        r.attach(new SseStream(http, () -> request("GET", "/api/requests", null)
                .header("Accept", "text/event-stream").timeout(Duration.ofDays(365)).build(),
                "fulcrum-remote-requests", "request stream of " + base, new SseStream.Handler() {
                    @Override
                    public void connected(boolean again) {
                        connected.countDown(); // a gap loses requests; nothing else to do about it
                    }

                    @Override
                    public void event(String type, String data) {
                        r.event(type, data);
                    }
                }).start());
        requestSources.add(r);
        try {
            // as with events: the requests completed after this returns are the stream's
            if (!connected.await(CONNECT_WAIT_MS, TimeUnit.MILLISECONDS)) {
                LOG.warn("request stream of {} not connected after {} ms; still trying", base, CONNECT_WAIT_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return r;
    }

    /** {@code GET /api/tunnels}. */
    @Override
    public List<dev.fulcrum.requests.RequestSample> openTunnels() {
        return samples("/api/tunnels");
    }

    /** A JSON array of request objects (docs/REFERENCE.md §5) from {@code path}. */
    private List<dev.fulcrum.requests.RequestSample> samples(String path) {
        List<dev.fulcrum.requests.RequestSample> out = new ArrayList<>();
        try {
            for (JsonNode n : Json.LENIENT.readTree(send("GET", path, null))) {
                out.add(RequestJson.parse(n).sample());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("requests: unexpected answer", e);
        }
        return out;
    }

    // ---------------------------------------------------------------- events

    @Override
    public void subscribe(Consumer<EngineEvent> listener) {
        listeners.add(listener);
        CountDownLatch connected;
        synchronized (streamLock) {
            if (closed || events != null) {
                return;
            }
            connected = new CountDownLatch(1);
            events = new SseStream(http, () -> request("GET", "/api/events", null)
                    .header("Accept", "text/event-stream").timeout(Duration.ofDays(365)).build(),
                    "fulcrum-remote-events", "event stream of " + base, new SseStream.Handler() {
                        @Override
                        public void connected(boolean again) {
                            connected.countDown();
                            if (again) {
                                deliver(reconnectedEvent(goneSinceMillis, SystemClock.currentTimeMillis()));
                            }
                        }

                        @Override
                        public void event(String type, String data) {
                            deliver(parseEvent(type, data));
                        }

                        @Override
                        public void disconnected(String why) {
                            goneSinceMillis = SystemClock.currentTimeMillis();
                            deliver(disconnectedEvent(why, goneSinceMillis));
                        }
                    }).start();
        }
        try {
            if (!connected.await(CONNECT_WAIT_MS, TimeUnit.MILLISECONDS)) {
                LOG.warn("event stream of {} not connected after {} ms; still trying", base, CONNECT_WAIT_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** When the event stream last dropped (wall ms): the stream's thread alone writes and reads it. */
    private long goneSinceMillis;

    /**
     * The event stream dropped: {@code disconnected}, from "connected to URL" to "gone: the stream ended" (or "gone:
     * the connection broke (...)"). Events until it is back are lost.
     */
    EngineEvent disconnectedEvent(String why, long atMillis) {
        return new EngineEvent("disconnected", null, null, "connected to " + base, "gone: " + why, atMillis);
    }

    /**
     * The event stream is back after a drop at {@code goneSinceMillis}: {@code reconnected}, from "gone for 12.3 s" to
     * "connected to URL". The events of the gap are lost: a listener re-reads the state.
     */
    EngineEvent reconnectedEvent(long goneSinceMillis, long atMillis) {
        return new EngineEvent("reconnected", null, null,
                String.format(java.util.Locale.ROOT, "gone for %.1f s", Math.max(0, atMillis - goneSinceMillis) / 1000.0),
                "connected to " + base, atMillis);
    }

    static EngineEvent parseEvent(String sseType, String data) {
        try {
            JsonNode n = Json.MAPPER.readTree(data);
            String type = text(n, "type");
            if (type == null) {
                type = sseType;
            }
            if ("dropped".equals(type)) {
                return new EngineEvent("dropped", null, null, null, n.path("count").asText(),
                        SystemClock.currentTimeMillis());
            }
            long at = n.hasNonNull("at") ? n.get("at").asLong() : SystemClock.currentTimeMillis();
            Integer route = n.hasNonNull("route") ? n.get("route").asInt() : null;
            return new EngineEvent(type, text(n, "pool"), text(n, "backend"), text(n, "from"), text(n, "to"), at,
                    route);
        } catch (IOException e) {
            throw new UncheckedIOException("event stream: not a JSON event (got: " + Json.abbreviate(data) + ")", e);
        }
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private void deliver(EngineEvent e) {
        for (Consumer<EngineEvent> l : listeners) {
            try {
                l.accept(e);
            } catch (RuntimeException ex) {
                LOG.warn("event listener failed on {}", e, ex);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        listeners.clear();
        SseStream e;
        synchronized (streamLock) {
            e = events;
        }
        if (e != null) {
            e.close();
        }
        requestSources.forEach(RemoteRequests::close);
    }

    // ---------------------------------------------------------------- HTTP

    private HttpRequest.Builder request(String method, String path, Object body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT);
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", "application/json");
            b.method(method, HttpRequest.BodyPublishers.ofString(Json.write(body)));
        }
        return b;
    }

    /** Sends one request; a non-2xx answer becomes an {@link EngineException}. Returns the body. */
    private String send(String method, String path, Object body) {
        HttpResponse<String> r;
        try {
            r = http.send(request(method, path, body).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + base + path + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + method + " " + path, e);
        }
        if (r.statusCode() / 100 != 2) {
            throw error(r.statusCode(), r.body());
        }
        return r.body();
    }

    /** The admin API's {@code {"error":"...","status":N}}, or the raw text when the body is not that. */
    static EngineException error(int status, String body) {
        String message = null;
        try {
            JsonNode n = Json.MAPPER.readTree(body);
            if (n != null && n.hasNonNull("error")) {
                message = n.get("error").asText();
            }
        } catch (IOException | RuntimeException ignored) {
            // not JSON: fall back to the text
        }
        if (message == null) {
            message = body == null || body.isBlank() ? "HTTP " + status : Json.abbreviate(body.strip());
        }
        return new EngineException(status, message);
    }

    private static <T> T read(String body, Class<T> type) {
        try {
            return Json.LENIENT.readValue(body, type);
        } catch (IOException e) {
            throw new UncheckedIOException("unexpected answer (got: " + Json.abbreviate(body) + ")", e);
        }
    }

    private static <T> T read(String body, TypeReference<T> type) {
        try {
            return Json.LENIENT.readValue(body, type);
        } catch (IOException e) {
            throw new UncheckedIOException("unexpected answer (got: " + Json.abbreviate(body) + ")", e);
        }
    }

    private static String segment(String id) {
        return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String query(String v) {
        return URLEncoder.encode(v, StandardCharsets.UTF_8);
    }

    private static String poolQuery(String pool, String sep) {
        return pool == null ? "" : sep + "pool=" + query(pool);
    }
}
