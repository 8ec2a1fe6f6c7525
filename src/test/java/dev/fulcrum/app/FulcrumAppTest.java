package dev.fulcrum.app;

import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.engine.EngineEvent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.ConfigWriter;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.HealthCheckConfig;
import dev.fulcrum.config.OutlierConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.config.RetryConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class FulcrumAppTest {
    private final HttpClient http = HttpClient.newHttpClient();

    private static FulcrumConfig onFreePorts(FulcrumConfig c) {
        Map<String, PoolConfig> pools = new LinkedHashMap<>();
        c.pools().forEach((name, p) -> pools.put(name, new PoolConfig(p.strategy(), p.backends(), freeDemoPorts(p.demoBackends()))));
        return c.withDefaultPool(new PoolConfig(c.strategy(), c.backends(), freeDemoPorts(c.demoBackends())))
                .withPools(pools).withProxyPort(0).withAdminPort(0);
    }

    private static List<DemoBackendConfig> freeDemoPorts(List<DemoBackendConfig> demos) {
        List<DemoBackendConfig> out = new ArrayList<>();
        for (DemoBackendConfig d : demos) {
            out.add(new DemoBackendConfig(d.id(), 0, d.weight(), d.latencyMs(), d.errorRate()));
        }
        return out;
    }

    @Test
    void tlsHttp2IsHttp2OnEveryListenerWithTlsOnOrOff() throws Exception {
        String json = """
                { "proxy": { "tls": { "enabled": %s %s } }, "backends": [ { "id": "a", "url": "http://127.0.0.1:9001" } ] }
                """;
        assertThat(ConfigSpecs.proxySettings(ConfigLoader.parse(json.formatted("false", ""))).http2()).isTrue();
        assertThat(ConfigSpecs.proxySettings(ConfigLoader.parse(json.formatted("true", ""))).http2()).isTrue();
        assertThat(ConfigSpecs.proxySettings(ConfigLoader.parse(json.formatted("false", ", \"http2\": false")))
                .http2()).isFalse();
        assertThat(ConfigSpecs.proxySettings(ConfigLoader.parse(json.formatted("true", ", \"http2\": false")))
                .http2()).isFalse();
    }

    @Test
    void theStickyKeyTakesTheConfiguredSecretSoACookieCannotBeRecomputedFromTheBackendsAlone() throws Exception {
        String json = """
                { "backends": [ { "id": "a", "url": "http://127.0.0.1:9001" } ],
                  "stickySession": { "enabled": true %s } }
                """;
        FulcrumConfig base = ConfigLoader.parse(json.formatted(""));
        FulcrumConfig secret = ConfigLoader.parse(json.formatted(", \"secret\": \"0123456789abcdef-one\""));
        FulcrumConfig other = ConfigLoader.parse(json.formatted(", \"secret\": \"0123456789abcdef-two\""));
        assertThat(ConfigSpecs.stickySecret(secret)).isNotEqualTo(ConfigSpecs.stickySecret(base)) // what a client can compute
                .isNotEqualTo(ConfigSpecs.stickySecret(other))
                .isEqualTo(ConfigSpecs.stickySecret(ConfigLoader.parse(ConfigWriter.toJson(secret)))); // another instance
    }

    static Stream<Path> samples() throws Exception {
        return Files.list(Path.of("samples")).filter(p -> p.toString().endsWith(".json")).sorted();
    }

    /** {@code --check-config}'s ok goes to System.out, where a test runner that holds it finds it. */
    @Test
    void checkSaysOkOnSystemOut() throws Exception {
        java.io.PrintStream before = System.out;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            assertThat(FulcrumCommand.check(samples().findFirst().orElseThrow())).isZero();
        } finally {
            System.setOut(before);
        }
        assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("ok" + System.lineSeparator());
    }

    /** Standard output is UTF-8 whatever System.out's own charset: a lesson check's arrows come out whole. */
    @Test
    void standardOutputIsUtf8ThroughSystemOut() {
        java.io.PrintStream before = System.out;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.US_ASCII));
        try {
            FulcrumCommand.stdout().print("canary=0 \u2192 canary=5");
        } finally {
            System.setOut(before);
        }
        assertThat(out.toByteArray())
                .isEqualTo("canary=0 \u2192 canary=5".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @MethodSource("samples")
    void everySampleStartsHeadlessAndAnswersItsAdminApi(Path sample) throws Exception {
        assertThat(FulcrumCommand.check(sample)).isZero();
        try (FulcrumApp app = FulcrumApp.start(onFreePorts(ConfigLoader.load(sample)), sample)) {
            assertThat(app.readyLine()).matches("fulcrum ready proxy=http://127\\.0\\.0\\.1:\\d+ admin=http://127\\.0\\.0\\.1:\\d+");
            HttpResponse<String> state = http.send(HttpRequest.newBuilder(URI.create(app.admin().url() + "/api/state")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(state.statusCode()).isEqualTo(200);
            assertThat(app.engine().backends()).isNotEmpty();
        }
    }

    @Test
    void aDemoBackendFailingEverythingOpensItsBreakerWhichHealsWhenItRecovers() throws Exception {
        FulcrumConfig base = FulcrumConfig.of(StrategySpec.of(StrategySpec.ROUND_ROBIN), List.of(),
                List.of(new DemoBackendConfig("good", 0, 1, 0, 0.0), new DemoBackendConfig("flaky", 0, 1, 0, 1.0)));
        FulcrumConfig cfg = new FulcrumConfig(base.proxy(), base.admin(), base.strategy(), base.backends(),
                base.demoBackends(), new HealthCheckConfig(false, "/health", 2000, 1000, 200, 2, 3),
                new OutlierConfig(false, 5, 30_000, 50), new BreakerConfig(true, 10, 5, 50, 2000, 100, 1500, 2),
                new RetryConfig(0, false), base.timeouts(), 0, base.stickySession(), Map.of(), List.of())
                .withProxyPort(0).withAdminPort(0);
        try (FulcrumApp app = FulcrumApp.start(cfg, null)) {
            List<EngineEvent> events = new CopyOnWriteArrayList<>();
            app.engine().subscribe(events::add);
            String url = app.proxy().url() + "/work";
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding());
                return breaker(app, "flaky").equals("OPEN");
            });
            // while OPEN every request goes to the good backend
            for (int i = 0; i < 10; i++) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.headers().firstValue("X-Fulcrum-Backend")).hasValue("good");
            }
            app.updateDemo("flaky", null, 0.0, null);
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding());
                return breaker(app, "flaky").equals("CLOSED");
            });
            // events go out just after the snapshot they describe: wait for the last one rather than race it
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(events.stream()
                    .filter(e -> e.type().equals("breaker")).map(e -> e.from() + ">" + e.to()))
                    .containsSubsequence("CLOSED>OPEN", "OPEN>HALF_OPEN", "HALF_OPEN>CLOSED"));
        }
    }

    private static String breaker(FulcrumApp app, String id) {
        for (BackendView v : app.engine().backends()) {
            if (v.id().equals(id)) {
                return v.breaker().name();
            }
        }
        return "missing";
    }

    @Test
    void applyingAConfigTellsOnlyTheWeightsThatChanged() {
        FulcrumConfig cfg = FulcrumConfig.of(StrategySpec.of(StrategySpec.ROUND_ROBIN), List.of(),
                List.of(new DemoBackendConfig("a", 0, 1, 0, 0.0), new DemoBackendConfig("b", 0, 2, 0, 0.0)))
                .withProxyPort(0).withAdminPort(0);
        try (FulcrumApp app = FulcrumApp.start(cfg, null)) {
            List<EngineEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
            app.engine().subscribe(events::add);
            assertThat(app.apply(cfg)).isEmpty();
            FulcrumConfig reweighted = FulcrumConfig.of(StrategySpec.of(StrategySpec.ROUND_ROBIN), List.of(),
                    List.of(new DemoBackendConfig("a", 0, 1, 0, 0.0), new DemoBackendConfig("b", 0, 5, 0, 0.0)))
                    .withProxyPort(0).withAdminPort(0);
            assertThat(app.apply(reweighted)).isEmpty();
            await().atMost(java.time.Duration.ofSeconds(5))
                    .until(() -> events.stream().filter(e -> e.type().equals("config")).count() == 2);
            // only a weight that changed is announced: no "a 1->1", no "b 2->2"
            assertThat(events).filteredOn(e -> e.type().equals("weight"))
                    .extracting(e -> e.backend() + " " + e.from() + "->" + e.to()).containsExactly("b 2->5");
        }
    }

    @Test
    void aPortInUseIsNamedWithItsField() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            FulcrumConfig cfg = FulcrumConfig.of(StrategySpec.of(StrategySpec.ROUND_ROBIN), List.of(),
                    List.of(new DemoBackendConfig("d", 0, 1, 0, 0.0))).withProxyPort(0).withAdminPort(taken.getLocalPort());
            // the listener and the port are named, not just "java.net.BindException: Address already in use"
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> FulcrumApp.start(cfg, null).close())
                    .hasMessageStartingWith("admin.port: cannot listen on 127.0.0.1:" + taken.getLocalPort() + " (");
        }
    }

    @Test
    void portsGivenOnTheCommandLineAreCheckedAsIfWrittenInTheFile(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        // a config error (exit 2, one line per problem), not a failed start
        Path file = java.nio.file.Files.writeString(dir.resolve("c.json"),
                "{\"backends\": [{\"id\": \"a\", \"url\": \"http://127.0.0.1:9001\"}]}");
        for (String[] args : new String[][] {{"--proxy-port", "99999"}, {"--proxy-port", "27381", "--admin-port", "27381"}}) {
            FulcrumCommand cmd = new FulcrumCommand(null);
            String[] all = java.util.stream.Stream.concat(java.util.stream.Stream.of("--headless", "--config", file.toString()),
                    java.util.Arrays.stream(args)).toArray(String[]::new);
            new picocli.CommandLine(cmd).parseArgs(all);
            org.assertj.core.api.Assertions.assertThatThrownBy(cmd::loadConfig)
                    .isInstanceOf(dev.fulcrum.config.ConfigException.class)
                    .satisfies(e -> assertThat(((dev.fulcrum.config.ConfigException) e).problems().get(0).describe())
                            .isIn("proxy.port: must be between 0 and 65535 (got: 99999)",
                                    "admin.port: port already used by proxy.port (got: 27381)"));
        }
    }
}
