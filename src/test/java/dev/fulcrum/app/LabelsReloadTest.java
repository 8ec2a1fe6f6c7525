package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.admin.Json;
import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A config that changes only a backend's labels (docs/REFERENCE.md §2.1 {@code labels}), applied by
 * {@code PUT /api/config} over real HTTP to a running Fulcrum: the backend keeps running as it was (the same entry,
 * its breaker open as before, its counters), and {@code /api/state}, {@code /api/config} and the engine show the new
 * labels.
 */
class LabelsReloadTest {
    private RecordingBackend a;
    private RunningFulcrum f;

    @BeforeEach
    void start() {
        a = new RecordingBackend("a");
        f = RunningFulcrum.wholeApp(config("{\"zone\": \"a\", \"cost\": \"0.5\"}")).start();
    }

    @AfterEach
    void stop() {
        f.close();
        a.close();
    }

    /** Backend a with {@code labels}; a breaker that opens on two failures of two and stays open for an hour. */
    private String config(String labels) {
        return """
                {
                  "proxy": {"host": "127.0.0.1", "port": 0},
                  "admin": {"host": "127.0.0.1", "port": 0},
                  "strategy": {"type": "round-robin"},
                  "backends": [ {"id": "a", "url": "%s", "labels": %s} ],
                  "healthCheck": {"enabled": false},
                  "outlierDetection": {"enabled": false},
                  "circuitBreaker": {"enabled": true, "window": 4, "minimumCalls": 2, "failureRateThreshold": 50,
                                     "openMs": 3600000},
                  "retries": {"maxRetries": 0}
                }
                """.formatted(a.url(), labels);
    }

    private Backend live() {
        return f.engine().allBackends().stream().filter(b -> b.id().equals("a")).findFirst().orElseThrow();
    }

    private JsonNode stateOfA() {
        for (JsonNode b : json(f.get("/api/state").body()).get("backends")) {
            if (b.get("id").asText().equals("a")) {
                return b;
            }
        }
        throw new AssertionError("no backend a in /api/state");
    }

    private static JsonNode json(String s) {
        try {
            return Json.MAPPER.readTree(s);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + s, e);
        }
    }

    @Test
    void newLabelsAreAppliedInPlaceAndResetNothing() {
        // given backend a, served three times and then failing twice, so its breaker opened
        for (int i = 0; i < 3; i++) {
            assertThat(f.proxied("/ok").status()).isEqualTo(200);
        }
        a.status = 500;
        for (int i = 0; i < 2; i++) {
            assertThat(f.proxied("/fail").status()).isEqualTo(500);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> live().breaker().state() == CircuitBreaker.State.OPEN);
        Backend before = live();
        CircuitBreaker breakerBefore = before.breaker();
        long total = stateOfA().get("totalRequests").asLong();
        assertThat(total).isEqualTo(5);
        assertThat(before.labels()).isEqualTo(Map.of("cost", "0.5", "zone", "a"));
        List<EngineEvent> events = new CopyOnWriteArrayList<>();
        f.engine().subscribe(events::add);

        // when a config that changes only its labels is put
        RunningFulcrum.Answer put = f.call("PUT", "/api/config", config("{\"zone\": \"b\", \"tier\": \"spot\"}"));

        // then the same entry has the new labels, its open breaker and its counters as they were
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        Backend after = live();
        assertThat(after).isSameAs(before);
        assertThat(after.labels()).containsExactly(Map.entry("tier", "spot"), Map.entry("zone", "b"));
        assertThat(after.label("zone")).isEqualTo("b");
        assertThat(after.label("cost")).isNull();
        assertThat(after.breaker()).isSameAs(breakerBefore);
        assertThat(after.breaker().state()).isEqualTo(CircuitBreaker.State.OPEN);
        JsonNode shown = stateOfA();
        assertThat(shown.get("labels").toString()).isEqualTo("{\"tier\":\"spot\",\"zone\":\"b\"}");
        assertThat(shown.get("totalRequests").asLong()).isEqualTo(total);
        assertThat(shown.get("breaker").get("state").asText()).isEqualTo("OPEN");
        assertThat(events).noneMatch(e -> "a".equals(e.backend()) && List.of("membership", "breaker", "weight",
                "health").contains(e.type()));
        // and the running config says so, for a save or an attached window's editor
        JsonNode running = json(f.get("/api/config").body()).get("backends").get(0);
        assertThat(running.get("labels").toString()).isEqualTo("{\"tier\":\"spot\",\"zone\":\"b\"}");
    }

    @Test
    void labelsTakenAwayLeaveAnEmptyObject() {
        assertThat(stateOfA().get("labels").toString()).isEqualTo("{\"cost\":\"0.5\",\"zone\":\"a\"}");

        RunningFulcrum.Answer put = f.call("PUT", "/api/config", config("{}"));

        assertThat(put.status()).as(put.body()).isEqualTo(200);
        assertThat(stateOfA().get("labels").isObject()).isTrue();
        assertThat(stateOfA().get("labels").size()).isZero();
        assertThat(live().labels()).isEmpty();
    }

    @Test
    void aConfigWithABadLabelIsRefusedWholeAndChangesNothing() {
        RunningFulcrum.Answer put = f.call("PUT", "/api/config", config("{\"Zone\": \"b\"}"));

        assertThat(put.status()).isEqualTo(400);
        assertThat(json(put.body()).get("errors").toString())
                .contains("backends[0].labels.Zone: must match [a-z][a-z0-9_]{0,31} (got: Zone)");
        assertThat(live().labels()).isEqualTo(Map.of("cost", "0.5", "zone", "a"));
    }
}
