package dev.fulcrum.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A hand-written config with a value of the wrong JSON type is refused, never quietly converted the way Jackson's
 * data binding would ("yes" read as false, "5" as 5, 1.7 as 1, "" or null as 0 or false). Each case goes through a
 * real file, as {@code --config} and {@code --check-config} read it.
 */
class ScalarTypesTest {
    private static final String BACKEND = "{ \"id\": \"a\", \"url\": \"http://127.0.0.1:9001\"";

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "backends[0].backup      | \"yes\"  | must be true or false",
            "backends[0].backup      | \"true\" | must be true or false",
            "backends[0].backup      | 1        | must be true or false",
            "backends[0].backup      | \"\"     | must be true or false",
            "backends[0].backup      | null     | must be true or false",
            "backends[0].weight      | \"5\"    | must be an integer",
            "backends[0].weight      | 1.7      | must be an integer",
            "backends[0].weight      | \"\"     | must be an integer",
            "backends[0].weight      | null     | must be an integer",
            "backends[0].weight      | true     | must be an integer",
            "backends[0].maxInFlight | \"5\"    | must be an integer",
            "backends[0].maxInFlight | 2.5      | must be an integer",
            "backends[0].maxInFlight | false    | must be an integer",
            "backends[0].url         | 9001     | must be a string",
    })
    void aBackendFieldOfTheWrongTypeIsAnErrorWithItsPathAndValue(String path, String value, String message,
                                                                 @TempDir Path dir) throws IOException {
        String field = path.substring(path.indexOf('.') + 1);
        String json = "{ \"backends\": [ " + BACKEND.replace("\"url\": \"http://127.0.0.1:9001\"",
                field.equals("url") ? "\"url\": " + value : "\"url\": \"http://127.0.0.1:9001\", \"" + field + "\": "
                        + value) + " } ] }";

        assertThat(problems(dir, json)).containsExactly(
                "config error: " + path + ": " + message + " (got: " + value + ")");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "\"slowStartMs\": \"5\"                                   | slowStartMs: must be an integer (got: \"5\")",
            "\"slowStartMs\": 0.5                                     | slowStartMs: must be an integer (got: 0.5)",
            "\"healthCheck\": { \"enabled\": \"false\" }              | healthCheck.enabled: must be true or false (got: \"false\")",
            "\"healthCheck\": { \"rise\": \"\" }                      | healthCheck.rise: must be an integer (got: \"\")",
            "\"circuitBreaker\": { \"failureRateThreshold\": \"50\" } | circuitBreaker.failureRateThreshold: must be a number (got: \"50\")",
            "\"retries\": { \"retryNonIdempotent\": 0 }               | retries.retryNonIdempotent: must be true or false (got: 0)",
            "\"proxy\": { \"port\": \"8080\" }                        | proxy.port: must be an integer (got: \"8080\")",
            "\"proxy\": { \"host\": 127 }                             | proxy.host: must be a string (got: 127)",
            "\"stickySession\": { \"ttlSeconds\": 3600.9 }            | stickySession.ttlSeconds: must be an integer (got: 3600.9)",
            "\"strategy\": { \"type\": \"consistent-hash\", \"balanceFactor\": \"1.25\" } | strategy.balanceFactor: must be a number (got: \"1.25\")",
    })
    void aTopLevelFieldOfTheWrongTypeIsAnError(String fields, String problem, @TempDir Path dir) throws IOException {
        String json = "{ \"backends\": [ " + BACKEND + " } ], " + fields + " }";

        assertThat(problems(dir, json)).containsExactly("config error: " + problem);
    }

    /** The file through {@code ConfigLoader.load} (start) and {@code ConfigLoader.check} (--check-config) alike. */
    private static List<String> problems(Path dir, String json) throws IOException {
        Path file = Files.writeString(dir.resolve("fulcrum.json"), json);
        List<String> viaCheck = ConfigLoader.check(file).stream().map(ConfigProblem::toString).toList();
        List<String> viaLoad;
        try {
            ConfigLoader.load(file);
            viaLoad = List.of();
        } catch (ConfigException e) {
            viaLoad = e.lines();
        }
        assertThat(viaLoad).isEqualTo(viaCheck);
        return viaCheck;
    }
}
