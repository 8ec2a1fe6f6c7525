package dev.fulcrum.lesson;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.app.FulcrumCommand;
import dev.fulcrum.app.LessonChecker;
import dev.fulcrum.app.WindowLauncher;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.demo.TrafficSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        return check(f, 0);
    }

    private int check(Path f, long stepPauseMs) {
        return LessonCheck.run(f, stepPauseMs, new PrintStream(out, true, StandardCharsets.UTF_8),
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
        List<Long> pauses = new ArrayList<>();
        LessonChecker hook = (file, pause) -> {
            pauses.add(pause);
            return check(file, pause);
        };
        assertThat(FulcrumCommand.run(new String[] {"--lesson", f.toString(), "--check"}, none, hook)).isZero();
        assertThat(out()).isEqualTo("step 1: ok: state of demo-a UP\n");
        assertThat(FulcrumCommand.run(new String[] {"--lesson", f.toString(), "--check", "--step-pause", "0.25"}, none,
                hook)).isZero();
        assertThat(pauses).containsExactly(0L, 250L);
        assertThat(FulcrumCommand.run(new String[] {"--lesson", f.toString()}, none, hook)).isEqualTo(2);
        assertThat(FulcrumCommand.run(new String[] {"--check"}, none, hook)).isEqualTo(2);
        assertThat(FulcrumCommand.run(new String[] {"--lesson", f.toString(), "--check", "--step-pause", "-1"}, none,
                hook)).isEqualTo(2);
        assertThat(FulcrumCommand.run(new String[] {"--step-pause", "3"}, none, hook)).isEqualTo(2);
        assertThat(pauses).hasSize(2);
    }

    @Test
    void theTrafficGoesOnWhileThePresenterTalksAndSpendsItsDurationOnlyInSteps() throws IOException {
        // 1.2 s of traffic: 0.3 s in step 1, then 2 s of talk, then step 2 waits for the run's end (0.9 s more)
        Path f = file("{\"say\": \"go\", \"do\": [{\"traffic\": {\"rate\": 100, \"durationMs\": 1200}},"
                + " {\"waitMs\": 300}]}, {\"say\": \"talked\", \"expect\": [{\"answers\": {\"between\": [60, 100]}}],"
                + " \"waitFor\": {\"trafficDone\": true, \"timeoutMs\": 5000}}");
        Lesson lesson = LessonReader.read(f);
        try (LessonRunner runner = new LessonRunner(lesson, LessonEngine.fresh(lesson.config()))) {
            runner.run(0);
            long sentBefore = runner.traffic().sent();
            runner.talk(2000);
            long sentDuringTalk = runner.traffic().sent() - sentBefore;
            assertThat(sentDuringTalk).as("sent while the presenter talked 2 s at 100 req/s").isGreaterThan(100);
            assertThat(runner.traffic().state()).isNotEqualTo(TrafficSnapshot.State.DONE);
            StepReport r = runner.run(1);
            assertThat(r.checks()).allMatch(Check::ok, "step 2: " + r.checks());
            assertThat(runner.traffic().state()).isEqualTo(TrafficSnapshot.State.DONE);
        }
    }
}
