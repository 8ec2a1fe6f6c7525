package dev.fulcrum.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fulcrum.testkit.RunningFulcrum;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Admin API fuzz (issue 7): invalid JSON, wrong types, unknown fields, huge numbers and nested garbage sent
 * to every write endpoint of a running Fulcrum (three demo backends). Every answer must be a JSON error
 * with status 400 (404 for an unknown id or pool, 409 for a duplicate) whose message names the offending
 * field, and neither the running config nor the backends' shape in {@code GET /api/state} may change.
 */
@Tag("reliability")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdminFuzzTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(20)).build();
    private final List<String> table = new ArrayList<>();
    private RunningFulcrum fulcrum;
    private String admin;
    private String configBefore;
    private String stateBefore;

    /** One hostile admin request, the status it must get and a word its error must contain. */
    record Fuzz(String method, String path, String body, Set<Integer> status, String mustName) {
        @Override
        public String toString() {
            String b = body.length() > 60 ? body.substring(0, 60) + "...(" + body.length() + " chars)" : body;
            return method + " " + path + " " + b;
        }
    }

    static Fuzz bad(String method, String path, String body, String mustName) {
        return new Fuzz(method, path, body, Set.of(400), mustName);
    }

    @BeforeAll
    void startFulcrum() throws Exception {
        fulcrum = RunningFulcrum.wholeApp("""
                {"proxy": {"port": 0}, "admin": {"port": 0},
                 "strategy": {"type": "consistent-hash"},
                 "demoBackends": [{"id": "d1", "port": 0, "weight": 2}, {"id": "d2", "port": 0},
                                  {"id": "d3", "port": 0, "weight": 3}],
                 "healthCheck": {"enabled": false}}
                """).start();
        admin = fulcrum.adminUrl();
        configBefore = send("GET", "/api/config", null).body();
        stateBefore = shape(send("GET", "/api/state", null).body());
    }

    @AfterAll
    void stopAndWriteTable() throws IOException {
        if (fulcrum != null) {
            fulcrum.close();
        }
        Path out = Path.of("target", "reliability", "admin-fuzz.md");
        Files.createDirectories(out.getParent());
        List<String> lines = new ArrayList<>(List.of("| request | status | error |", "|---|---|---|"));
        lines.addAll(table);
        Files.write(out, lines, StandardCharsets.UTF_8);
    }

    Stream<Fuzz> corpus() {
        String deep = "[".repeat(5000) + "]".repeat(5000);
        String deepObject = "{\"weight\":" + "{\"a\":".repeat(3000) + "1" + "}".repeat(3000) + "}";
        String hugeId = "x".repeat(100_000);
        List<Fuzz> all = new ArrayList<>();
        // bodies that are not a JSON object, on every endpoint that reads one
        List<String[]> bodyEndpoints = List.of(new String[] {"POST", "/api/backends"},
                new String[] {"PUT", "/api/backends/d1/weight"}, new String[] {"PUT", "/api/strategy"},
                new String[] {"POST", "/api/ring/preview"}, new String[] {"PUT", "/api/demo/d1"});
        for (String[] e : bodyEndpoints) {
            for (String garbage : List.of("", "{", "{\"weight\":", "nul", "[]", "\"text\"", "42", deep,
                    "\u0000\u0001\u0002", "{'single': 1}", "{\"a\":1,}")) {
                all.add(bad(e[0], e[1], garbage, "body"));
            }
            all.add(bad(e[0], e[1], "{\"no_such_field\": 1}", "no_such_field"));
        }
        all.addAll(List.of(
                // POST /api/backends
                bad("POST", "/api/backends", "{\"url\":\"http://127.0.0.1:1\"}", "id"),
                bad("POST", "/api/backends", "{\"id\":5,\"url\":\"http://127.0.0.1:1\"}", "id"),
                bad("POST", "/api/backends", "{\"id\":[\"a\"],\"url\":\"http://127.0.0.1:1\"}", "id"),
                bad("POST", "/api/backends", "{\"id\":\"../etc\",\"url\":\"http://127.0.0.1:1\"}", "id"),
                bad("POST", "/api/backends", "{\"id\":\"" + hugeId + "\",\"url\":\"http://127.0.0.1:1\"}", "id"),
                bad("POST", "/api/backends", "{\"id\":\"n\"}", "url"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"not a url\"}", "url"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"ftp://127.0.0.1:1\"}", "url"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"http://127.0.0.1:1/path\"}", "url"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"http://127.0.0.1:99999\"}", "url"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":{\"host\":\"x\"}}", "url"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"http://127.0.0.1:1\",\"weight\":-3}", "weight"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"http://127.0.0.1:1\",\"weight\":1001}", "weight"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"http://127.0.0.1:1\",\"weight\":1e400}", "weight"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"http://127.0.0.1:1\",\"weight\":99999999999999999999999}", "weight"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"http://127.0.0.1:1\",\"weight\":1.5}", "weight"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"http://127.0.0.1:1\",\"weight\":\"5\"}", "weight"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"http://127.0.0.1:1\",\"weight\":true}", "weight"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"http://127.0.0.1:1\",\"maxInFlight\":0}", "maxInFlight"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"http://127.0.0.1:1\",\"maxInFlight\":4294967296}", "maxInFlight"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"http://127.0.0.1:1\",\"backup\":\"yes\"}", "backup"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"http://127.0.0.1:1\",\"pool\":7}", "pool"),
                new Fuzz("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"http://127.0.0.1:1\",\"pool\":\"nope\"}",
                        Set.of(400, 404), "pool"),
                new Fuzz("POST", "/api/backends", "{\"id\":\"d1\",\"url\":\"http://127.0.0.1:1\"}", Set.of(409), "d1"),
                // PUT weight
                bad("PUT", "/api/backends/d1/weight", "{}", "weight"),
                bad("PUT", "/api/backends/d1/weight", "{\"weight\":null}", "weight"),
                bad("PUT", "/api/backends/d1/weight", "{\"weight\":-1}", "weight"),
                bad("PUT", "/api/backends/d1/weight", "{\"weight\":1e400}", "weight"),
                bad("PUT", "/api/backends/d1/weight", "{\"weight\":-99999999999999999999999}", "weight"),
                bad("PUT", "/api/backends/d1/weight", "{\"weight\":2.5}", "weight"),
                bad("PUT", "/api/backends/d1/weight", "{\"weight\":\"3\"}", "weight"),
                bad("PUT", "/api/backends/d1/weight", "{\"weight\":[3]}", "weight"),
                bad("PUT", "/api/backends/d1/weight", deepObject, "weight"),
                new Fuzz("PUT", "/api/backends/nobody/weight", "{\"weight\":3}", Set.of(404), "nobody"),
                new Fuzz("PUT", "/api/backends/" + hugeId + "/weight", "{\"weight\":3}", Set.of(400, 404, 414), "id"),
                // drain / enable / delete of unknown ids
                new Fuzz("POST", "/api/backends/nobody/drain", "", Set.of(404), "nobody"),
                new Fuzz("POST", "/api/backends/nobody/enable", "", Set.of(404), "nobody"),
                new Fuzz("DELETE", "/api/backends/nobody", "", Set.of(404), "nobody"),
                new Fuzz("DELETE", "/api/backends/%00", "", Set.of(400, 404), "id"),
                // PUT strategy
                bad("PUT", "/api/strategy", "{\"type\":\"nope\"}", "type"),
                bad("PUT", "/api/strategy", "{\"type\":5}", "type"),
                bad("PUT", "/api/strategy", "{\"key\":\"ip\"}", "type"),
                bad("PUT", "/api/strategy", "{\"type\":\"consistent-hash\",\"virtualNodes\":-1}", "virtualNodes"),
                bad("PUT", "/api/strategy", "{\"type\":\"consistent-hash\",\"virtualNodes\":1e400}", "virtualNodes"),
                bad("PUT", "/api/strategy", "{\"type\":\"consistent-hash\",\"key\":\"bogus\"}", "key"),
                bad("PUT", "/api/strategy", "{\"type\":\"consistent-hash\",\"balanceFactor\":0.5}", "balanceFactor"),
                bad("PUT", "/api/strategy", "{\"type\":\"consistent-hash\",\"balanceFactor\":\"x\"}", "balanceFactor"),
                bad("PUT", "/api/strategy", "{\"type\":\"maglev\",\"tableSize\":4}", "tableSize"),
                bad("PUT", "/api/strategy", "{\"type\":\"power-of-two\",\"choices\":0}", "choices"),
                bad("PUT", "/api/strategy", "{\"type\":\"adaptive\",\"weights\":{\"cpu\":\"x\"}}", "weights"),
                bad("PUT", "/api/strategy", "{\"type\":\"adaptive\",\"weights\":[1,2]}", "weights"),
                new Fuzz("PUT", "/api/strategy?pool=nope", "{\"type\":\"random\"}", Set.of(404), "pool"),
                // ring preview (reads input, changes nothing)
                bad("POST", "/api/ring/preview", "{\"remove\":\"d1\"}", "remove"),
                bad("POST", "/api/ring/preview", "{\"remove\":[1]}", "remove"),
                bad("POST", "/api/ring/preview", "{\"add\":[1]}", "add"),
                bad("POST", "/api/ring/preview", "{\"add\":[{\"weight\":1}]}", "id"),
                bad("POST", "/api/ring/preview", "{\"add\":[{\"id\":\"n\",\"weight\":-1}]}", "weight"),
                bad("POST", "/api/ring/preview", "{\"weights\":{\"d1\":\"x\"}}", "d1"),
                bad("POST", "/api/ring/preview", "{\"weights\":[1]}", "weights"),
                // PUT config
                bad("PUT", "/api/config", "", "config"),
                bad("PUT", "/api/config", "{", "config"),
                bad("PUT", "/api/config", deep, "config"),
                bad("PUT", "/api/config", "{\"bogus\":1}", "bogus"),
                bad("PUT", "/api/config", "{\"backends\":[{\"id\":\"x\",\"url\":\"nope\"}]}", "url"),
                bad("PUT", "/api/config", "{\"backends\":[{\"id\":\"x\",\"url\":\"http://127.0.0.1:1\",\"weight\":1e400}]}", "weight"),
                bad("PUT", "/api/config", "{\"backends\":\"x\"}", "backends"),
                bad("PUT", "/api/config", "{\"backends\":[{\"id\":\"x\",\"url\":\"http://127.0.0.1:1\"}],\"timeouts\":{\"readMs\":-5}}", "readMs"),
                // PUT demo
                bad("PUT", "/api/demo/d1", "{\"latencyMs\":-1}", "latencyMs"),
                bad("PUT", "/api/demo/d1", "{\"latencyMs\":1e400}", "latencyMs"),
                bad("PUT", "/api/demo/d1", "{\"errorRate\":2}", "errorRate"),
                bad("PUT", "/api/demo/d1", "{\"errorRate\":\"half\"}", "errorRate"),
                bad("PUT", "/api/demo/d1", "{\"down\":\"yes\"}", "down"),
                new Fuzz("PUT", "/api/demo/nobody", "{\"down\":true}", Set.of(404), "nobody")));
        return all.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void everyBadWriteIsAJsonErrorNamingTheField(Fuzz f) throws Exception {
        HttpResponse<String> r = send(f.method(), f.path(), f.body());
        String error = "";
        JsonNode n = null;
        try {
            n = JSON.readTree(r.body());
            error = n.path("error").asText("") + (n.has("errors") ? " " + n.get("errors") : "");
        } catch (IOException e) {
            // asserted below
        }
        String shown = error.length() > 150 ? error.substring(0, 150) + "..." : error;
        table.add("| `" + f.toString().replace("|", "\\|").replace("`", "'").replaceAll("[\\x00-\\x1f]", "?") + "` | "
                + r.statusCode() + " | " + shown.replace("|", "\\|").replaceAll("[\\x00-\\x1f]", "?") + " |");
        assertThat(r.statusCode()).as("status; body %s", abbreviate(r.body())).isIn(f.status());
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(n).as("JSON error body, got %s", abbreviate(r.body())).isNotNull();
        assertThat(n.path("status").asInt()).isEqualTo(r.statusCode());
        assertThat(error).as("the error names %s", f.mustName()).containsIgnoringCase(f.mustName());
    }

    /**
     * Bodies Jackson's default {@code readTree} accepts although they are not one well-formed JSON object:
     * trailing tokens after the object, and a field given twice (the last silently wins).
     */
    Stream<Fuzz> lenientCorpus() {
        return Stream.of(
                bad("PUT", "/api/backends/d1/weight", "{\"weight\":3}}", "body"),
                bad("PUT", "/api/backends/d1/weight", "{\"weight\":3} {\"weight\":900}", "body"),
                bad("PUT", "/api/backends/d1/weight", "{\"weight\":3,\"weight\":4}", "weight"),
                bad("POST", "/api/backends", "{\"id\":\"n\",\"url\":\"http://127.0.0.1:1\",\"id\":\"m\"}", "id"),
                bad("PUT", "/api/strategy", "{\"type\":\"random\"}]", "body"),
                bad("PUT", "/api/demo/d1", "{\"down\":false}x", "body"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lenientCorpus")
    void bodiesWithTrailingTokensOrRepeatedFieldsAreRefused(Fuzz f) throws Exception {
        HttpResponse<String> r = send(f.method(), f.path(), f.body());
        assertThat(r.statusCode()).as("status; body %s", abbreviate(r.body())).isIn(f.status());
        assertThat(JSON.readTree(r.body()).path("error").asText()).containsIgnoringCase(f.mustName());
    }

    @Test
    void theRunningConfigAndStateAreUnchangedAfterTheFuzz() throws Exception {
        // JUnit runs this class's methods in a deterministic but unspecified order, so fuzz again here first
        for (Iterator<Fuzz> it = corpus().iterator(); it.hasNext(); ) {
            Fuzz f = it.next();
            send(f.method(), f.path(), f.body());
        }
        assertThat(send("GET", "/api/config", null).body()).isEqualTo(configBefore);
        assertThat(shape(send("GET", "/api/state", null).body())).isEqualTo(stateBefore);
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(admin + path)).timeout(Duration.ofSeconds(60));
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** What a write could change in /api/state: strategy, pools, routes, and each backend's id, url, weight, state. */
    private static String shape(String state) throws IOException {
        ObjectNode s = (ObjectNode) JSON.readTree(state);
        for (JsonNode b : (ArrayNode) s.get("backends")) {
            ((ObjectNode) b).retain("id", "pool", "url", "weight", "state", "backup", "maxInFlight");
        }
        s.retain("strategy", "pools", "routes", "backends");
        return s.toString();
    }

    private static String abbreviate(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }
}
