package dev.fulcrum.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.config.BackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.config.RouteConfig;
import dev.fulcrum.demo.DemoBackend;
import dev.fulcrum.demo.DemoSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.FreePort;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.fulcrum.admin.ExportFixturesForTest.binary;
import static dev.fulcrum.admin.ExportFixturesForTest.engine;
import static dev.fulcrum.admin.ExportFixturesForTest.nginxConf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs a real nginx, then a real HAProxy, on the exported config in front of real demo backends and sends traffic
 * through it: the export is not only accepted, it balances the way Fulcrum did. Each proxy runs as one foreground
 * process on a free loopback port and is killed at the end.
 */
@Timeout(120)
class ConfigExportLiveTest {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigExportLiveTest.class);
    private static final int REQUESTS = 400;
    private final List<DemoBackend> backends = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private Engine engine;
    private Process proxy;
    private DemoBackend drained;
    private DemoBackend api;

    @AfterEach
    void stop() throws InterruptedException {
        if (proxy != null) {
            proxy.destroyForcibly();
            proxy.waitFor();
        }
        if (engine != null) {
            engine.close();
        }
        backends.forEach(DemoBackend::close);
    }

    private DemoBackend backend(String id, int weight) {
        DemoBackend b = DemoBackend.start(DemoSpec.of(id, 0, weight));
        backends.add(b);
        return b;
    }

    /**
     * Backends heavy (3), light (1) and drained (1, drained in the engine) in the default pool, smooth weighted
     * round robin; api-1 in pool api behind the stripping route /api. The engine runs it all; the result is exported.
     */
    private String exportLiveSetup(String format, int port) {
        DemoBackend heavy = backend("heavy", 3);
        DemoBackend light = backend("light", 1);
        drained = backend("drained", 1);
        api = backend("api-1", 1);
        FulcrumConfig c = FulcrumConfig.of(StrategySpec.of(StrategySpec.SMOOTH_WRR),
                List.of(BackendConfig.of("heavy", heavy.url(), 3), BackendConfig.of("light", light.url(), 1),
                        BackendConfig.of("drained", drained.url(), 1)), List.of())
                .withPools(Map.of("api", new PoolConfig(StrategySpec.of(StrategySpec.LEAST_REQUESTS),
                        List.of(BackendConfig.of("api-1", api.url(), 1)), List.of())))
                .withProxyPort(port);
        FulcrumConfig config = new FulcrumConfig(c.proxy(), c.admin(), c.strategy(), c.backends(), c.demoBackends(),
                c.healthCheck(), c.outlierDetection(), c.circuitBreaker(), c.retries(), c.timeouts(), c.slowStartMs(),
                c.stickySession(), c.pools(), List.of(new RouteConfig("/api", "api", true)));
        engine = engine(config);
        engine.drain("drained");
        return ConfigExport.export(config, engine, format, null);
    }

    @Test
    void nginxOnTheExportHonoursWeightsSkipsTheDrainedBackendAndStripsRoutePrefixes(@TempDir Path dir)
            throws Exception {
        Path nginx = binary("nginx");
        assumeTrue(nginx != null, "nginx is not installed here (CI installs it)");
        int port = FreePort.loopback();
        Path conf = nginxConf(dir, exportLiveSetup("nginx", port));
        // one process in the foreground: killing it leaves no worker behind
        List<String> command = ExportFixturesForTest.nginxCommand(nginx, conf);
        command.addAll(List.of("-g", "daemon off; master_process off;"));
        proxy = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("proxy.out").toFile()).start();

        Map<String, Integer> counts = sendThrough(port, dir.resolve("error.log"));

        LOG.info("nginx on the export: {} requests -> {}", REQUESTS, counts);
        // nginx knows the address, not the id
        assertStrippedRouteReaches(port, api.url().substring("http://".length()));
    }

    @Test
    void haproxyOnTheExportHonoursWeightsSkipsTheDrainedBackendAndStripsRoutePrefixes(@TempDir Path dir)
            throws Exception {
        Path haproxy = binary("haproxy");
        assumeTrue(haproxy != null, "haproxy is not installed here (CI installs it)");
        int port = FreePort.loopback();
        Path cfg = Files.writeString(dir.resolve("haproxy.cfg"), exportLiveSetup("haproxy", port));
        // -db: stay in the foreground, one process
        proxy = new ProcessBuilder(haproxy.toString(), "-db", "-f", cfg.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("proxy.out").toFile()).start();

        Map<String, Integer> counts = sendThrough(port, dir.resolve("proxy.out"));

        LOG.info("HAProxy on the export: {} requests -> {}", REQUESTS, counts);
        // HAProxy's server name is the backend id
        assertStrippedRouteReaches(port, "api-1");
    }

    /** Waits for the proxy, sends {@link #REQUESTS} requests and checks the 3:1 split and the drained backend. */
    private Map<String, Integer> sendThrough(int port, Path log) throws Exception {
        URI root = URI.create("http://127.0.0.1:" + port + "/");
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                .untilAsserted(() -> assertThat(get(root).statusCode()).as("proxy said: %s", read(log))
                        .isEqualTo(200));
        Map<String, Integer> counts = new TreeMap<>();
        for (int i = 0; i < REQUESTS; i++) {
            HttpResponse<String> r = get(root.resolve("/hello/" + i));
            assertThat(r.statusCode()).isEqualTo(200);
            counts.merge(r.headers().firstValue(DemoBackend.HEADER).orElse("?"), 1, Integer::sum);
        }
        // 3:1 over 400 requests is 300:100; allow 10% of the requests either way
        assertThat(counts.getOrDefault("heavy", 0)).as("counts %s", counts).isBetween(260, 340);
        assertThat(counts.getOrDefault("light", 0)).as("counts %s", counts).isBetween(60, 140);
        assertThat(counts).as("the drained backend gets nothing").doesNotContainKey("drained");
        assertThat(drained.counters().requests()).as("requests the drained backend saw").isZero();
        return counts;
    }

    private void assertStrippedRouteReaches(int port, String backendHeader) throws Exception {
        HttpResponse<String> echo = get(URI.create("http://127.0.0.1:" + port + "/api/echo?x=1"));
        assertThat(echo.statusCode()).isEqualTo(200);
        assertThat(echo.headers().firstValue(DemoBackend.HEADER)).hasValue("api-1");
        JsonNode body = new ObjectMapper().readTree(echo.body());
        assertThat(body.path("path").asText()).as("the /api prefix is stripped").isEqualTo("/echo");
        assertThat(echo.headers().firstValue("X-Fulcrum-Backend")).hasValue(backendHeader);
    }

    private HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
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
