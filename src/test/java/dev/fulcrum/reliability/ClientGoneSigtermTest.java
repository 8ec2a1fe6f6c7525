package dev.fulcrum.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fulcrum.testkit.ProcessOutput;
import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.trust.TrustStores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SIGTERM after real HTTP/2 clients gave up on their requests (docs/REFERENCE.md §1: stop accepting, let in-flight
 * requests finish up to drainTimeoutMs, exit 0): {@code curl --http2 --max-time 0.3} and an {@code h2load} run cut off
 * by its duration, against a backend that answers in 2 s, the real {@code dev.fulcrum.Main} headless in its own JVM
 * with a 30 s drain timeout. Once the clients are gone nothing is in flight, so the stop is clean and takes less
 * than a second (measured between the log's "shutting down" and "stopped cleanly" lines). Each
 * client program is skipped where it is not installed (CI installs both).
 */
@Tag("reliability")
class ClientGoneSigtermTest {
    private static final Pattern READY = Pattern.compile("fulcrum ready proxy=\\S+ admin=\\S+ https=https://127\\.0\\.0\\.1:(\\d+)");

    @ParameterizedTest
    @ValueSource(strings = {"curl", "h2load"})
    void sigtermAfterHttp2ClientsGaveUpStopsCleanlyAtOnce(String client, @TempDir Path dir) throws Exception {
        String program = TrustStores.onPath(client);
        assumeTrue(program != null, client + " is not installed here (CI installs it)");
        RecordingBackend backend = new RecordingBackend("slow");
        backend.delayMs = 2000; // slow on purpose: every client gives up first
        Path config = Files.writeString(dir.resolve("fulcrum.json"), """
                {"strategy": {"type": "round-robin"},
                 "backends": [{"id": "slow", "url": "%s"}],
                 "healthCheck": {"enabled": false},
                 "proxy": {"drainTimeoutMs": 30000, "tls": {"enabled": true, "port": 0}}}
                """.formatted(backend.url()));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "dev.fulcrum.Main",
                "--config", config.toString(), "--proxy-port", "0", "--admin-port", "0", "--headless")
                .redirectError(dir.resolve("stderr.txt").toFile());
        pb.environment().put("XDG_CONFIG_HOME", dir.toString()); // the local certificate goes here
        Process process = pb.start();
        try {
            String line = ProcessOutput.firstLine(process, Duration.ofSeconds(120));
            Matcher m = READY.matcher(line == null ? "" : line);
            assertThat(m.matches()).as("ready line (got: %s; stderr: %s)", line, Files.readString(dir.resolve("stderr.txt")))
                    .isTrue();
            String url = "https://127.0.0.1:" + m.group(1) + "/slow";
            List<String> command = client.equals("curl")
                    ? List.of(program, "--http2", "-k", "-s", "-o", "/dev/null", "--max-time", "0.3", url)
                    : List.of(program, "-D", "1", "-c", "2", "-m", "2", url);
            // the first TLS handshake of a fresh JVM may take longer than the client waits: until a request got through
            int runs = 0;
            while (backend.seen.stream().noneMatch(s -> s.uri().equals("/slow")) && runs++ < 10) {
                Process c = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(dir.resolve(client + ".txt").toFile()).start();
                assertThat(c.waitFor(30, TimeUnit.SECONDS)).as(client + " ends").isTrue();
            }
            assertThat(backend.seen).as("a request reached the backend").isNotEmpty();
            long termAt = System.nanoTime();
            process.destroy(); // SIGTERM
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("exits well before the 30 s drain timeout").isTrue();
            long exitMs = (System.nanoTime() - termAt) / 1_000_000;
            String log = Files.readString(dir.resolve("stderr.txt"));
            assertThat(process.exitValue()).as("stderr: %s", log).isZero();
            assertThat(log).contains("stopped cleanly").doesNotContain("requests still in flight");
            long drainMs = millisBetween(log, "shutting down", "stopped cleanly");
            // the stop itself, from the log's own clock: the JVM's exit after it depends on the machine's load
            assertThat(drainMs).as("graceful stop took %d ms (drain timeout 30000 ms); stderr: %s", drainMs, log)
                    .isLessThan(1000);
            Figures.record("SIGTERM after " + client + " gave up (h2)", runs + " run(s) of "
                    + String.join(" ", command.subList(1, command.size() - 1)) + " against a 2 s backend; stopped in "
                    + drainMs + " ms, exit 0 after " + exitMs + " ms");
        } finally {
            process.destroyForcibly();
            backend.close();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> !process.isAlive());
    }

    private static final Pattern LOG_TIME = Pattern.compile("^(\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d{3}) ");

    /** Milliseconds from the first log line containing {@code from} to the first after it containing {@code to}. */
    private static long millisBetween(String log, String from, String to) {
        long start = -1;
        for (String line : log.split("\\R")) {
            Matcher m = LOG_TIME.matcher(line);
            if (!m.find()) {
                continue;
            }
            long t = ((Long.parseLong(m.group(1)) * 60 + Long.parseLong(m.group(2))) * 60 + Long.parseLong(m.group(3)))
                    * 1000 + Long.parseLong(m.group(4));
            if (start < 0 && line.contains(from)) {
                start = t;
            } else if (start >= 0 && line.contains(to)) {
                return Math.floorMod(t - start, 86_400_000L); // across midnight too
            }
        }
        throw new AssertionError("no log line '" + from + "' followed by '" + to + "' in: " + log);
    }
}
