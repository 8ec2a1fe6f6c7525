package dev.fulcrum.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A whole Fulcrum whose pools are recording backends (each answers its own name) and whose {@code routes} a test
 * writes as JSON (docs/REFERENCE.md §2.1): the routes tests' fixture. Health checks, outlier detection and the
 * breaker are off, retries none unless a test says, so what a test sees is the routing alone.
 *
 * <p>Example: {@code new RoutedProxy(dir).pool("default", "d").pool("canary", "c")
 * .start("[{\"match\": {\"headers\": {\"X-Canary\": \"1\"}}, \"pool\": \"canary\"}]")}.
 */
final class RoutedProxy implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    /** Pool name to its strategy type and backend names. */
    private final Map<String, List<String>> pools = new LinkedHashMap<>();
    private final Map<String, String> strategies = new LinkedHashMap<>();
    final Map<String, RecordingBackend> backends = new LinkedHashMap<>();
    /** Backend id to its URL, for backends a test runs itself. */
    private final Map<String, String> urls = new LinkedHashMap<>();
    private String extra = "";
    private String proxyExtra = "";
    private int maxRetries;
    RunningFulcrum f;

    RoutedProxy(Path dir) {
        this.dir = dir;
    }

    /** A pool on round-robin with a recording backend per name; {@code default} is the default pool. */
    RoutedProxy pool(String name, String... backendNames) {
        return poolWith(name, "round-robin", backendNames);
    }

    /** A pool on {@code strategy} (its type) with a recording backend per name. */
    RoutedProxy poolWith(String name, String strategy, String... backendNames) {
        pools.put(name, List.of(backendNames));
        strategies.put(name, strategy);
        for (String b : backendNames) {
            backends.computeIfAbsent(b, RecordingBackend::new);
        }
        return this;
    }

    /** A pool on round-robin with one backend the test runs itself, {@code id} at {@code url}. */
    RoutedProxy poolAt(String name, String id, String url) {
        pools.put(name, List.of(id));
        strategies.put(name, "round-robin");
        urls.put(id, url);
        return this;
    }

    /** More top-level fields, each starting with a comma: {@code ,"timeouts": {"readMs": 300}}. */
    RoutedProxy extra(String fields) {
        extra = fields;
        return this;
    }

    /** More fields of {@code proxy}, each starting with a comma: {@code ,"recentRequests": 64}. */
    RoutedProxy proxy(String extra) {
        proxyExtra = extra;
        return this;
    }

    RoutedProxy retries(int n) {
        maxRetries = n;
        return this;
    }

    RecordingBackend backend(String name) {
        return backends.get(name);
    }

    Path accessLog() {
        return dir.resolve("access.log");
    }

    String config(String routes) {
        StringBuilder named = new StringBuilder();
        for (var e : pools.entrySet()) {
            if (e.getKey().equals("default")) {
                continue;
            }
            named.append(named.length() == 0 ? "" : ",").append('"').append(e.getKey()).append("\": {\"strategy\": ")
                    .append("{\"type\": \"").append(strategies.get(e.getKey())).append("\"}, \"backends\": ")
                    .append(backendsJson(e.getValue())).append('}');
        }
        return """
                {"proxy": {"host": "127.0.0.1", "port": 0, "accessLog": %s %s},
                 "admin": {"host": "127.0.0.1", "port": 0},
                 "strategy": {"type": "%s"},
                 "backends": %s,
                 "pools": {%s},
                 "routes": %s,
                 "healthCheck": {"enabled": false},
                 "outlierDetection": {"enabled": false},
                 "circuitBreaker": {"enabled": false},
                 "retries": {"maxRetries": %d} %s}
                """.formatted(JSON.valueToTree(accessLog().toString()), proxyExtra,
                strategies.getOrDefault("default", "round-robin"),
                backendsJson(pools.getOrDefault("default", List.of())), named, routes, maxRetries, extra);
    }

    private String backendsJson(List<String> names) {
        StringBuilder b = new StringBuilder("[");
        for (String n : names) {
            b.append(b.length() == 1 ? "" : ",").append("{\"id\": \"").append(n).append("\", \"url\": \"")
                    .append(urls.containsKey(n) ? urls.get(n) : backends.get(n).url()).append("\"}");
        }
        return b.append(']').toString();
    }

    RoutedProxy start(String routes) {
        f = RunningFulcrum.wholeApp(config(routes)).start();
        return this;
    }

    /** A GET through the proxy with header pairs ({@code name, value, ...}); its answer. */
    RunningFulcrum.Answer get(String path, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(f.url() + path)).timeout(Duration.ofSeconds(20));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return send(b.build());
    }

    /** Which backend answered a GET (each answers its name). */
    String who(String path, String... headers) {
        RunningFulcrum.Answer a = get(path, headers);
        if (a.status() != 200) {
            throw new AssertionError(path + ": " + a.status() + " " + a.body());
        }
        return a.body();
    }

    RunningFulcrum.Answer send(HttpRequest r) {
        try {
            HttpResponse<String> resp = f.http().send(r, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new RunningFulcrum.Answer(resp.statusCode(), resp.body(), resp);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** {@code /api/requests/recent} as JSON objects. */
    List<JsonNode> requests() throws Exception {
        RunningFulcrum.Answer a = f.get("/api/requests/recent");
        if (a.status() != 200) {
            throw new AssertionError(a.body());
        }
        List<JsonNode> out = new ArrayList<>();
        JSON.readTree(a.body()).forEach(out::add);
        return out;
    }

    /** The access log's lines as JSON, as far as the writer has written them. */
    List<JsonNode> logLines() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        if (Files.exists(accessLog())) {
            for (String l : Files.readAllLines(accessLog())) {
                if (!l.isBlank()) {
                    out.add(JSON.readTree(l));
                }
            }
        }
        return out;
    }

    @Override
    public void close() {
        if (f != null) {
            f.close();
        }
        backends.values().forEach(RecordingBackend::close);
    }
}
