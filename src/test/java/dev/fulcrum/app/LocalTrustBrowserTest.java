package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --trust} as a developer meets it: the real command in its own JVM, in a home of its own, then Fulcrum headless
 * with HTTPS on, then Debian's real Chromium (headless, no {@code --ignore-certificate-errors}) opening
 * {@code https://localhost:PORT}. Trusted, the page loads; after {@code --untrust}, and in a home that never trusted,
 * Chromium refuses it with ERR_CERT_AUTHORITY_INVALID.
 */
class LocalTrustBrowserTest {
    private static final Pattern READY = Pattern.compile(
            "fulcrum ready proxy=http://127\\.0\\.0\\.1:\\d+ admin=http://127\\.0\\.0\\.1:\\d+ https=https://127\\.0\\.0\\.1:(\\d+)");

    @TempDir
    Path dir;

    private ProcessBuilder fulcrum(Path home, String... args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "dev.fulcrum.Main"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        env(pb.environment(), home);
        return pb;
    }

    private static void env(Map<String, String> env, Path home) {
        env.put("HOME", home.toString());
        env.put("XDG_CONFIG_HOME", home.resolve(".config").toString());
    }

    private String run(ProcessBuilder pb) throws Exception {
        Process p = pb.redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    /** What Chromium shows for {@code url} with {@code home}'s trust stores: the page's DOM, or its load error. */
    private String chromium(Path home, String url) throws Exception {
        String chromium = dev.fulcrum.trust.TrustStores.onPath("chromium");
        assertThat(chromium).as("chromium on the PATH (apt-get install chromium)").isNotNull();
        Path profile = Files.createTempDirectory(dir, "profile");
        ProcessBuilder pb = new ProcessBuilder(chromium, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile, "--dump-dom", url);
        env(pb.environment(), home);
        Path err = dir.resolve("chromium-" + System.nanoTime() + ".err");
        Process p = pb.redirectError(err.toFile()).start();
        String dom = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        Matcher failed = Pattern.compile("Page load failed: (\\S+)").matcher(Files.readString(err));
        return failed.find() ? failed.group(1) : dom;
    }

    @Test
    void chromiumTrustsTheLocalHttpsAddressAfterTrustAndNotAfterUntrust() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        Path stranger = Files.createDirectories(dir.resolve("stranger"));
        Path config = dir.resolve("dev.json");
        Files.writeString(config, """
                {"proxy": {"port": 0, "tls": {"enabled": true, "port": 1}}, "admin": {"port": 0},
                 "healthCheck": {"enabled": false}, "demoBackends": [{"id": "demo-a", "port": 0, "latencyMs": 0}]}
                """);

        String trusted = run(fulcrum(home, "--trust"));

        assertThat(trusted).contains("created the local certificate authority: "
                        + home.resolve(".config/fulcrum/tls/ca/fulcrum-ca.crt"))
                .contains("issued the HTTPS certificate for localhost, *.localhost, 127.0.0.1, ::1")
                .contains("done: NSS database " + home.resolve(".pki/nssdb"))
                .contains("update-ca-certificates");

        // port 1 is not ours to take: --tls-port 0 overrides it, or the start fails
        Process proxy = fulcrum(home, "--headless", "--config", config.toString(), "--tls-port", "0")
                .redirectError(dir.resolve("fulcrum.err").toFile()).start();
        try {
            String line = new BufferedReader(new InputStreamReader(proxy.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            Matcher ready = READY.matcher(line == null ? "" : line);
            assertThat(ready.matches()).as("ready line with https= (got: %s; stderr: %s)", line,
                    Files.readString(dir.resolve("fulcrum.err"))).isTrue();
            String url = "https://localhost:" + ready.group(1) + "/hello";

            assertThat(chromium(home, url)).contains("hello from demo-a");
            assertThat(chromium(home, "https://127.0.0.1:" + ready.group(1) + "/hello")).contains("hello from demo-a");
            assertThat(chromium(stranger, url)).isEqualTo("net::ERR_CERT_AUTHORITY_INVALID");

            String untrusted = run(fulcrum(home, "--untrust"));

            assertThat(untrusted).contains("done: NSS database " + home.resolve(".pki/nssdb")).contains("removed");
            assertThat(chromium(home, url)).isEqualTo("net::ERR_CERT_AUTHORITY_INVALID");
        } finally {
            proxy.destroy();
            proxy.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
