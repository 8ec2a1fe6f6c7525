package dev.fulcrum.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.testkit.ProcessOutput;
import dev.fulcrum.trust.TrustStores;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SIGTERM and SIGINT end the real window cleanly at any moment of its life (docs/REFERENCE.md §1), with the "could
 * not start" dialog open included: {@code dev.fulcrum.Main} in its own JVM on a real X server (Xvfb on display :93,
 * GTK's glass library as on a desktop; Monocle, which the other UI tests use, has no nested event loops to crash).
 * The process exits with its code (1 for the start that failed, 0 for a window that ran) and leaves no
 * {@code hs_err_pid*.log} in its working folder. The dialog is found by its window title with {@code xwininfo}.
 * The same real window on its default config shows, in its title bar, the free ports it took when 8080 and 8081 are
 * taken. Skipped where Xvfb or xwininfo is not installed (CI installs both).
 */
@Tag("reliability")
class WindowSignalTest {
    private static final String DISPLAY = ":93";
    /** The X server this class started, or null when one already served the display. */
    private static Process xvfb;

    @BeforeAll
    static void display() throws Exception {
        assumeTrue(TrustStores.onPath("Xvfb") != null, "Xvfb is not installed here (CI installs xvfb)");
        assumeTrue(TrustStores.onPath("xwininfo") != null, "xwininfo is not installed here (CI installs x11-utils)");
        if (!Files.exists(Path.of("/tmp/.X11-unix/X" + DISPLAY.substring(1)))) {
            xvfb = new ProcessBuilder(TrustStores.onPath("Xvfb"), DISPLAY, "-screen", "0", "1280x800x24", "-nolisten", "tcp")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> windows().contains("(the root window)"));
    }

    @AfterAll
    static void stopDisplay() throws InterruptedException {
        if (xvfb != null) {
            xvfb.destroy();
            xvfb.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Skips where this process ignores {@code SIG}{@code signal}, as a job started in the background by a shell
     * without job control ignores SIGINT: the JVMs it starts inherit that and never see the signal.
     */
    private static void assumeSignalReachesChildren(String signal) throws IOException {
        int number = switch (signal) {
            case "INT" -> 2;
            case "TERM" -> 15;
            default -> throw new IllegalArgumentException("no number known for SIG" + signal);
        };
        long bit = 1L << (number - 1); // SigIgn's mask: bit n-1 for signal n
        String ignored = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("SigIgn:")).map(l -> l.substring(7).strip()).findFirst().orElse("0");
        assumeTrue((Long.parseUnsignedLong(ignored, 16) & bit) == 0,
                "SIG" + signal + " is ignored by this process (started in the background?), so by the window's");
    }

    @ParameterizedTest(name = "SIG{0} while {1}")
    @CsvSource({"TERM, the could-not-start dialog is open", "INT, the could-not-start dialog is open",
            "TERM, the main window is open", "INT, the main window is open"})
    void aSignalEndsTheWindowCleanly(String signal, String moment, @TempDir Path dir) throws Exception {
        assumeSignalReachesChildren(signal);
        boolean dialog = moment.contains("dialog");
        Path config = Files.writeString(dir.resolve("fulcrum.json"), """
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9"}], "healthCheck": {"enabled": false}}
                """);
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            String port = dialog ? String.valueOf(taken.getLocalPort()) : "0"; // a port given and taken: no fallback
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    "-Duser.home=" + dir, "dev.fulcrum.Main", "--config", config.toString(), "--proxy-port", port,
                    "--admin-port", "0")
                    .directory(dir.toFile()).redirectError(dir.resolve("stderr.txt").toFile());
            pb.environment().put("DISPLAY", DISPLAY);
            pb.environment().put("XDG_CONFIG_HOME", dir.toString());
            Process process = pb.start();
            try {
                if (dialog) {
                    await().atMost(Duration.ofSeconds(90)).until(() -> windows().contains("\"Error\": (\"dev.fulcrum"));
                } else {
                    String ready = firstLine(process);
                    assertThat(ready).as("stderr: %s", stderr(dir)).startsWith("fulcrum ready ");
                    await().atMost(Duration.ofSeconds(60)).until(() -> windows().contains("\"Fulcrum — embedded engine"));
                }
                Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).start();
                assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
                assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("exits after SIG%s", signal).isTrue();
                assertThat(hsErrFiles(dir)).as("no JVM crash report; stderr: %s", stderr(dir)).isEmpty();
                assertThat(stderr(dir)).doesNotContain("A fatal error has been detected");
                assertThat(process.exitValue()).as("stderr: %s", stderr(dir)).isEqualTo(dialog ? 1 : 0);
            } finally {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * A signal while the JavaFX toolkit is still starting, before any window or engine exists, ends the process with
     * exit 0 too. The moment is held open by a display that accepts GTK's connection and never answers it, so the
     * process is known to be inside the toolkit's start when the signal comes.
     */
    @ParameterizedTest(name = "SIG{0} while the toolkit starts")
    @CsvSource({"TERM", "INT"})
    void aSignalWhileTheToolkitStartsExitsZero(String signal, @TempDir Path dir) throws Exception {
        assumeSignalReachesChildren(signal);
        Path config = Files.writeString(dir.resolve("fulcrum.json"), """
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9"}], "healthCheck": {"enabled": false}}
                """);
        int display = 97;
        Path socket = Path.of("/tmp/.X11-unix/X" + display);
        assumeTrue(!Files.exists(socket), "display :" + display + " is in use here");
        Files.createDirectories(socket.getParent());
        try (java.nio.channels.ServerSocketChannel silent = java.nio.channels.ServerSocketChannel.open(
                java.net.StandardProtocolFamily.UNIX)) {
            silent.bind(java.net.UnixDomainSocketAddress.of(socket));
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    "-Duser.home=" + dir, "dev.fulcrum.Main", "--config", config.toString(), "--proxy-port", "0",
                    "--admin-port", "0")
                    .directory(dir.toFile()).redirectError(dir.resolve("stderr.txt").toFile())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put("DISPLAY", ":" + display);
            pb.environment().put("XDG_CONFIG_HOME", dir.toString());
            Process process = pb.start();
            try (java.nio.channels.SocketChannel gtk = CompletableFuture.supplyAsync(() -> {
                try {
                    return silent.accept(); // the toolkit connects to the display, then waits for its answer
                } catch (IOException e) {
                    return null;
                }
            }).get(60, TimeUnit.SECONDS)) {
                assertThat(gtk).isNotNull();
                Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).start();
                assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
                assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("exits after SIG%s", signal).isTrue();
                assertThat(process.exitValue()).as("stderr: %s", stderr(dir)).isZero();
            } finally {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } finally {
            Files.deleteIfExists(socket);
        }
    }

