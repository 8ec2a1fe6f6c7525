package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.testkit.RunningFulcrum;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Labels over real HTTP (docs/REFERENCE.md §4): {@code POST /api/backends} takes them with the config's checks, a 400
 * naming the label and adding nothing when one is wrong; {@code GET /api/state} gives every backend a {@code labels}
 * object, {@code {}} when it has none; {@code GET /api/config} keeps a backend added with labels.
 */
class LabelsApiTest {
    private static RunningFulcrum f;

    @BeforeAll
    static void start() {
        f = RunningFulcrum.demoApp();
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    private static JsonNode state(String id) {
        for (JsonNode b : AdminApiTest.json(f.get("/api/state").body()).get("backends")) {
            if (b.get("id").asText().equals(id)) {
                return b;
            }
        }
        return null;
    }

    @Test
    void aBackendPostedWithLabelsHasThemInTheStateAndTheRunningConfig() {
        RunningFulcrum.Answer a = f.call("POST", "/api/backends",
                "{\"id\": \"api-9\", \"url\": \"http://127.0.0.1:9\", \"labels\": {\"zone\": \"b\", \"cost\": \"0.2\","
                        + " \"tier\": \"spot\"}}");

        assertThat(a.status()).as(a.body()).isEqualTo(201);
        assertThat(AdminApiTest.json(a.body()).get("labels").toString())
                .isEqualTo("{\"cost\":\"0.2\",\"tier\":\"spot\",\"zone\":\"b\"}");
        assertThat(state("api-9").get("labels").toString())
                .isEqualTo("{\"cost\":\"0.2\",\"tier\":\"spot\",\"zone\":\"b\"}");
        assertThat(f.backend("api-9").labels()).containsEntry("zone", "b");
        JsonNode running = null;
        for (JsonNode b : AdminApiTest.json(f.get("/api/config").body()).get("backends")) {
            if (b.get("id").asText().equals("api-9")) {
                running = b;
            }
        }
        assertThat(running).isNotNull();
        assertThat(running.get("labels").toString()).isEqualTo("{\"cost\":\"0.2\",\"tier\":\"spot\",\"zone\":\"b\"}");
    }

    @Test
    void everyBackendHasALabelsObjectEmptyWhenItHasNone() {
        RunningFulcrum.Answer a = f.call("POST", "/api/backends", "{\"id\": \"plain-1\", \"url\": \"http://127.0.0.1:9\"}");
        assertThat(a.status()).as(a.body()).isEqualTo(201);

        for (JsonNode b : AdminApiTest.json(f.get("/api/state").body()).get("backends")) {
            assertThat(b.get("labels")).as(b.get("id").asText()).isNotNull();
            assertThat(b.get("labels").isObject()).as(b.get("id").asText()).isTrue();
        }
        assertThat(state("plain-1").get("labels").size()).isZero();
        assertThat(state("demo-a").get("labels").size()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "name       | {\"Zone\": \"b\"}     | labels.Zone: must match [a-z][a-z0-9_]{0,31} (got: Zone)",
            "digit      | {\"9z\": \"b\"}       | labels.9z: must match [a-z][a-z0-9_]{0,31} (got: 9z)",
            "number     | {\"cost\": 0.2}       | labels.cost: must be a string (got: 0.2)",
            "null       | {\"cost\": null}      | labels.cost: must be a string (got: null)",
            "not object | [\"zone=b\"]          | labels: must be an object (got: [\"zone=b\"])",
    })
    void aWrongLabelIsA400NamingItAndAddsNothing(String what, String labels, String message) {
        String id = "bad-" + what.replace(' ', '-');

        RunningFulcrum.Answer a = f.call("POST", "/api/backends",
                "{\"id\": \"" + id + "\", \"url\": \"http://127.0.0.1:9\", \"labels\": " + labels + "}");

        assertThat(a.status()).isEqualTo(400);
        JsonNode body = AdminApiTest.json(a.body());
        assertThat(body.get("error").asText()).isEqualTo(message);
        assertThat(body.get("status").asInt()).isEqualTo(400);
        assertThat(state(id)).isNull();
    }

    @Test
    void tooManyLabelsOrATooLongValueIsA400() {
        String seventeen = IntStream.range(0, 17).mapToObj(i -> "\"l" + i + "\": \"v\"")
                .collect(Collectors.joining(", ", "{", "}"));
        RunningFulcrum.Answer many = f.call("POST", "/api/backends",
                "{\"id\": \"many\", \"url\": \"http://127.0.0.1:9\", \"labels\": " + seventeen + "}");
        assertThat(many.status()).isEqualTo(400);
        assertThat(AdminApiTest.json(many.body()).get("error").asText()).isEqualTo("labels: at most 16 labels (got: 17)");

        String v65 = "v".repeat(65);
        RunningFulcrum.Answer longValue = f.call("POST", "/api/backends",
                "{\"id\": \"long\", \"url\": \"http://127.0.0.1:9\", \"labels\": {\"cost\": \"" + v65 + "\"}}");
        assertThat(longValue.status()).isEqualTo(400);
        assertThat(AdminApiTest.json(longValue.body()).get("error").asText())
                .isEqualTo("labels.cost: must be a string of at most 64 characters (got: " + v65 + ")");
        assertThat(state("many")).isNull();
        assertThat(state("long")).isNull();
    }

    @Test
    void sixteenLabelsAndAValueOfSixtyFourCharactersAreTaken() {
        String sixteen = IntStream.range(0, 16).mapToObj(i -> "\"l" + i + "\": \"" + "v".repeat(64) + "\"")
                .collect(Collectors.joining(", ", "{", "}"));

        RunningFulcrum.Answer a = f.call("POST", "/api/backends",
                "{\"id\": \"full\", \"url\": \"http://127.0.0.1:9\", \"labels\": " + sixteen + "}");

        assertThat(a.status()).as(a.body()).isEqualTo(201);
        assertThat(state("full").get("labels").size()).isEqualTo(16);
    }
}
