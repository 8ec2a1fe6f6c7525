package dev.fulcrum.admin.haproxy;

import static org.awaitility.Awaitility.await;

import dev.fulcrum.testkit.FreePort;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A real HAProxy child process for tests: writes a config into a temp dir (stats socket on a free loopback
 * port at admin level, one HTTP frontend, backend {@code app} with round-robin and health checks on
 * {@code /health}, and a {@code balance source} backend {@code st} that cannot take dynamic servers), starts
 * {@code haproxy -f cfg -db} and waits until the stats socket answers.
 */
final class HaproxyProcess implements AutoCloseable {
    private final Process process;
    private final Path log;
    private final int statsPort;
    private final int frontendPort;

    private HaproxyProcess(Process process, Path log, int statsPort, int frontendPort) {
        this.process = process;
        this.log = log;
        this.statsPort = statsPort;
        this.frontendPort = frontendPort;
    }

    /** True when {@code haproxy -v} runs (CI installs the Debian package; elsewhere the tests are skipped). */
    static boolean available() {
        try {
            Process p = new ProcessBuilder("haproxy", "-v").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static HaproxyProcess start(Path dir, String name, int s1Port, int s2Port) throws IOException {
        return start(dir, name, """
                backend app
                  balance roundrobin
                  option httpchk GET /health
                  server s1 127.0.0.1:%d check inter 200 rise 1 fall 1 weight 1
                  server s2 127.0.0.1:%d check inter 200 rise 1 fall 1 weight 1
                backend st
                  balance source
                  server a 127.0.0.1:%d
                """.formatted(s1Port, s2Port, s1Port));
    }

    /** With backend sections of the caller's own; the frontend sends everything to backend {@code app}. */
    static HaproxyProcess start(Path dir, String name, String backends) throws IOException {
        // HAProxy fails loudly (and the start reports it) if another process took one of them meanwhile
        int[] ports = FreePort.loopback(2);
        int stats = ports[0];
        int fe = ports[1];
        String cfg = """
                global
                  stats socket ipv4@127.0.0.1:%d level admin
                  maxconn 500
                defaults
                  mode http
                  timeout connect 2s
                  timeout client 30s
                  timeout server 30s
                frontend fe
                  bind 127.0.0.1:%d
                  default_backend app
                """.formatted(stats, fe) + backends;
        Path file = dir.resolve(name + ".cfg");
        Files.writeString(file, cfg, StandardCharsets.UTF_8);
        Path log = dir.resolve(name + ".log");
        Process p = new ProcessBuilder("haproxy", "-f", file.toString(), "-db")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        HaproxyProcess h = new HaproxyProcess(p, log, stats, fe);
        HaproxyRuntime rt = h.runtime();
        try {
            await("HAProxy " + name + " stats socket").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions().until(() -> {
                        if (!p.isAlive()) {
                            throw new IllegalStateException("haproxy exited: " + Files.readString(log));
                        }
                        return rt.showInfo().containsKey("Version");
                    });
        } catch (RuntimeException e) {
            h.close();
            throw new IllegalStateException("HAProxy " + name + " did not start; log: " + Files.readString(log), e);
        }
        return h;
    }

    InetSocketAddress stats() {
        return new InetSocketAddress("127.0.0.1", statsPort);
    }

    String name() {
        return "127.0.0.1:" + statsPort;
    }

    int frontendPort() {
        return frontendPort;
    }

    HaproxyRuntime runtime() {
        return new HaproxyRuntime(stats());
    }

    String log() throws IOException {
        return Files.readString(log);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
