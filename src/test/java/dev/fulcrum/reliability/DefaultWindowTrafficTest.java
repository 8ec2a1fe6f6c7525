package dev.fulcrum.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.trust.TrustStores;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real window on the embedded default config sends gentle traffic through its proxy with nothing clicked, so a room
 * sees dots from the first minute (README, "See it move"; docs/REFERENCE.md §1): {@code dev.fulcrum.Main} with no
 * arguments in its own JVM on a real X server (Xvfb on display :94, GTK's glass library as on a desktop), its engine
 * read through the admin API it prints in its ready line. Skipped where Xvfb is not installed (CI installs it).
 */
@Tag("reliability")
class DefaultWindowTrafficTest {
    private static final String DISPLAY = ":94";
    /** The X server this class started, or null when one already served the display. */
    private static Process xvfb;

    @BeforeAll
    static void display() throws Exception {
        assumeTrue(TrustStores.onPath("Xvfb") != null, "Xvfb is not installed here (CI installs xvfb)");
        if (!Files.exists(Path.of("/tmp/.X11-unix/X" + DISPLAY.substring(1)))) {
            xvfb = new ProcessBuilder(TrustStores.onPath("Xvfb"), DISPLAY, "-screen", "0", "1280x800x24", "-nolisten", "tcp")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(Path.of("/tmp/.X11-unix/X" + DISPLAY.substring(1))));
    }

    @AfterAll
    static void stopDisplay() throws InterruptedException {
        if (xvfb != null) {
            xvfb.destroy();
            xvfb.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theWindowOnTheDefaultConfigSendsGentleTrafficWithNothingClicked(@TempDir Path dir) throws Exception {
        // given the window started as a user starts it: no arguments at all
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "-Duser.home=" + dir, "dev.fulcrum.Main")
                .directory(dir.toFile()).redirectError(dir.resolve("stderr.txt").toFile());
        pb.environment().put("DISPLAY", DISPLAY);
        pb.environment().put("XDG_CONFIG_HOME", dir.toString());
        Process process = pb.start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String ready = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    return null;
                }
            }).get(90, TimeUnit.SECONDS);
            Matcher m = Pattern.compile("fulcrum ready proxy=\\S+ admin=(http://127\\.0\\.0\\.1:\\d+)")
                    .matcher(ready == null ? "" : ready);
            assertThat(m.matches()).as("ready line %s; stderr: %s", ready, stderr(dir)).isTrue();
            URI state = URI.create(m.group(1) + "/api/state");
            HttpClient http = HttpClient.newHttpClient();

            // then, with nothing clicked, the proxy answers a second's worth of the gentle rate
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> requests(http, state) >= 25);

            process.destroy(); // SIGTERM, the traffic still running
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("exits after SIGTERM").isTrue();
            assertThat(process.exitValue()).as("stderr: %s", stderr(dir)).isZero();
        } finally {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static JsonNode backends(HttpClient http, URI state) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(state).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        return new ObjectMapper().readTree(r.body()).path("backends");
    }

    /** Requests the engine's backends answered, all together. */
    private static long requests(HttpClient http, URI state) throws IOException, InterruptedException {
        long n = 0;
        for (JsonNode b : backends(http, state)) {
            n += b.path("totalRequests").asLong();
        }
        return n;
    }

    private static String stderr(Path dir) throws IOException {
        Path f = dir.resolve("stderr.txt");
        return Files.exists(f) ? Files.readString(f) : "";
    }
}
