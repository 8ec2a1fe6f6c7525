package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.testkit.RunningFulcrum;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The score strategy (docs/REFERENCE.md §2.2.1) over real HTTP against a running Fulcrum with demo backends: a formula
 * that does not compile is refused with its column by the config file and by {@code PUT /api/strategy} alike, and
 * {@code GET /api/state} gives each backend's score, from the metrics the demo backends report.
 */
class ScoreStrategyApiTest {
    private RunningFulcrum f;

    @BeforeEach
    void start() {
        f = RunningFulcrum.demoApp();
    }

    @AfterEach
    void stop() {
        f.close();
    }

    private static JsonNode json(String s) {
        return AdminApiTest.json(s);
    }

    private List<JsonNode> backends() {
        RunningFulcrum.Answer a = f.get("/api/state");
        assertThat(a.status()).isEqualTo(200);
        List<JsonNode> out = new ArrayList<>();
        json(a.body()).get("backends").forEach(out::add);
        return out;
    }

    @Test
    void aFormulaThatDoesNotCompileIsRefusedWithItsColumnAndTheRunningStrategyStays() {
        RunningFulcrum.Answer a = f.call("PUT", "/api/strategy", "{\"type\":\"score\",\"score\":\"1 - cpux\"}");
        assertThat(a.status()).as(a.body()).isEqualTo(400);
        assertThat(json(a.body()).get("error").asText())
                .isEqualTo("score: unknown variable 'cpux' at column 5 (got: \"1 - cpux\")");
        assertThat(json(f.get("/api/state").body()).get("strategy").get("type").asText()).isEqualTo("round-robin");

        RunningFulcrum.Answer pick = f.call("PUT", "/api/strategy", "{\"type\":\"score\",\"pick\":\"fastest\"}");
        assertThat(pick.status()).isEqualTo(400);
        assertThat(json(pick.body()).get("error").asText())
                .isEqualTo("pick: must be one of weighted-random, best, two-choices (got: fastest)");
        RunningFulcrum.Answer missing = f.call("PUT", "/api/strategy", "{\"type\":\"score\",\"missing\":true}");
        assertThat(missing.status()).isEqualTo(400);
        assertThat(json(missing.body()).get("error").asText()).isEqualTo("missing: must be a number or a string (got: true)");
    }

    @Test
    void theConfigFileRefusesTheSameFormulaWithTheStrategysPathInFront() {
        String demo = "\"demoBackends\": [ { \"id\": \"demo-a\", \"port\": 9101 } ]";
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse("{ " + demo
                + ", \"strategy\": { \"type\": \"score\", \"score\": \"1 - cpux\" } }"));
        assertThat(e).isNotNull();
        assertThat(e.lines()).containsExactly(
                "config error: strategy.score: unknown variable 'cpux' at column 5 (got: \"1 - cpux\")");
        ConfigException inPool = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse("{ " + demo
                + ", \"pools\": { \"api\": { \"strategy\": { \"type\": \"score\", \"score\": \"norm(cpu, 1)\","
                + " \"missing\": \"zero\" }, \"backends\": [ { \"id\": \"api-1\", \"url\": \"http://127.0.0.1:3000\" } ] } } }"));
        assertThat(inPool.lines()).containsExactly(
                "config error: pools.api.strategy.score: function 'norm' takes 3 arguments (got 2) at column 1 "
                        + "(got: \"norm(cpu, 1)\")",
                "config error: pools.api.strategy.missing: must be a number or one of average, exclude (got: zero)");
        assertThat(ConfigLoader.parse("{ " + demo + ", \"strategy\": { \"type\": \"score\", \"missing\": 0.5 } }")
                .strategy().option("missing")).isEqualTo(0.5);
    }

    @Test
    void theStateGivesEachBackendsScoreFromTheMetricsItReports() {
        // before any report, a formula reading cpu scores every backend missing
        RunningFulcrum.Answer a = f.call("PUT", "/api/strategy", "{\"type\":\"score\",\"score\":\"1 - cpu\"}");
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        assertThat(backends()).allSatisfy(b -> {
            assertThat(b.has("score")).isTrue();
            assertThat(b.has("scoreFallback")).isTrue();
        });

        // the metrics poller reads each demo backend's /metrics.json about once a second
        await().atMost(Duration.ofSeconds(10)).until(() -> backends().stream()
                .allMatch(b -> b.get("scoreFallback").isNull() && b.get("score").isNumber()));
        for (JsonNode b : backends()) {
            assertThat(b.get("score").asDouble()).as(b.get("id").asText()).isBetween(0.0, 1.0);
        }

        // a formula without cpu needs no report: 2 x the configured weight, demo-a 1 and demo-b 2
        assertThat(f.call("PUT", "/api/strategy", "{\"type\":\"score\",\"score\":\"2 * weight\"}").status())
                .isEqualTo(200);
        assertThat(backends()).extracting(b -> b.get("score").asDouble()).containsExactly(2.0, 4.0);

        // a label nobody has: every backend missing, excluded
        assertThat(f.call("PUT", "/api/strategy",
                "{\"type\":\"score\",\"score\":\"label.rack\",\"missing\":\"exclude\"}").status()).isEqualTo(200);
        assertThat(backends()).allSatisfy(b -> {
            assertThat(b.get("score").isNull()).isTrue();
            assertThat(b.get("scoreFallback").asText()).isEqualTo("missing");
        });
        assertThat(f.proxied("/").status()).as("every backend excluded: each equally likely").isEqualTo(200);

        // another strategy: no score fields
        assertThat(f.call("PUT", "/api/strategy", "{\"type\":\"round-robin\"}").status()).isEqualTo(200);
        assertThat(backends()).allSatisfy(b -> assertThat(b.has("score")).isFalse());
    }

    @Test
    void aScoreStrategyIsWrittenAndReadBackAsItWasGiven() {
        dev.fulcrum.engine.strategy.StrategySpec spec = dev.fulcrum.engine.strategy.StrategySpec.bare("score")
                .with("score", "if(label.tier == \"spot\", 0.5, 1) * (1 - cpu)").with("pick", "two-choices")
                .with("missing", 0.25).with("coldStartMs", 0L).with("coldStartShare", 0.5).withDefaults();
        JsonNode tree = dev.fulcrum.config.ConfigWriter.toTree(spec);
        assertThat(ConfigLoader.parseStrategy(tree, "strategy")).isEqualTo(spec);
        assertThat(tree.get("missing").isNumber()).isTrue();
    }

    @Test
    void theWindowsStateReaderReadsTheScoresBack() throws Exception {
        assertThat(f.call("PUT", "/api/strategy", "{\"type\":\"score\",\"score\":\"weight / 4\"}").status())
                .isEqualTo(200);
        EngineState s = Json.MAPPER.readValue(f.get("/api/state").body(), EngineState.class);
        assertThat(s.backend("demo-a").score()).isEqualTo(0.25);
        assertThat(s.backend("demo-b").score()).isEqualTo(0.5);
        assertThat(s.backend("demo-a").scoreFallback()).isNull();
    }
}
