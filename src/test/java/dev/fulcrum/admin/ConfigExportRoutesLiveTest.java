package dev.fulcrum.admin;

import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.demo.DemoBackend;
import dev.fulcrum.demo.DemoSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.testkit.FreePort;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.fulcrum.admin.ExportFixturesForTest.binary;
import static dev.fulcrum.admin.ExportFixturesForTest.nginxConf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real nginx, then a real HAProxy, on the export of a canary setup in front of demo backends: a header route to the
 * canary before a 90/10 split sticky by the user cookie, the split route mirrored whole to a shadow pool. The export
 * routes, splits and (nginx) mirrors the way Fulcrum does, not only passes the config check.
 */
@Timeout(120)
class ConfigExportRoutesLiveTest {
    private static final int USERS = 200;
    private final List<DemoBackend> backends = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private Process proxy;
    private DemoBackend shadow;

    @AfterEach
    void stop() throws InterruptedException {
        if (proxy != null) {
            proxy.destroyForcibly();
            proxy.waitFor();
        }
        backends.forEach(DemoBackend::close);
    }

    private DemoBackend backend(String id) {
        DemoBackend b = DemoBackend.start(DemoSpec.of(id, 0, 1));
        backends.add(b);
        return b;
    }

    private String export(String format, int port) {
        DemoBackend stable = backend("stable-1");
        DemoBackend canary = backend("canary-1");
        shadow = backend("shadow-1");
        FulcrumConfig c = ConfigLoader.parse("""
                { "proxy": { "host": "127.0.0.1", "port": %d },
                  "retries": { "maxRetries": 0 },
                  "pools": {
                    "stable": { "backends": [ {"id": "stable-1", "url": "%s"} ] },
                    "canary": { "backends": [ {"id": "canary-1", "url": "%s"} ] },
                    "shadow": { "backends": [ {"id": "shadow-1", "url": "%s"} ] } },
                  "routes": [
                    { "match": { "pathPrefix": "/", "headers": { "X-Canary": "1" } }, "pool": "canary" },
                    { "pathPrefix": "/", "split": [ {"pool": "stable", "weight": 90}, {"pool": "canary", "weight": 10} ],
                      "stickyBy": "cookie:user", "mirror": { "pool": "shadow", "percent": 100 } } ] }
                """.formatted(port, stable.url(), canary.url(), shadow.url()));
        try (Engine e = ExportFixturesForTest.engine(c)) {
            return ConfigExport.export(c, e, format, null);
        }
    }

    @Test
    void nginxOnTheExportRoutesByHeaderSplitsStickyByCookieAndMirrorsTheSplitRoute(@TempDir Path dir)
            throws Exception {
        Path nginx = binary("nginx");
        assumeTrue(nginx != null, "nginx is not installed here (CI installs it)");
        int port = FreePort.loopback();
        Path conf = nginxConf(dir, export("nginx", port));
        List<String> command = ExportFixturesForTest.nginxCommand(nginx, conf);
        command.addAll(List.of("-g", "daemon off; master_process off;"));
        proxy = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("proxy.out").toFile()).start();

        int split = routesAndSplits(port, dir.resolve("error.log"));

        // every request of the split route is copied, none of the header route's
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(shadow.counters().requests()).isEqualTo(split));
    }

    @Test
    void haproxyOnTheExportRoutesByHeaderAndSplitsStickyByCookie(@TempDir Path dir) throws Exception {
        Path haproxy = binary("haproxy");
        assumeTrue(haproxy != null, "haproxy is not installed here (CI installs it)");
        int port = FreePort.loopback();
        String text = export("haproxy", port);
        Path cfg = Files.writeString(dir.resolve("haproxy.cfg"), text);
        proxy = new ProcessBuilder(haproxy.toString(), "-db", "-f", cfg.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("proxy.out").toFile()).start();

        routesAndSplits(port, dir.resolve("proxy.out"));

        assertThat(text).contains("no equivalent: route 1's mirror");
        assertThat(shadow.counters().requests()).isZero();
    }

    /** Checks the header route and the sticky 90/10 split; the number of requests the split route took. */
    private int routesAndSplits(int port, Path log) throws Exception {
        URI root = URI.create("http://127.0.0.1:" + port + "/");
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                .untilAsserted(() -> assertThat(get(root, "X-Canary", "1").statusCode())
                        .as("proxy said: %s", read(log)).isEqualTo(200));
        for (int i = 0; i < 10; i++) {
            assertThat(get(root.resolve("/h/" + i), "X-Canary", "1").headers().firstValue(DemoBackend.HEADER))
                    .hasValue("canary-1");
        }
        Set<String> onCanary = new HashSet<>();
        int requests = 0;
        for (int u = 0; u < USERS; u++) {
            String first = null;
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> r = get(root.resolve("/u/" + u), "Cookie", "user=u" + u);
                requests++;
                assertThat(r.statusCode()).isEqualTo(200);
                String arm = r.headers().firstValue(DemoBackend.HEADER).orElseThrow();
                if (first == null) {
                    first = arm;
                }
                assertThat(arm).as("user u%d keeps the arm it got first", u).isEqualTo(first);
            }
            if (first.equals("canary-1")) {
                onCanary.add("u" + u);
            }
        }
        // 10% of 200 users is 20: the hash is fixed, so this share does not vary between runs
        assertThat(onCanary.size()).as("users on the canary: %s", onCanary).isBetween(8, 36);
        return requests;
    }

    private HttpResponse<String> get(URI uri, String header, String value) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).header(header, value).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log) : "(no log)";
        } catch (IOException e) {
            return e.toString();
        }
    }
}
