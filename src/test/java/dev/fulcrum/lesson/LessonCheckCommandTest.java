package dev.fulcrum.lesson;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.app.FulcrumCommand;
import dev.fulcrum.app.WindowLauncher;
import dev.fulcrum.config.FulcrumConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --lesson FILE --check} (docs/REFERENCE.md §5): one line per expectation on standard output, exit 0 when all
 * held, 1 when one failed, 2 for a file that is no lesson; the command line reaches it through the hook
 * {@code dev.fulcrum.Main} hands it.
 */
class LessonCheckCommandTest {
    static final String TWO = "{\"title\": \"two\", \"summary\": \"s\", \"config\": {\"strategy\": {\"type\":"
            + " \"round-robin\"}, \"healthCheck\": {\"enabled\": false}, \"demoBackends\": [{\"id\": \"demo-a\","
            + " \"port\": 0, \"latencyMs\": 0}, {\"id\": \"demo-b\", \"port\": 0, \"latencyMs\": 0}]}, \"steps\": [";

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private Path file(String steps) throws IOException {
        Path f = dir.resolve("lesson.json");
        Files.writeString(f, TWO + steps + "]}");
        return f;
    }

    private int check(Path f) {
        return LessonCheck.run(f, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void everyExpectationHoldsExitZeroWithALinePerExpectation() throws IOException {
        int code = check(file("{\"say\": \"turns\", \"expect\": [{\"sequence\": [\"demo-a\", \"demo-b\", \"demo-a\"]}]},"
                + " {\"say\": \"again\", \"do\": [{\"setWeight\": \"demo-b\", \"weight\": 0}],"
                + " \"expect\": [{\"sequence\": [\"demo-a\", \"demo-a\"]}, {\"state\": \"demo-b\", \"is\": \"UP\"}]}"));
        assertThat(code).isZero();
        assertThat(out()).isEqualTo("step 1: ok: sequence demo-a demo-b demo-a\n"
                + "step 2: ok: sequence demo-a demo-a\nstep 2: ok: state of demo-b UP\n");
    }

    @Test
    void oneFailedExpectationExitsOneAndSaysWhatWasSeen() throws IOException {
        int code = check(file("{\"say\": \"x\", \"expect\": [{\"sequence\": [\"demo-a\", \"demo-a\"]},"
                + " {\"state\": \"demo-a\", \"is\": \"UP\"}]}"));
        assertThat(code).isEqualTo(1);
        assertThat(out()).isEqualTo("step 1: FAILED: sequence demo-a demo-b, expected demo-a demo-a\n"
                + "step 1: ok: state of demo-a UP\n");
    }

    @Test
    void aWaitThatTimesOutIsAFailedLine() throws IOException {
        int code = check(file("{\"say\": \"x\", \"waitFor\": {\"breaker\": \"demo-a\", \"is\": \"OPEN\","
                + " \"timeoutMs\": 100}}"));
        assertThat(code).isEqualTo(1);
        assertThat(out()).isEqualTo("step 1: FAILED: waited 0.1 s for breaker of demo-a OPEN: breaker of demo-a"
                + " CLOSED, expected OPEN\n");
    }

    @Test
    void anInvalidFileExitsTwoWithEveryProblemOnStandardErrorAndStartsNothing() throws IOException {
        int code = check(file("{\"say\": \"x\", \"do\": [{\"drain\": \"demo-z\"}], \"expect\": [{\"p99\": 100}]}"));
        assertThat(code).isEqualTo(2);
        assertThat(out()).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8).lines()).containsExactly(
                "lesson error: steps[0].do[0].drain: no such backend in the lesson (got: demo-z)",
                "lesson error: steps[0].expect[0].p99: must be a bound: {\"between\": [low, high]}, {\"above\": x},"
                        + " {\"below\": x}, {\"atLeast\": x} or {\"atMost\": x} (got: 100)");
        assertThat(check(dir.resolve("missing.json"))).isEqualTo(2);
    }

    @Test
    void theCommandLineHandsTheFileToTheLessonsHook() throws IOException {
        Path f = file("{\"say\": \"x\", \"expect\": [{\"state\": \"demo-a\", \"is\": \"UP\"}]}");
        WindowLauncher none = new WindowLauncher() {
            @Override
            public int embedded(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides) {
                throw new AssertionError("no window for --lesson");
            }

            @Override
            public int attach(String url, String token) {
                throw new AssertionError("no window for --lesson");
            }
        };
        assertThat(FulcrumCommand.run(new String[] {"--lesson", f.toString(), "--check"}, none, this::check)).isZero();
        assertThat(out()).isEqualTo("step 1: ok: state of demo-a UP\n");
        assertThat(FulcrumCommand.run(new String[] {"--lesson", f.toString()}, none, this::check)).isEqualTo(2);
        assertThat(FulcrumCommand.run(new String[] {"--check"}, none, this::check)).isEqualTo(2);
    }
}
