package dev.fulcrum.admin;

import dev.fulcrum.admin.ExportFixturesForTest.Result;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.HealthCheckConfig;
import dev.fulcrum.config.OutlierConfig;
import dev.fulcrum.config.RetryConfig;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.engine.strategy.StrategySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static dev.fulcrum.admin.ExportFixturesForTest.binary;
import static dev.fulcrum.admin.ExportFixturesForTest.engine;
import static dev.fulcrum.admin.ExportFixturesForTest.nginxConf;
import static dev.fulcrum.admin.ExportFixturesForTest.nginxTest;
import static dev.fulcrum.admin.ExportFixturesForTest.richConfig;
import static dev.fulcrum.admin.ExportFixturesForTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ConfigExportNginxTest {
    private Engine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.close();
        }
    }

    private String export(FulcrumConfig config, String pool) {
        engine = engine(config);
        engine.drain("b");
        return ConfigExport.export(config, engine, "nginx", pool);
    }

    static List<StrategySpec> strategies() {
        return ExportFixturesForTest.everyStrategy();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("strategies")
    void nginxAcceptsTheExportOfEveryStrategy(StrategySpec strategy, @TempDir Path dir) {
        Path nginx = binary("nginx");
        assumeTrue(nginx != null, "nginx is not installed here (CI installs it)");
        String text = export(richConfig(strategy), null);

        Result r = run(nginxTest(nginx, nginxConf(dir, text)), Duration.ofSeconds(20));

        assertThat(r.exitCode()).as("nginx -t said:\n%s\non:\n%s", r.output(), text).isZero();
        assertThat(r.output()).as("nginx -t warnings").doesNotContain("[warn]", "[emerg]");
    }

    @Test
    void nginxAcceptsTheExportOfAConfigAtTheEdges(@TempDir Path dir) {
        Path nginx = binary("nginx");
        assumeTrue(nginx != null, "nginx is not installed here (CI installs it)");
        String text = export(ExportFixturesForTest.edgeConfig(), null);

        Result r = run(nginxTest(nginx, nginxConf(dir, text)), Duration.ofSeconds(20));

        assertThat(r.exitCode()).as("nginx -t said:\n%s\non:\n%s", r.output(), text).isZero();
        assertThat(text).contains("upstream odd_pool.v2 {", "server 127.0.0.1:1 down;", "server localhost:9100",
                "location \"/a b/\" {\n        proxy_pass http://odd_pool.v2/;",
                "location / {\n        proxy_pass http://x;", "listen 127.0.0.1:8080;", "OS-chosen port",
                "server 127.0.0.1:9002 max_fails=0 down;  # backend b", "proxy_set_header Host $proxy_host;",
                "listen 8443 ssl", "proxy_next_upstream off;");
        // "/" is routed, so there is exactly one location / block
        assertThat(text.split("location / \\{", -1)).hasSize(2);
    }

    @Test
    void poolsWhoseNamesDifferOnlyInPunctuationGetDistinctUpstreamsAndHashVariables(@TempDir Path dir) {
        Path nginx = binary("nginx");
        assumeTrue(nginx != null, "nginx is not installed here (CI installs it)");
        StrategySpec hash = StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "header:X-Id");
        FulcrumConfig rich = richConfig(hash);
        java.util.Map<String, dev.fulcrum.config.PoolConfig> pools = new java.util.LinkedHashMap<>();
        int port = 9100;
        for (String name : List.of("a-b", "a_b", "a b")) {
            pools.put(name, new dev.fulcrum.config.PoolConfig(hash, List.of(dev.fulcrum.config.BackendConfig.of(
                    "m" + port, "http://127.0.0.1:" + port, 1)), List.of()));
            port++;
        }
        String text = export(rich.withPools(pools), null);

        Result r = run(nginxTest(nginx, nginxConf(dir, text)), Duration.ofSeconds(20));

        assertThat(r.exitCode()).as("nginx -t said:\n%s\non:\n%s", r.output(), text).isZero();
        assertThat(text).contains("upstream a-b {", "upstream a_b {", "upstream a_b_2 {",
                "hash $fulcrum_hash_a_2d_b consistent;", "hash $fulcrum_hash_a_b consistent;",
                "hash $fulcrum_hash_a_b_2 consistent;");
    }

    @Test
    void h2cOnThePlainPortIsNamedWithNginxsWayToIt() throws Exception {
        String json = """
                { %s "backends": [ { "id": "a", "url": "http://127.0.0.1:9001" },
                                   { "id": "b", "url": "http://127.0.0.1:9002" } ] }
                """;
        assertThat(export(dev.fulcrum.config.ConfigLoader.parse(json.formatted("")), null))
                .contains("# h2c: Fulcrum's plain port takes HTTP/2 without TLS too", "\"http2 on;\" in the server block");
        engine.close();
        assertThat(export(dev.fulcrum.config.ConfigLoader.parse(
                json.formatted("\"proxy\": { \"tls\": { \"http2\": false } },")), null)).doesNotContain("h2c");
    }

    @Test
    void eachStrategyBecomesTheNearestNginxMethod() {
        assertThat(upstreamOf(StrategySpec.of(StrategySpec.LEAST_REQUESTS))).contains("    least_conn;\n");
        assertThat(upstreamOf(StrategySpec.of(StrategySpec.IP_HASH))).contains("    ip_hash;\n");
        assertThat(upstreamOf(StrategySpec.of(StrategySpec.POWER_OF_TWO))).contains("    random two least_conn;\n");
        assertThat(upstreamOf(StrategySpec.of(StrategySpec.WEIGHTED_RANDOM))).contains("    random;\n");
        assertThat(upstreamOf(StrategySpec.of(StrategySpec.CONSISTENT_HASH)))
                .contains("    hash $remote_addr consistent;\n");
        assertThat(upstreamOf(StrategySpec.of(StrategySpec.FASTEST_RESPONSE)))
                .contains("    least_conn;\n", "no equivalent: fastest-response");
        assertThat(upstreamOf(StrategySpec.of(StrategySpec.ADAPTIVE))).contains("    least_conn;\n", "no equivalent: adaptive");
        assertThat(upstreamOf(StrategySpec.of(StrategySpec.MAGLEV)))
                .contains("    hash $remote_addr consistent;\n", "no equivalent: Maglev");
        String swrr = upstreamOf(StrategySpec.of(StrategySpec.SMOOTH_WRR));
        assertThat(swrr).contains("IS smooth weighted round robin")
                .doesNotContain("least_conn", "hash ", "random", "ip_hash");
    }

    /** The upstream block of the default pool for a strategy. */
    private String upstreamOf(StrategySpec s) {
        String text = export(richConfig(s), null);
        engine.close();
        engine = null;
        int start = text.indexOf("upstream default {");
        return text.substring(start, text.indexOf("\n}\n", start) + 3);
    }

    @Test
    void hashingKeysBecomeNginxVariablesThatFallBackToTheClientAddress() {
        String header = export(richConfig(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "header:X-User-Id").with("balanceFactor", 1.25)), null);
        assertThat(header).contains("map $http_x_user_id $fulcrum_hash_default {\n    \"\"      $remote_addr;\n"
                + "    default $http_x_user_id;\n}", "hash $fulcrum_hash_default consistent;",
                "no equivalent: bounded loads (balanceFactor 1.25)");
        engine.close();
        assertThat(export(richConfig(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "cookie:sid")), null)).contains("map $cookie_sid $fulcrum_hash_default");
        engine.close();
        assertThat(export(richConfig(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "query:user")), null)).contains("map $arg_user $fulcrum_hash_default");
        engine.close();
        assertThat(export(richConfig(StrategySpec.bare(StrategySpec.MAGLEV).with("key", "path")), null)).contains("hash $uri consistent;");
    }

    @Test
    void serversCarryLiveWeightsStatesCapsBackupsAndFailureAccounting() {
        FulcrumConfig config = richConfig(StrategySpec.of(StrategySpec.LEAST_REQUESTS));
        engine = engine(config);
        engine.drain("b");
        engine.setWeight("a", 7); // live weight wins over the config's 3

        String text = ConfigExport.export(config, engine, "nginx", null);

        assertThat(text).contains(
                "server 127.0.0.1:9001 weight=7 max_fails=5 fail_timeout=30s;  # backend a\n",
                "server 127.0.0.1:9002 max_fails=5 fail_timeout=30s down;  # backend b: DRAINED in Fulcrum",
                "server 127.0.0.1:9003 weight=2 max_fails=5 fail_timeout=30s max_conns=10;",
                "server 127.0.0.1:9004 max_fails=5 fail_timeout=30s backup;",
                "    least_conn;\n    keepalive 64;\n");
        assertThat(text).contains("slow_start=10s\" is nginx Plus only", "sticky session cookie FULCRUM_STICKY",
                "hash $cookie_FULCRUM_STICKY consistent", "no equivalent: circuit breaker",
                "no equivalent: active health check GET /health");
    }

    @Test
    void backupsAreLeftOutWhereNginxRefusesThem() {
        String text = export(richConfig(StrategySpec.of(StrategySpec.IP_HASH)), null);

        assertThat(text).contains("nginx refuses backup with ip_hash; backup spare left out:\n"
                + "    # server 127.0.0.1:9004 max_fails=5 fail_timeout=30s backup;");
    }

    @Test
    void roundRobinIgnoresWeightsAsFulcrumDoes() {
        String text = export(richConfig(StrategySpec.of(StrategySpec.ROUND_ROBIN)), null);

        assertThat(text).contains("server 127.0.0.1:9001 max_fails=5");
        String defaultUpstream = text.substring(text.indexOf("upstream default {"), text.indexOf("upstream api {"));
        assertThat(defaultUpstream).doesNotContainPattern("server [^\n]*weight=");
    }

    @Test
    void routesBecomeLocationsAndTheServerBlockProxiesWithKeepAliveAndRetries() {
        String text = export(richConfig(StrategySpec.of(StrategySpec.SMOOTH_WRR)), null);

        assertThat(text).contains(
                "listen 127.0.0.1:8080;",
                "location = /api {\n        proxy_pass http://api/;\n    }",
                "location /api/ {\n        proxy_pass http://api/;\n    }",
                "location /static/ {\n        proxy_pass http://api;\n    }",
                "location / {\n        proxy_pass http://default;\n    }",
                "proxy_http_version 1.1;", "proxy_set_header Connection $fulcrum_connection;",
                "proxy_set_header Host $host;", "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
                "proxy_next_upstream error timeout;", "proxy_next_upstream_tries 3;",
                "proxy_connect_timeout 3s;", "proxy_read_timeout 30s;");
        // longer prefixes never lose to shorter ones: nginx picks the longest location itself
        assertThat(text.indexOf("upstream default")).isLessThan(text.indexOf("upstream api"));
    }

    @Test
    void onePoolExportsOnlyThatPoolForEveryPath() {
        String text = export(richConfig(StrategySpec.of(StrategySpec.SMOOTH_WRR)), "api");

        assertThat(text).contains("upstream api {", "location / {\n        proxy_pass http://api;\n    }")
                .doesNotContain("upstream default", "location /api/", "location /static/");
    }

    @Test
    void policiesThatAreOffAreWrittenOff() {
        FulcrumConfig rich = richConfig(StrategySpec.of(StrategySpec.LEAST_REQUESTS));
        FulcrumConfig off = new FulcrumConfig(rich.proxy(), rich.admin(), rich.strategy(), rich.backends(),
                rich.demoBackends(), new HealthCheckConfig(false, "/health", 2000, 1000, 200, 2, 3),
                new OutlierConfig(false, 5, 30_000, 50), rich.circuitBreaker(), new RetryConfig(0, false),
                rich.timeouts(), 0, rich.stickySession(), rich.pools(), rich.routes());

        String text = export(off, null);

        assertThat(text).contains("server 127.0.0.1:9001 weight=3 max_fails=0;", "proxy_next_upstream off;")
                .doesNotContain("health check GET", "slow_start", "proxy_next_upstream_tries");
    }

    @Test
    void unknownFormatsAndPoolsAreRefusedNamingTheValue() {
        engine = engine(richConfig(StrategySpec.of(StrategySpec.SMOOTH_WRR)));
        FulcrumConfig c = richConfig(StrategySpec.of(StrategySpec.SMOOTH_WRR));

        assertThatThrownBy(() -> ConfigExport.export(c, engine, "caddy", null)).isInstanceOf(EngineException.class)
                .hasMessage("format: one of nginx, haproxy, envoy (got: caddy)")
                .satisfies(e -> assertThat(((EngineException) e).status()).isEqualTo(400));
        assertThatThrownBy(() -> ConfigExport.export(c, engine, "nginx", "nope")).isInstanceOf(EngineException.class)
                .hasMessage("pool: no such pool (got: nope)")
                .satisfies(e -> assertThat(((EngineException) e).status()).isEqualTo(404));
    }
}
