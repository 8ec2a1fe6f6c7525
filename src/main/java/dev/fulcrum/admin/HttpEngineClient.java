package dev.fulcrum.admin;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.EngineException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
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
 * thread reconnects with exponential back-off ({@value #MIN_BACKOFF_MS} ms doubling to {@value #MAX_BACKOFF_MS}
 * ms) and then delivers a synthetic {@code reconnected} event: events in the gap are lost, so a listener should
 * re-read {@link #state()}. The server's {@code dropped} notice (this client was too slow) arrives as an event of
 * type {@code dropped} whose {@code to} is the number of events lost.
 *
 * <p>Example: {@code new HttpEngineClient(URI.create("http://10.0.0.5:8081"), "s3cret").setWeight("a", 5)} sends
 * {@code PUT /api/backends/a/weight} with {@code {"weight":5}} and {@code Authorization: Bearer s3cret}.
 */
public final class HttpEngineClient implements EngineClient {
    private static final Logger LOG = LoggerFactory.getLogger(HttpEngineClient.class);
    static final long CONNECT_WAIT_MS = 5_000;
    static final long MIN_BACKOFF_MS = 100;
    static final long MAX_BACKOFF_MS = 5_000;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final URI base;
    private final String token;
    private final HttpClient http;
    private final List<Consumer<EngineEvent>> listeners = new CopyOnWriteArrayList<>();
    private final Object streamLock = new Object();
    private Thread streamThread;
    private volatile InputStream stream;
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
        return read(send("GET", "/api/state", null), EngineState.class);
    }

    @Override
    public void addBackend(String pool, String id, String url, int weight) {
        addBackend(pool, id, url, weight, null, false);
    }

    @Override
    public void addBackend(String pool, String id, String url, int weight, Integer maxInFlight, boolean backup) {
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
    public Map<String, List<Map<String, Object>>> probeHistory() {
        return read(send("GET", "/api/health/history", null), new TypeReference<>() { });
    }

    // ---------------------------------------------------------------- events

    @Override
    public void subscribe(Consumer<EngineEvent> listener) {
        listeners.add(listener);
        CountDownLatch connected;
        synchronized (streamLock) {
            if (closed || streamThread != null) {
                return;
            }
            connected = new CountDownLatch(1);
            streamThread = new Thread(() -> streamLoop(connected), "fulcrum-remote-events");
            streamThread.setDaemon(true);
            streamThread.start();
        }
        try {
            if (!connected.await(CONNECT_WAIT_MS, TimeUnit.MILLISECONDS)) {
                LOG.warn("event stream of {} not connected after {} ms; still trying", base, CONNECT_WAIT_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Reads the stream, reconnecting with back-off until {@link #close()}. */
    private void streamLoop(CountDownLatch connected) {
        long backoff = MIN_BACKOFF_MS;
        boolean everConnected = false;
        while (!closed) {
            boolean gotData = false;
            try {
                HttpResponse<InputStream> r = http.send(request("GET", "/api/events", null)
                        .header("Accept", "text/event-stream").timeout(Duration.ofDays(365)).build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                if (r.statusCode() != 200) {
                    try (InputStream in = r.body()) {
                        EngineException e = error(r.statusCode(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
                        LOG.warn("event stream of {} refused: {} {}", base, e.status(), e.getMessage());
                    }
                } else {
                    stream = r.body();
                    if (closed) {
                        stream.close();
                        return;
                    }
                    BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
                    String type = null;
                    StringBuilder data = new StringBuilder();
                    for (String line; (line = reader.readLine()) != null; ) {
                        if (!gotData) {
                            // the server registers us before its first line (": connected"), so nothing is missed
                            gotData = true;
                            backoff = MIN_BACKOFF_MS;
                            connected.countDown();
                            if (everConnected) {
                                deliver(new EngineEvent("reconnected", null, null, null, null, System.currentTimeMillis()));
                            }
                            everConnected = true;
                        }
                        if (line.isEmpty()) {
                            if (data.length() > 0) {
                                try {
                                    deliver(parseEvent(type, data.toString()));
                                } catch (UncheckedIOException bad) {
                                    // one garbled event is skipped; reconnecting would lose more than it
                                    LOG.warn("event stream of {}: {}", base, bad.getMessage());
                                }
                            }
                            type = null;
                            data.setLength(0);
                        } else if (line.startsWith(":")) {
                            // comment: connected / keep-alive
                        } else if (line.startsWith("event:")) {
                            type = field(line, 6);
                        } else if (line.startsWith("data:")) {
                            if (data.length() > 0) {
                                data.append('\n');
                            }
                            data.append(field(line, 5));
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                if (!closed) {
                    LOG.debug("event stream of {} dropped: {}", base, e.toString());
                }
            } catch (InterruptedException e) {
                return;
            } finally {
                InputStream s = stream;
                stream = null;
                if (s != null) {
                    try {
                        s.close();
                    } catch (IOException ignored) {
                        // already broken
                    }
                }
            }
            if (closed) {
                return;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(backoff); // back-off between reconnects, not a wait for an outcome
            } catch (InterruptedException e) {
                return;
            }
            backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
        }
    }

    private static String field(String line, int from) {
        String v = line.substring(from);
        return v.startsWith(" ") ? v.substring(1) : v;
    }

    static EngineEvent parseEvent(String sseType, String data) {
        try {
            JsonNode n = Json.MAPPER.readTree(data);
            String type = text(n, "type");
            if (type == null) {
                type = sseType;
            }
            if ("dropped".equals(type)) {
                return new EngineEvent("dropped", null, null, null, n.path("count").asText(), System.currentTimeMillis());
            }
            long at = n.hasNonNull("at") ? n.get("at").asLong() : System.currentTimeMillis();
            return new EngineEvent(type, text(n, "pool"), text(n, "backend"), text(n, "from"), text(n, "to"), at);
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
        Thread t;
        synchronized (streamLock) {
            t = streamThread;
        }
        InputStream s = stream;
        if (s != null) {
            try {
                s.close(); // unblocks the reader
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        if (t != null) {
            t.interrupt();
        }
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
