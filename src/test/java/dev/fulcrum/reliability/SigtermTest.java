package dev.fulcrum.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.testkit.RawHttp;
import dev.fulcrum.testkit.RecordingBackend;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ConnectException;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM under load (issue 7, docs/REFERENCE.md §1): the real {@code dev.fulcrum.Main} in its own JVM, headless,
 * with slow requests (1.5 s) in flight. {@link Process#destroy()} sends SIGTERM on Linux; every in-flight request
 * must still complete with 200 and the process must exit 0.
 */
@Tag("reliability")
class SigtermTest {
    private static final Pattern READY = Pattern.compile("fulcrum ready proxy=http://127\\.0\\.0\\.1:(\\d+) admin=\\S+");

    /** Headless, and with the window (JavaFX on Monocle, no display): both print the ready line and drain. */
    @org.junit.jupiter.params.ParameterizedTest(name = "window {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void sigtermLetsInFlightRequestsFinishAndExitsZero(boolean window, @TempDir Path dir) throws Exception {
        RecordingBackend backend = new RecordingBackend("slow");
        backend.delayMs = 1500; // long enough that SIGTERM surely lands while all 8 are in flight
        Path config = slowConfig(dir, backend);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path")));
        if (window) {
            // the window on Monocle's headless screen (as the UI tests run), its preferences in the temp dir
            command.addAll(List.of("-Dglass.platform=Monocle", "-Dmonocle.platform=Headless", "-Dprism.order=sw",
                    "-Dprism.text=t2k", "-Djava.awt.headless=true", "-Duser.home=" + dir));
        }
        command.addAll(List.of("dev.fulcrum.Main", "--config", config.toString(), "--proxy-port", "0", "--admin-port", "0"));
        if (!window) {
            command.add("--headless");
        }
        Process process = new ProcessBuilder(command).redirectError(dir.resolve("stderr.txt").toFile()).start();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            Future<String> readyLine = clients.submit(out::readLine);
            String line = readyLine.get(120, TimeUnit.SECONDS);
            Matcher m = READY.matcher(line == null ? "" : line);
            assertThat(m.matches()).as("ready line (got: %s; stderr: %s)", line, Files.readString(dir.resolve("stderr.txt")))
                    .isTrue();
            int port = Integer.parseInt(m.group(1));

            List<Future<RawHttp.Response>> inFlight = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                inFlight.add(clients.submit(() -> RawHttp.get(port, "/slow", 120_000)));
            }
            // every request has reached the backend, none has been answered yet (1 s latency)
            // (the backend also sees Fulcrum's own polls, e.g. /metrics.json, so count only /slow)
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(10))
                    .until(() -> backend.seen.stream().filter(s -> s.uri().equals("/slow")).count() == 8);
            assertThat(inFlight).noneMatch(Future::isDone);
            long termAt = System.nanoTime();
            process.destroy(); // SIGTERM
            for (Future<RawHttp.Response> f : inFlight) {
                RawHttp.Response r = f.get(120, TimeUnit.SECONDS);
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.complete()).isTrue();
                assertThat(r.body()).isEqualTo("slow");
            }
            assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("process exits").isTrue();
            long exitMs = (System.nanoTime() - termAt) / 1_000_000;
            assertThat(process.exitValue()).as("stderr: %s", Files.readString(dir.resolve("stderr.txt"))).isZero();
            boolean refusedAfterExit;
            try {
                RawHttp.get(port, "/after", 5000);
                refusedAfterExit = false;
            } catch (ConnectException e) {
                refusedAfterExit = true;
            }
            assertThat(refusedAfterExit).as("nothing listens once the process is gone").isTrue();
            Figures.record(window ? "SIGTERM (window)" : "SIGTERM", "8 in-flight requests (1.5 s backend) all 200 after "
                    + "SIGTERM; exit 0 after " + exitMs + " ms");
        } finally {
            clients.shutdownNow();
            process.destroyForcibly();
            backend.close();
        }
    }

    /**
     * SIGHUP (nginx's and HAProxy's reload, systemd's usual ExecReload) and SIGUSR1 (nginx's reopen of its logs,
     * logrotate's usual postrotate) killed the JVM at once (exit 129 / 138) and cut off the requests in flight. Now
     * HUP reads the config file again and USR1 reopens the access log; the process serves on.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "SIG{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"HUP", "USR1"})
    void aHangupOrUsr1DoesNotCutOffRequestsInFlight(String signal, @TempDir Path dir) throws Exception {
        RecordingBackend backend = new RecordingBackend("slow");
        backend.delayMs = 1500;
        Path config = slowConfig(dir, backend);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "dev.fulcrum.Main", "--config", config.toString(), "--proxy-port", "0", "--admin-port", "0", "--headless"));
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

    /** A config with one backend, round robin, no health checks and a drain long enough for any test. */
    static Path slowConfig(Path dir, RecordingBackend backend) throws java.io.IOException {
        return Files.writeString(dir.resolve("fulcrum.json"), """
                {"strategy": {"type": "round-robin"},
                 "backends": [{"id": "slow", "url": "%s"}],
                 "healthCheck": {"enabled": false},
                 "proxy": {"drainTimeoutMs": 30000}}
                """.formatted(backend.url()));
    }
}
