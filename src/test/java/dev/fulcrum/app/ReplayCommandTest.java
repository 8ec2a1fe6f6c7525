package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.testkit.RecordingBackend;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --replay FILE [--speed X]} on the command line (docs/REFERENCE.md §1): the real {@code dev.fulcrum.Main},
 * headless in its own JVM, in front of a recording backend, replays a HAR file once it is ready, prints the summary
 * line on standard error and goes on serving; and what it refuses before starting anything.
 */
@DisplayName("--replay on the command line")
@Timeout(180)
class ReplayCommandTest {
    private static final Pattern READY = Pattern.compile("fulcrum ready proxy=http://127\\.0\\.0\\.1:(\\d+) admin=\\S+");
    private static final Pattern SUMMARY = Pattern.compile(
            "replay: 20 requests in \\d+\\.\\d\\d s \\(\\d+\\.\\d req/s\\), \\d+ late by more than 10 ms, 0 failed");

    static String har(int n) {
        return dev.fulcrum.testkit.HarFiles.har(n, 50);
    }

    @Test
    void headlessReplaysTheRecordingOnceReadyPrintsTheSummaryAndServesOn(@TempDir Path dir) throws Exception {
        RecordingBackend backend = new RecordingBackend("b");
        Path config = Files.writeString(dir.resolve("fulcrum.json"), """
                {"strategy": {"type": "round-robin"},
                 "backends": [{"id": "b", "url": "%s"}],
                 "healthCheck": {"enabled": false}}
                """.formatted(backend.url()));
        Path har = Files.writeString(dir.resolve("shop.har"), har(20));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "dev.fulcrum.Main", "--config", config.toString(), "--proxy-port", "0", "--admin-port", "0",
                "--headless", "--replay", har.toString(), "--speed", "10"));
        Process process = new ProcessBuilder(command).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
            List<String> errLines = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread drain = new Thread(() -> err.lines().forEach(errLines::add));
            drain.setDaemon(true);
            drain.start();
            String ready = out.readLine();
            assertThat(ready).as("stderr: %s", errLines).matches(READY);

            // the summary line comes once every request was sent and answered
            await().atMost(Duration.ofSeconds(60)).until(() -> errLines.stream().anyMatch(l -> SUMMARY.matcher(l).matches()));
            assertThat(backend.seen).hasSize(20);
            assertThat(backend.seen.stream().filter(s -> s.method().equals("POST")).count()).isEqualTo(5);
            assertThat(backend.seen).allSatisfy(s -> {
                assertThat(s.uri()).startsWith("/items/");
                assertThat(s.query()).startsWith("page=");
                assertThat(s.headers()).containsKey("x-user").doesNotContainKeys("authorization", "cookie");
            });
            assertThat(backend.seen.stream().filter(s -> s.uri().equals("/items/4")).findFirst().orElseThrow().body())
                    .isEqualTo("{\"n\":4}");

            // the process is a proxy still
            assertThat(process.isAlive()).isTrue();
            Integer port = Integer.valueOf(READY.matcher(ready).replaceAll("$1"));
            assertThat(dev.fulcrum.testkit.RawHttp.get(port, "/after", 10_000).status()).isEqualTo(200);
            assertThat(out.ready()).as("standard output carries only the ready line").isFalse();
        } finally {
            process.destroy();
            process.waitFor(60, TimeUnit.SECONDS);
            process.destroyForcibly();
            backend.close();
        }
    }

    /** Runs the command in this JVM and returns its exit code and what it printed on standard error. */
    private static String[] run(String... args) {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            int code = FulcrumCommand.run(args, new WindowLauncher() {
                @Override
                public int embedded(dev.fulcrum.config.FulcrumConfig c, Path f,
                                    java.util.function.UnaryOperator<dev.fulcrum.config.FulcrumConfig> o) {
                    throw new AssertionError("no window");
                }

                @Override
                public int attach(String url, String token) {
                    throw new AssertionError("no window");
                }
            });
            return new String[] {Integer.toString(code), captured.toString(StandardCharsets.UTF_8)};
        } finally {
            System.setErr(err);
        }
    }

    @Test
    void refusesWhatCannotBeReplayedBeforeStartingAnything(@TempDir Path dir) throws Exception {
        Path har = Files.writeString(dir.resolve("a.har"), har(3));
        assertThat(run("--headless", "--replay", dir.resolve("none.har").toString()))
                .containsExactly("2", "fulcrum: --replay: " + dir.resolve("none.har") + ": no such file\n");
        assertThat(run("--headless", "--replay", har.toString(), "--speed", "0"))
                .containsExactly("2", "fulcrum: --speed: must be between 0.01 and 1000 (got: 0.0)\n");
        assertThat(run("--headless", "--replay", har.toString(), "--speed", "5000"))
                .containsExactly("2", "fulcrum: --speed: must be between 0.01 and 1000 (got: 5000.0)\n");
        assertThat(run("--headless", "--replay", har.toString(), "--format", "csv"))
                .containsExactly("2", "fulcrum: --format: one of har, nginx, fulcrum-json (got: csv)\n");
        assertThat(run("--headless", "--speed", "2"))
                .containsExactly("2", "fulcrum: --speed goes with --replay FILE\n");
        // a file more than 1% of which cannot be read
        Path log = Files.writeString(dir.resolve("access.log"), "10.0.0.7 - - [05/Dec/2026:07:00:01 +0000] \"GET /a"
                + " HTTP/1.1\" 200 512 \"-\" \"curl/8\"\nnot a log line\n");
        String[] bad = run("--headless", "--replay", log.toString());
        assertThat(bad[0]).isEqualTo("2");
        assertThat(bad[1]).contains(log + ":2: ").contains("1 of 2 lines could not be read");
    }

    @Test
    void theWindowIsHandedTheCheckedRecordingAndItsSpeedAndNoGentleTraffic(@TempDir Path dir) throws Exception {
        Path har = Files.writeString(dir.resolve("a.har"), har(3));
        List<Object> handed = new ArrayList<>();
        int code = FulcrumCommand.run(new String[] {"--replay", har.toString(), "--speed", "3", "--proxy-port", "0",
                "--admin-port", "0"}, new WindowLauncher() {
                    @Override
                    public int embedded(dev.fulcrum.config.FulcrumConfig c, Path f,
                                        java.util.function.UnaryOperator<dev.fulcrum.config.FulcrumConfig> o) {
                        throw new AssertionError("the replay's overload is the one called");
                    }

                    @Override
                    public int embedded(dev.fulcrum.config.FulcrumConfig c, Path f,
                                        java.util.function.UnaryOperator<dev.fulcrum.config.FulcrumConfig> o,
                                        boolean gentleTraffic, dev.fulcrum.replay.ReplayFiles.Checked replay,
                                        double speed) {
                        handed.addAll(List.of(gentleTraffic, replay.file(), replay.span().count(), speed));
                        return 0;
                    }

                    @Override
                    public int attach(String url, String token) {
                        throw new AssertionError("no attach");
                    }
                });
        assertThat(code).isZero();
        assertThat(handed).containsExactly(false, har, 3L, 3.0);
    }

    @Test
    void theRecordingIsReadWithCompareFormatAndLogFormat(@TempDir Path dir) throws Exception {
        // an nginx log in a log_format of its own, which content alone would not tell
        Path log = Files.writeString(dir.resolve("custom.log"), """
                10.0.0.7 [05/Dec/2026:07:00:01 +0000] "GET /a?x=1 HTTP/1.1" 200
                10.0.0.8 [05/Dec/2026:07:00:02 +0000] "POST /b HTTP/1.1" 201
                """);
        List<Object> handed = new ArrayList<>();
        int code = FulcrumCommand.run(new String[] {"--replay", log.toString(), "--format", "nginx", "--log-format",
                "$remote_addr [$time_local] \"$request\" $status", "--proxy-port", "0", "--admin-port", "0"},
                new WindowLauncher() {
                    @Override
                    public int embedded(dev.fulcrum.config.FulcrumConfig c, Path f,
                                        java.util.function.UnaryOperator<dev.fulcrum.config.FulcrumConfig> o) {
                        throw new AssertionError("the replay's overload is the one called");
                    }

                    @Override
                    public int embedded(dev.fulcrum.config.FulcrumConfig c, Path f,
                                        java.util.function.UnaryOperator<dev.fulcrum.config.FulcrumConfig> o,
                                        boolean gentleTraffic, dev.fulcrum.replay.ReplayFiles.Checked replay,
                                        double speed) {
                        handed.addAll(List.of(replay.format().flag(), replay.span().count(), replay.bad()));
                        return 0;
                    }

                    @Override
                    public int attach(String url, String token) {
                        throw new AssertionError("no attach");
                    }
                });
        assertThat(code).isZero();
        assertThat(handed).containsExactly("nginx", 2L, 0L);
    }
}
