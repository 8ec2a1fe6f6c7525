package dev.fulcrum.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGHUP (nginx's and HAProxy's reload, systemd's usual ExecReload) and SIGUSR1 (nginx's reopen of its logs,
 * logrotate's usual postrotate) killed the JVM at once (exit 129 / 138) and cut off the requests in flight. Now
 * HUP reads the config file again and USR1 reopens the access log; the process serves on.
 */
@Tag("reliability")
class OperatorSignalsTest {
    private static final Pattern READY = Pattern.compile("fulcrum ready proxy=http://127\\.0\\.0\\.1:(\\d+) admin=\\S+");

    @ParameterizedTest(name = "SIG{0}")
    @ValueSource(strings = {"HUP", "USR1"})
    void aHangupOrUsr1DoesNotCutOffRequestsInFlight(String signal, @TempDir Path dir) throws Exception {
        RecordingBackend backend = new RecordingBackend("slow");
        backend.delayMs = 1500;
        Path config = dir.resolve("fulcrum.json");
        Files.writeString(config, """
                {"strategy": {"type": "round-robin"},
                 "backends": [{"id": "slow", "url": "%s"}],
                 "healthCheck": {"enabled": false},
                 "proxy": {"drainTimeoutMs": 30000}}
                """.formatted(backend.url()));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "dev.fulcrum.app.Main", "--config", config.toString(), "--proxy-port", "0", "--admin-port", "0", "--headless"));
        Process process = new ProcessBuilder(command).redirectError(dir.resolve("stderr.txt").toFile()).start();
        ExecutorService clients = Executors.newFixedThreadPool(4);
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line = clients.submit(out::readLine).get(120, TimeUnit.SECONDS);
            Matcher m = READY.matcher(line == null ? "" : line);
            assertThat(m.matches()).as("ready line (got: %s)", line).isTrue();
            int port = Integer.parseInt(m.group(1));
            List<Future<RawHttp.Response>> inFlight = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                inFlight.add(clients.submit(() -> RawHttp.get(port, "/slow", 60_000)));
            }
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
                    .until(() -> backend.seen.stream().filter(s -> s.uri().equals("/slow")).count() == 4);
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor();
            for (Future<RawHttp.Response> f : inFlight) {
                RawHttp.Response r = f.get(60, TimeUnit.SECONDS);
                assertThat(r.status()).as("in-flight request after SIG%s", signal).isEqualTo(200);
                assertThat(r.complete()).isTrue();
            }
            assertThat(process.isAlive()).as("still serving after SIG%s", signal).isTrue();
            assertThat(RawHttp.get(port, "/after", 20_000).status()).isEqualTo(200);
        } catch (java.util.concurrent.ExecutionException e) {
            process.waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("an in-flight request failed after SIG" + signal + "; process exit "
                    + (process.isAlive() ? "alive" : process.exitValue()) + ": " + e.getCause(), e);
        } finally {
            clients.shutdownNow();
            process.destroyForcibly();
            backend.close();
        }
    }
}