    /**
     * The window on its default config with 8080 and 8081 taken takes the next free ports and says so in the log and
     * the title bar (docs/REFERENCE.md §1); a SIGTERM then ends it with exit 0. Skipped while another process holds
     * the default config's demo backend ports.
     */
    @Test
    void theWindowOnItsDefaultConfigTakesFreePortsAndSaysWhich(@TempDir Path dir) throws Exception {
        for (int demo : new int[] {9101, 9102, 9103}) {
            try (ServerSocket probe = new ServerSocket(demo, 50, InetAddress.getByName("127.0.0.1"))) {
                probe.close(); // free: the default config's demo backend can listen there
            } catch (IOException e) {
                assumeTrue(false, "port " + demo + " of the default config's demo backends is taken here (" + e + ")");
            }
        }
        List<ServerSocket> held = new ArrayList<>();
        for (int port : new int[] {8080, 8081}) {
            try {
                held.add(new ServerSocket(port, 50, InetAddress.getByName("127.0.0.1")));
            } catch (IOException alreadyTaken) {
                // another process has it: taken all the same
            }
        }
        DefaultWindow w = startDefaultWindow(dir);
        Process process = w.process();
        try {
            String proxy = w.proxy();
            String admin = w.admin();
            assertThat(proxy).isNotIn("8080", "8081");
            assertThat(admin).isNotIn("8080", "8081", proxy);
            String note = "port 8080 was taken: proxy on " + proxy + "; port 8081 was taken: admin API on " + admin;
            await().atMost(Duration.ofSeconds(60)).until(() -> windows().contains(" (" + note + ")\": ("));
            assertThat(stderr(dir)).contains(note);
            process.destroy(); // SIGTERM
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("exits after SIGTERM").isTrue();
            assertThat(hsErrFiles(dir)).isEmpty();
            assertThat(process.exitValue()).as("stderr: %s", stderr(dir)).isZero();
        } finally {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            for (ServerSocket s : held) {
                s.close();
            }
        }
    }

