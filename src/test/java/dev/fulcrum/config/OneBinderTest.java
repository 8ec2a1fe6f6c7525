package dev.fulcrum.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.lesson.LessonException;
import dev.fulcrum.lesson.LessonReader;
import dev.fulcrum.testkit.RunningFulcrum;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One binder, one verdict: the same bad value written in a config file ({@code --check-config}), an admin API request
 * body (over real HTTP to a running Fulcrum) and a lesson file ({@code --lesson FILE --check}) is refused by all three
 * with the same message, only the path in front differing: {@code backends[0].weight}, {@code weight},
 * {@code steps[0].do[0].weight}. Each place must report that one problem and nothing else.
 *
 * <p>Where the three have the same field (a weight, a demo backend's error rate, a strategy's fields) the case writes
 * it; where one of them has no such field, the case writes a field of the same kind (a backend's {@code backup} in a
 * config, a demo fault's {@code down} in the admin API and a lesson).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OneBinderTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A valid backend, for a config that needs one beside the field tried. */
    private static final String BACKEND = "{\"id\": \"a\", \"url\": \"http://127.0.0.1:9\"}";
    private static final String LESSON = "{\"title\": \"t\", \"summary\": \"s\", \"config\": {\"demoBackends\":"
            + " [{\"id\": \"demo-a\", \"port\": 0}, {\"id\": \"demo-b\", \"port\": 0}]},"
            + " \"steps\": [{\"say\": \"x\", \"do\": [%s]}]}";

    private RunningFulcrum fulcrum;
    @TempDir
    Path dir;

    @BeforeAll
    void start() {
        // a ring strategy, so the preview endpoint reads its body
        fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoJson(null, RunningFulcrum.QUIET)
                .replace("\"round-robin\"", "\"consistent-hash\"")).start();
    }

    @AfterAll
    void stop() {
        fulcrum.close();
    }

    /**
     * One kind of value and where each place writes it: {@code %s} is the value in each document, and each path is
     * the field's there.
     */
    record Kind(String name, String config, String configPath, String method, String endpoint, String body,
                String adminPath, String action, String lessonPath) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final Kind INTEGER = new Kind("integer",
            "{\"backends\": [{\"id\": \"a\", \"url\": \"http://127.0.0.1:9\", \"weight\": %s}]}", "backends[0].weight",
            "PUT", "/api/backends/demo-a/weight", "{\"weight\": %s}", "weight",
            "{\"setWeight\": \"demo-a\", \"weight\": %s}", "steps[0].do[0].weight");
    static final Kind LONG = new Kind("long",
            "{\"backends\": [" + BACKEND + "], \"strategy\": {\"type\": \"fastest-response\", \"decayMs\": %s}}",
            "strategy.decayMs",
            "PUT", "/api/strategy", "{\"type\": \"fastest-response\", \"decayMs\": %s}", "decayMs",
            "{\"strategy\": {\"type\": \"fastest-response\", \"decayMs\": %s}}", "steps[0].do[0].strategy.decayMs");
    static final Kind NUMBER = new Kind("number",
            "{\"demoBackends\": [{\"id\": \"d\", \"port\": 0, \"errorRate\": %s}]}", "demoBackends[0].errorRate",
            "PUT", "/api/demo/demo-a", "{\"errorRate\": %s}", "errorRate",
            "{\"demo\": \"demo-a\", \"errorRate\": %s}", "steps[0].do[0].errorRate");
    static final Kind BOOLEAN = new Kind("boolean",
            "{\"backends\": [{\"id\": \"a\", \"url\": \"http://127.0.0.1:9\", \"backup\": %s}]}", "backends[0].backup",
            "PUT", "/api/demo/demo-a", "{\"down\": %s}", "down",
            "{\"demo\": \"demo-a\", \"down\": %s}", "steps[0].do[0].down");
    static final Kind STRING = new Kind("string",
            "{\"backends\": [{\"id\": %s, \"url\": \"http://127.0.0.1:9\"}]}", "backends[0].id",
            "POST", "/api/backends", "{\"id\": %s, \"url\": \"http://127.0.0.1:9\"}", "id",
            "{\"drain\": %s}", "steps[0].do[0].drain");
    static final Kind ONE_OF = new Kind("one of",
            "{\"backends\": [" + BACKEND + "], \"strategy\": {\"type\": %s}}", "strategy.type",
            "PUT", "/api/strategy", "{\"type\": %s}", "type",
            "{\"strategy\": {\"type\": %s}}", "steps[0].do[0].strategy.type");
    static final Kind LIST = new Kind("list",
            "{\"backends\": [" + BACKEND + "], \"proxy\": {\"tls\": {\"names\": %s}}}", "proxy.tls.names",
            "POST", "/api/ring/preview", "{\"remove\": %s}", "remove",
            "{\"preview\": {\"remove\": %s}}", "steps[0].do[0].preview.remove");
    static final Kind MAP = new Kind("map",
            "{\"backends\": [" + BACKEND + "], \"strategy\": {\"type\": \"adaptive\", \"weights\": %s}}",
            "strategy.weights",
            "POST", "/api/ring/preview", "{\"weights\": %s}", "weights",
            "{\"preview\": {\"weights\": %s}}", "steps[0].do[0].preview.weights");
    static final Kind OBJECT = new Kind("object",
            "{\"backends\": [" + BACKEND + "], \"proxy\": %s}", "proxy",
            "POST", "/api/ring/preview", "{\"add\": [%s]}", "add[0]",
            "{\"traffic\": %s}", "steps[0].do[0].traffic");

    /** Each kind with bad values and the verdict; the last argument follows the path (an element's index). */
    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of(INTEGER, "5.0", "must be an integer (got: 5.0)", ""),
                Arguments.of(INTEGER, "\"5\"", "must be an integer (got: \"5\")", ""),
                Arguments.of(INTEGER, "true", "must be an integer (got: true)", ""),
                Arguments.of(INTEGER, "null", "must be an integer (got: null)", ""),
                Arguments.of(INTEGER, "99999999999", "is out of range (got: 99999999999)", ""),
                Arguments.of(LONG, "5.5", "must be an integer (got: 5.5)", ""),
                Arguments.of(LONG, "\"100\"", "must be an integer (got: \"100\")", ""),
                Arguments.of(LONG, "99999999999999999999", "is out of range (got: 99999999999999999999)", ""),
                Arguments.of(NUMBER, "\"half\"", "must be a number (got: \"half\")", ""),
                Arguments.of(NUMBER, "false", "must be a number (got: false)", ""),
                Arguments.of(BOOLEAN, "\"yes\"", "must be true or false (got: \"yes\")", ""),
                Arguments.of(BOOLEAN, "1", "must be true or false (got: 1)", ""),
                Arguments.of(STRING, "5", "must be a string (got: 5)", ""),
                Arguments.of(STRING, "[\"a\"]", "must be a string (got: [\"a\"])", ""),
                Arguments.of(ONE_OF, "5", "must be a string (got: 5)", ""),
                Arguments.of(ONE_OF, "\"sideways\"", "unknown strategy, one of " + String.join(", ",
                        dev.fulcrum.engine.strategy.StrategySpec.TYPES) + " (got: sideways)", ""),
                Arguments.of(LIST, "\"demo-a\"", "must be an array (got: \"demo-a\")", ""),
                Arguments.of(LIST, "{}", "must be an array (got: {})", ""),
                Arguments.of(LIST, "[5]", "must be a string (got: 5)", "[0]"),
                Arguments.of(LIST, "[null]", "must be a string (got: null)", "[0]"),
                Arguments.of(MAP, "[1]", "must be an object (got: [1])", ""),
                Arguments.of(MAP, "\"x\"", "must be an object (got: \"x\")", ""),
                Arguments.of(OBJECT, "5", "must be an object (got: 5)", ""),
                Arguments.of(OBJECT, "[]", "must be an object (got: [])", ""),
                Arguments.of(OBJECT, "null", "must be an object (got: null)", ""));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("badValues")
    void aBadValueGetsOneVerdictInAConfigFileAnAdminBodyAndALessonFile(Kind kind, String value, String verdict,
                                                                      String element) throws IOException {
        agree(verdict,
                config(kind.config().formatted(value), kind.configPath() + element),
                admin(kind.method(), kind.endpoint(), kind.body().formatted(value), kind.adminPath() + element),
                lesson(kind.action().formatted(value), kind.lessonPath() + element));
    }

    @Test
    void anUnknownFieldIsNamedWithTheFieldItProbablyMeant() throws IOException {
        agree("unknown field, did you mean weight? (got: 2)",
                config("{\"backends\": [{\"id\": \"a\", \"url\": \"http://127.0.0.1:9\", \"weigth\": 2}]}",
                        "backends[0].weigth"),
                admin("POST", "/api/backends", "{\"id\": \"n1\", \"url\": \"http://127.0.0.1:9\", \"weigth\": 2}",
                        "weigth"),
                lesson("{\"add\": \"demo-n\", \"weigth\": 2}", "steps[0].do[0].weigth"));
    }

    @Test
    void anUnknownStrategySettingListsTheSettingsOfEveryStrategy() throws IOException {
        agree("unknown field, expected one of " + String.join(", ", dev.fulcrum.engine.strategy.Strategies.fieldNames())
                        + " (got: 1)",
                config("{\"backends\": [" + BACKEND + "], \"strategy\": {\"type\": \"random\", \"colour\": 1}}",
                        "strategy.colour"),
                admin("PUT", "/api/strategy", "{\"type\": \"random\", \"colour\": 1}", "colour"),
                lesson("{\"strategy\": {\"type\": \"random\", \"colour\": 1}}", "steps[0].do[0].strategy.colour"));
    }

    @Test
    void aRequiredFieldLeftOutIsMissing() throws IOException {
        agree("required (got: missing)",
                config("{\"backends\": [{\"id\": \"a\"}]}", "backends[0].url"),
                admin("POST", "/api/backends", "{\"id\": \"n2\"}", "url"),
                lesson("{\"setWeight\": \"demo-a\"}", "steps[0].do[0].weight"));
    }

    @Test
    void aFieldGivenTwiceIsAnError() throws IOException {
        // the second weight starts line 2 in each document, so the parser stops at the same line and column
        String twice = "\"weight\": 1,\n\"weight\": 2";
        agree("invalid JSON at line 2, column 9: field given twice (got: \"weight\")",
                config("{\"backends\": [{\"id\": \"a\", \"url\": \"http://127.0.0.1:9\", " + twice + "}]}",
                        "backends[0].weight"),
                admin("PUT", "/api/backends/demo-a/weight", "{" + twice + "}", "weight"),
                lesson("{\"setWeight\": \"demo-a\", " + twice + "}", "steps[0].do[0].weight"));
    }

    /** What one place reported: its problems, and the path the field has there. */
    record Found(String place, String path, List<String> problems) {
    }

    /** Each place reports exactly one problem: its path, then {@code verdict}. */
    private static void agree(String verdict, Found... places) {
        List<String> disagreements = new ArrayList<>();
        for (Found f : places) {
            if (!f.problems().equals(List.of(f.path() + ": " + verdict))) {
                disagreements.add(f.place() + " said " + f.problems());
            }
        }
        assertThat(disagreements).as("expected each to say only <path>: " + verdict).isEmpty();
    }

    /** The problems of a config file, as {@code --check-config} reads it. */
    private Found config(String json, String path) throws IOException {
        Path file = Files.writeString(Files.createTempFile(dir, "fulcrum", ".json"), json);
        return new Found("config file", path, ConfigLoader.check(file).stream().map(ConfigProblem::describe).toList());
    }

    /** The admin API's 400 for a body, over HTTP. */
    private Found admin(String method, String endpoint, String body, String path) throws IOException {
        RunningFulcrum.Answer a = fulcrum.call(method, endpoint, body);
        if (a.status() != 400) {
            return new Found("admin API", path, List.of("status " + a.status() + ": " + a.body()));
        }
        return new Found("admin API", path, List.of(JSON.readTree(a.body()).get("error").asText()));
    }

    /** The problems of a lesson file whose one step does {@code action}, as {@code --lesson FILE --check} reads it. */
    private Found lesson(String action, String path) throws IOException {
        Path file = Files.writeString(Files.createTempFile(dir, "lesson", ".json"), LESSON.formatted(action));
        try {
            LessonReader.read(file);
            return new Found("lesson file", path, List.of());
        } catch (LessonException e) {
            return new Found("lesson file", path, e.problems().stream().map(ConfigProblem::describe).toList());
        }
    }
}
