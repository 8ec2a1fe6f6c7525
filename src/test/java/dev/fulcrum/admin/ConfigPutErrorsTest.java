package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.testkit.RunningFulcrum;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code PUT /api/config} reads its body as the config file is read: a wrong type or broken JSON is a 400 with the
 * same problem line the CLI prints (without its {@code config error: } prefix), and the running config stays.
 */
class ConfigPutErrorsTest {
    private RunningFulcrum f;
    private String before;

    @BeforeEach
    void start() {
        f = RunningFulcrum.demoApp();
        before = f.get("/api/config").body();
    }

    @AfterEach
    void stop() {
        f.close();
    }

    @Test
    void aStringWhereABooleanBelongsIsRefusedAndNothingChanges() {
        String body = RunningFulcrum.demoJson(null, RunningFulcrum.QUIET
                + ", \"backends\": [{\"id\": \"a\", \"url\": \"http://127.0.0.1:9\", \"backup\": \"yes\"}]");

        RunningFulcrum.Answer a = f.call("PUT", "/api/config", body);

        assertThat(a.status()).as(a.body()).isEqualTo(400);
        assertThat(errors(a)).containsExactly("backends[0].backup: must be true or false (got: \"yes\")");
        assertThat(f.get("/api/config").body()).isEqualTo(before);
    }

    @Test
    void brokenJsonIsOneClearLineAndNothingChanges() {
        RunningFulcrum.Answer a = f.call("PUT", "/api/config", "{\n  \"slowStartMs\": 5,\n  retries: {}\n}");

        assertThat(a.status()).as(a.body()).isEqualTo(400);
        assertThat(errors(a)).containsExactly(
                "$: invalid JSON at line 3, column 3: expected a field name in double quotes (got: r)");
        assertThat(f.get("/api/config").body()).isEqualTo(before);
    }

    private static java.util.List<String> errors(RunningFulcrum.Answer a) {
        JsonNode errors = AdminApiTest.json(a.body()).get("errors");
        java.util.List<String> out = new java.util.ArrayList<>();
        errors.forEach(e -> out.add(e.asText()));
        return out;
    }
}