    /**
     * The real window on the embedded default config sends gentle traffic through its proxy with nothing clicked, so a
     * room sees dots from the first minute (README, "See it move"; docs/REFERENCE.md §1). Started with the installers'
     * {@code -XX:+ExplicitGCInvokesConcurrent}, it asks G1 for one marking cycle once its start has settled
     * ({@code HeapSettle}), which the JVM's log shows as a concurrent start for {@code System.gc()} (or for the GC
     * locker the request waited on).
     */
    @Test
    void theWindowOnTheDefaultConfigSendsGentleTrafficWithNothingClicked(@TempDir Path dir) throws Exception {
        // given the window started as a user starts it: no arguments at all
        DefaultWindow w = startDefaultWindow(dir);
        Process process = w.process();
        try {
            URI state = URI.create("http://127.0.0.1:" + w.admin() + "/api/state");
            HttpClient http = HttpClient.newHttpClient();

            // then, with nothing clicked, the proxy answers a second's worth of the gentle rate
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> requests(http, state) >= 25);
            // and the heap its start grew is given back without stopping the proxy: G1 names the cycle's first pause
            // after System.gc(), or after the GC locker when the request had to wait for a JNI critical section to
            // end (JavaFX's software renderer holds one while it draws; seen as "Pause Young (Normal) (GCLocker
            // Initiated GC)" then "(Concurrent Start) (GCLocker Initiated GC)" a moment later, 5 s after the window)
            Path gcLog = dir.resolve("gc.log");
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertThat(Files.exists(gcLog) ? Files.readString(gcLog) : "(no gc.log)")
                            .as("the collector's log; stderr: %s", stderr(dir))
                            .containsAnyOf("Pause Young (Concurrent Start) (System.gc())",
                                    "Pause Young (Concurrent Start) (GCLocker Initiated GC)"));
            assertThat(Files.readString(gcLog)).doesNotContain("Pause Full");

            process.destroy(); // SIGTERM, the traffic still running
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("exits after SIGTERM").isTrue();
            assertThat(process.exitValue()).as("stderr: %s", stderr(dir)).isZero();
        } finally {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** A window started by {@link #startDefaultWindow}, and the proxy and admin ports its ready line names. */
    private record DefaultWindow(Process process, String proxy, String admin) {
    }

    /**
     * {@code dev.fulcrum.Main} with no arguments in its own JVM on this class's display, up to its ready line; with the
     * installers' {@code -XX:+ExplicitGCInvokesConcurrent} and the collector's log in {@code dir/gc.log}.
     */
    private static DefaultWindow startDefaultWindow(Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-XX:+ExplicitGCInvokesConcurrent",
                "-Xlog:gc:file=" + dir.resolve("gc.log"), "-cp", System.getProperty("java.class.path"),
                "-Duser.home=" + dir, "dev.fulcrum.Main")
                .directory(dir.toFile()).redirectError(dir.resolve("stderr.txt").toFile());
        pb.environment().put("DISPLAY", DISPLAY);
        pb.environment().put("XDG_CONFIG_HOME", dir.toString());
        Process process = pb.start();
        String ready = firstLine(process);
        Matcher m = Pattern.compile("fulcrum ready proxy=http://127\\.0\\.0\\.1:(\\d+) admin=http://127\\.0\\.0\\.1:(\\d+)")
                .matcher(ready == null ? "" : ready);
        if (!m.matches()) {
            process.destroyForcibly();
        }
        assertThat(m.matches()).as("ready line %s; stderr: %s", ready, stderr(dir)).isTrue();
        return new DefaultWindow(process, m.group(1), m.group(2));
    }

    /** The process's first line of standard output (its ready line), or null when it ends without one. */
    private static String firstLine(Process process) throws Exception {
        return ProcessOutput.firstLine(process, Duration.ofSeconds(90));
    }

    /** Requests the engine's backends answered, all together. */
    private static long requests(HttpClient http, URI state) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(state).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        long n = 0;
        for (JsonNode b : new ObjectMapper().readTree(r.body()).path("backends")) {
            n += b.path("totalRequests").asLong();
        }
        return n;
    }

    /** The X server's window tree: each window with its title and class. */
    private static String windows() throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(TrustStores.onPath("xwininfo"), "-root", "-tree").redirectErrorStream(true);
        pb.environment().put("DISPLAY", DISPLAY);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        return out;
    }

    private static List<Path> hsErrFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return new ArrayList<>(files.filter(f -> f.getFileName().toString().startsWith("hs_err_pid")).toList());
        }
    }

    private static String stderr(Path dir) throws IOException {
        Path f = dir.resolve("stderr.txt");
        return Files.exists(f) ? Files.readString(f) : "";
    }
}
