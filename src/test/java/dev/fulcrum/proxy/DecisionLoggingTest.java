package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code proxy.logDecisions} over real HTTP (docs/REFERENCE.md §5, "the decision"): with it on, each access-log line
 * and each request of {@code /api/requests} carries the same {@code "decision"}: the candidates, the draws that chose
 * among them, the scores and the backend picked, one pick per attempt; with it off, neither has the field; a config
 * reload turns it on for the next request.
 */
class DecisionLoggingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path dir;
    private RunningFulcrum f;
    private final List<RecordingBackend> backends = new ArrayList<>();

    @AfterEach
    void stop() {
        if (f != null) {
            f.close();
        }
        backends.forEach(RecordingBackend::close);
    }

    private Path log() {
        return dir.resolve("access.log");
    }

    /** The config: {@code backends} as (id, weight) pairs, each a recording backend, health checks off. */
    private String config(boolean logDecisions, String strategy, Object... idWeight) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < idWeight.length; i += 2) {
            RecordingBackend r = backends.size() > i / 2 ? backends.get(i / 2) : null;
            if (r == null) {
                r = new RecordingBackend((String) idWeight[i]);
                backends.add(r);
            }
            b.append(i == 0 ? "" : ",").append("{\"id\":\"").append(idWeight[i]).append("\",\"url\":\"").append(r.url())
                    .append("\",\"weight\":").append(idWeight[i + 1]).append('}');
        }
        return """
                {"proxy": {"host": "127.0.0.1", "port": 0, "accessLog": %s, "logDecisions": %s},
                 "admin": {"host": "127.0.0.1", "port": 0},
                 "strategy": {"type": "%s"},
                 "backends": [%s],
                 "healthCheck": {"enabled": false},
                 "outlierDetection": {"enabled": false}}
                """.formatted(JSON.valueToTree(log().toString()), logDecisions, strategy, b);
    }

    private void start(boolean logDecisions, String strategy, Object... idWeight) {
        f = RunningFulcrum.wholeApp(config(logDecisions, strategy, idWeight)).start();
    }

    /** The access-log line of the request to {@code path}, as JSON, once the writer has written it. */
    private JsonNode line(String path) throws Exception {
        String quoted = "\"path\":\"" + path + "\"";
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(log())
                && Files.readAllLines(log()).stream().anyMatch(l -> l.contains(quoted)));
        return JSON.readTree(Files.readAllLines(log()).stream().filter(l -> l.contains(quoted)).findFirst()
                .orElseThrow());
    }

    /** The request stream's record of the request to {@code path}, from {@code /api/requests/recent}. */
    private JsonNode recorded(String path) throws Exception {
        await().atMost(Duration.ofSeconds(10)).until(() -> find(path) != null);
        return find(path);
    }

    private JsonNode find(String path) throws Exception {
        RunningFulcrum.Answer a = f.get("/api/requests/recent");
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        for (JsonNode r : JSON.readTree(a.body())) {
            if (r.get("path").asText().equals(path)) {
                return r;
            }
        }
        return null;
    }

    private static List<String> ids(JsonNode candidates) {
        List<String> out = new ArrayList<>();
        candidates.forEach(c -> out.add(c.get("id").asText()));
        return out;
    }

    @Test
    void weightedRandomLogsItsCandidatesAndTheDrawThatChose() throws Exception {
        start(true, "weighted-random", "a", 1, "b", 3);
        for (int i = 0; i < 20; i++) {
            assertThat(f.status("/w" + i)).isEqualTo(200);
        }

        for (int i = 0; i < 20; i++) {
            JsonNode line = line("/w" + i);
            JsonNode picks = line.get("decision").get("picks");
            assertThat(picks).hasSize(1);
            JsonNode p = picks.get(0);
            assertThat(p.get("attempt").asInt()).isEqualTo(1);
            assertThat(p.get("strategy").asText()).isEqualTo("weighted-random");
            assertThat(ids(p.get("candidates"))).containsExactly("a", "b");
            assertThat(p.get("candidates").get(0).get("weight").asDouble()).isEqualTo(1.0);
            assertThat(p.get("candidates").get(1).get("weight").asDouble()).isEqualTo(3.0);
            assertThat(p.get("candidates").get(0).has("inflight")).isTrue();
            assertThat(p.get("draws")).hasSize(1);
            double draw = p.get("draws").get(0).asDouble();
            // the weight line: a holds [0, 0.25), b [0.25, 1)
            assertThat(p.get("picked").asText()).isEqualTo(draw < 0.25 ? "a" : "b")
                    .isEqualTo(line.get("backend").asText());
            assertThat(p.get("fallback").isNull()).isTrue();

            JsonNode sample = recorded("/w" + i);
            assertThat(sample.get("decision")).as("the stream's decision is the access log's").isEqualTo(line.get("decision"));
        }
    }

    @Test
    void powerOfTwoLogsBothDrawsAndTheLoadOfEachDrawnBackend() throws Exception {
        start(true, "power-of-two", "a", 1, "b", 1, "c", 1);
        for (int i = 0; i < 10; i++) {
            assertThat(f.status("/p" + i)).isEqualTo(200);
        }

        for (int i = 0; i < 10; i++) {
            JsonNode line = line("/p" + i);
            JsonNode p = line.get("decision").get("picks").get(0);
            assertThat(p.get("strategy").asText()).isEqualTo("power-of-two");
            assertThat(ids(p.get("candidates"))).containsExactly("a", "b", "c");
            assertThat(p.get("draws")).hasSize(2);
            List<String> drawn = new ArrayList<>();
            p.get("candidates").forEach(c -> {
                if (c.has("score")) {
                    drawn.add(c.get("id").asText());
                    assertThat(c.get("score").asDouble()).as("nothing else in flight").isEqualTo(0.0);
                }
            });
            assertThat(drawn).hasSize(2).contains(p.get("picked").asText());
            // equal weights: the first draw is an index among the three; on a tie in load, the first drawn wins
            int first = (int) Math.floor(p.get("draws").get(0).asDouble() * 3 + 1e-9);
            assertThat(p.get("picked").asText()).isEqualTo(List.of("a", "b", "c").get(first));
            assertThat(recorded("/p" + i).get("decision")).isEqualTo(line.get("decision"));
        }
    }

    @Test
    void theEventStreamCarriesTheDecision() throws Exception {
        start(true, "random", "a", 1, "b", 1);
        HttpRequest req = HttpRequest.newBuilder(URI.create(f.adminUrl() + "/api/requests")).build();
        HttpResponse<InputStream> stream = f.http().send(req, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(stream.statusCode()).isEqualTo(200);
        List<JsonNode> events = new CopyOnWriteArrayList<>();
        CompletableFuture.runAsync(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
                for (String l; (l = in.readLine()) != null; ) {
                    if (l.startsWith("data: ")) {
                        events.add(JSON.readTree(l.substring(6)));
                    }
                }
            } catch (Exception closed) {
                // the test closes the stream
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            f.status("/sse");
            return events.stream().anyMatch(e -> e.path("path").asText().equals("/sse"));
        });
        stream.body().close();

        JsonNode e = events.stream().filter(x -> x.path("path").asText().equals("/sse")).findFirst().orElseThrow();
        JsonNode p = e.get("decision").get("picks").get(0);
        assertThat(p.get("strategy").asText()).isEqualTo("random");
        assertThat(p.get("draws")).hasSize(1);
        assertThat(p.get("picked").asText()).isEqualTo(e.get("backend").asText());
    }

    @Test
    void aRetryIsASecondPickThatSkipsTheBackendItFailedOn() throws Exception {
        start(true, "round-robin", "dead", 1, "live", 1);
        backends.get(0).kill();
        for (int i = 0; i < 4; i++) {
            assertThat(f.status("/r" + i)).isEqualTo(200);
        }

        JsonNode retried = null;
        for (int i = 0; i < 4 && retried == null; i++) {
            JsonNode l = line("/r" + i);
            retried = l.get("attempts").asInt() == 2 ? l : null;
        }
        assertThat(retried).as("one of four round-robin requests went to dead first").isNotNull();
        JsonNode picks = retried.get("decision").get("picks");
        assertThat(picks).hasSize(2);
        assertThat(picks.get(0).get("attempt").asInt()).isEqualTo(1);
        assertThat(picks.get(0).get("picked").asText()).isEqualTo("dead");
        assertThat(picks.get(0).get("draws")).as("round robin draws nothing").isEmpty();
        assertThat(picks.get(1).get("attempt").asInt()).isEqualTo(2);
        assertThat(picks.get(1).get("picked").asText()).isEqualTo("live");
        JsonNode dead = picks.get(1).get("candidates").get(0);
        assertThat(dead.get("id").asText()).isEqualTo("dead");
        assertThat(dead.get("skipped").asText()).isEqualTo("tried");
        assertThat(picks.get(1).get("candidates").get(1).has("skipped")).isFalse();
    }

    @Test
    void offThereIsNoDecisionAndAReloadTurnsItOn() throws Exception {
        start(false, "weighted-random", "a", 1, "b", 1);
        assertThat(f.status("/off")).isEqualTo(200);
        assertThat(line("/off").has("decision")).isFalse();
        assertThat(recorded("/off").has("decision")).isFalse();
        assertThat(f.proxy().logsDecisions()).isFalse();

        RunningFulcrum.Answer applied = f.call("PUT", "/api/config", config(true, "weighted-random", "a", 1, "b", 1));
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        assertThat(f.status("/on")).isEqualTo(200);

        assertThat(line("/on").get("decision").get("picks").get(0).get("draws")).hasSize(1);
        assertThat(recorded("/on").get("decision").get("picks").get(0).get("strategy").asText())
                .isEqualTo("weighted-random");
        assertThat(f.get("/api/config").body()).contains("\"logDecisions\":true");

        applied = f.call("PUT", "/api/config", config(false, "weighted-random", "a", 1, "b", 1));
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        assertThat(f.status("/off-again")).isEqualTo(200);
        assertThat(line("/off-again").has("decision")).isFalse();
    }
}
