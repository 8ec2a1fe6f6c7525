package dev.fulcrum.admin;

import dev.fulcrum.admin.ExportFixturesForTest.Result;
import dev.fulcrum.config.BackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.HealthCheckConfig;
import dev.fulcrum.config.RouteConfig;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.strategy.StrategySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static dev.fulcrum.admin.ExportFixturesForTest.binary;
import static dev.fulcrum.admin.ExportFixturesForTest.engine;
import static dev.fulcrum.admin.ExportFixturesForTest.richConfig;
import static dev.fulcrum.admin.ExportFixturesForTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ConfigExportHaproxyTest {
    private Engine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.close();
        }
    }

    private String export(FulcrumConfig config, String pool) {
        if (engine != null) {
            engine.close();
        }
        engine = engine(config);
        engine.drain("b");
        return ConfigExport.export(config, engine, "haproxy", pool);
    }

    static List<StrategySpec> strategies() {
        return ExportFixturesForTest.everyStrategy();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("strategies")
    void haproxyAcceptsTheExportOfEveryStrategyWithoutWarnings(StrategySpec strategy, @TempDir Path dir)
            throws IOException {
        Path haproxy = binary("haproxy");
        assumeTrue(haproxy != null, "haproxy is not installed here (CI installs it)");
        String text = export(richConfig(strategy), null);
        Path cfg = Files.writeString(dir.resolve("haproxy.cfg"), text);

        Result r = run(List.of(haproxy.toString(), "-c", "-f", cfg.toString()), Duration.ofSeconds(20));

        assertThat(r.exitCode()).as("haproxy -c said:\n%s\non:\n%s", r.output(), text).isZero();
        assertThat(r.output()).as("haproxy -c on:\n%s", text).doesNotContain("[WARNING]", "[ALERT]");
    }

    @Test
    void haproxyAcceptsTheExportOfAConfigAtTheEdges(@TempDir Path dir) throws IOException {
        Path haproxy = binary("haproxy");
        assumeTrue(haproxy != null, "haproxy is not installed here (CI installs it)");
        String text = export(ExportFixturesForTest.edgeConfig(), null);
        Path cfg = Files.writeString(dir.resolve("haproxy.cfg"), text);

        Result r = run(List.of(haproxy.toString(), "-c", "-f", cfg.toString()), Duration.ofSeconds(20));

        assertThat(r.exitCode()).as("haproxy -c said:\n%s\non:\n%s", r.output(), text).isZero();
        assertThat(r.output()).as("haproxy -c on:\n%s", text).doesNotContain("[ALERT]");
        assertThat(text).contains("backend odd_pool.v2\n", "acl route_1 path_beg '/a b/'",
                "    server h localhost:9100 weight 2\n", "    server a 127.0.0.1:9001 weight 256\n",
                "    server b 127.0.0.1:9002 weight 0 disabled\n", "    retries 0\n", "bind 127.0.0.1:8080")
                .doesNotContain("option redispatch");
    }

    @Test
    void eachStrategyBecomesTheNearestBalanceAlgorithm() {
        assertThat(backendOf(StrategySpec.of(StrategySpec.ROUND_ROBIN))).contains("    balance roundrobin\n");
        assertThat(backendOf(StrategySpec.of(StrategySpec.SMOOTH_WRR))).contains("    balance roundrobin\n");
        assertThat(backendOf(StrategySpec.of(StrategySpec.LEAST_REQUESTS))).contains("    balance leastconn\n");
        assertThat(backendOf(StrategySpec.of(StrategySpec.RANDOM))).contains("    balance random(1)\n");
        assertThat(backendOf(StrategySpec.of(StrategySpec.WEIGHTED_RANDOM))).contains("    balance random(1)\n");
        assertThat(backendOf(StrategySpec.of(StrategySpec.POWER_OF_TWO))).contains("    balance random(2)\n");
        assertThat(backendOf(StrategySpec.of(StrategySpec.IP_HASH))).contains("    balance source\n")
                .doesNotContain("hash-type consistent");
        assertThat(backendOf(StrategySpec.of(StrategySpec.CONSISTENT_HASH)))
                .contains("    balance source\n    hash-type consistent\n").doesNotContain("hash-balance-factor");
        assertThat(backendOf(StrategySpec.of(StrategySpec.MAGLEV)))
                .contains("    balance source\n    hash-type consistent\n", "no equivalent: Maglev");
        assertThat(backendOf(StrategySpec.of(StrategySpec.FASTEST_RESPONSE)))
                .contains("    balance leastconn\n", "no equivalent: fastest-response");
        assertThat(backendOf(StrategySpec.of(StrategySpec.ADAPTIVE)))
                .contains("    balance leastconn\n", "agent-check");
    }

    @Test
    void hashingKeysBecomeHashBalanceWithTheBalanceFactor() {
        assertThat(backendOf(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "header:X-User-Id").with("balanceFactor", 1.25))).contains("    balance hdr(X-User-Id)\n    hash-type consistent\n"
                + "    hash-balance-factor 125\n");
        assertThat(backendOf(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "query:user"))).contains("    balance url_param user\n");
        assertThat(backendOf(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "cookie:sid"))).contains("    balance hash req.cook(sid)\n");
        assertThat(backendOf(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "path"))).contains("    balance uri path-only\n");
    }

    private String backendOf(StrategySpec s) {
        String text = export(richConfig(s), null);
        int start = text.indexOf("\nbackend default\n") + 1;
        return text.substring(start, text.indexOf("\n\n", start) + 1);
    }

    @Test
    void serversCarryWeightsChecksStatesCookiesAndSlowStart() {
        FulcrumConfig config = richConfig(StrategySpec.of(StrategySpec.SMOOTH_WRR));
        engine = engine(config);
        engine.drain("b");
        engine.setWeight("a", 7);

        String text = ConfigExport.export(config, engine, "haproxy", null);

        String check = " check inter 2s rise 2 fall 3 observe layer7 error-limit 5 on-error mark-down slowstart 10s";
        assertThat(text).contains(
                "    server a 127.0.0.1:9001 weight 7" + check + " cookie a\n",
                "    server b 127.0.0.1:9002 weight 1" + check + " cookie b disabled\n",
                "    server c 127.0.0.1:9003 weight 2" + check + " maxconn 10 cookie c\n",
                "    server spare 127.0.0.1:9004 weight 1" + check + " cookie spare backup\n",
                "    option httpchk GET /health\n    http-check expect status 200\n",
                "    cookie FULCRUM_STICKY insert indirect nocache maxlife 3600s\n",
                "    retries 2\n    option redispatch 1\n",
                "    timeout connect 3s\n    timeout server 30s\n",
                "    # stats socket ipv4@127.0.0.1:9999 level admin\n");
        assertThat(text).doesNotContain("\n    stats socket");
    }

    @Test
    void aDrainingServerGetsWeightZero() throws Exception {
        FulcrumConfig config = richConfig(StrategySpec.of(StrategySpec.SMOOTH_WRR));
        engine = engine(config);
        // a request in flight keeps the drained backend DRAINING
        var lease = engine.pool("default").tryLease("b");
        assertThat(lease).isNotNull();
        engine.drain("b");

        String text = ConfigExport.export(config, engine, "haproxy", null);
        lease.release(dev.fulcrum.engine.Outcome.SUCCESS);

        assertThat(text).contains("# b is DRAINING in Fulcrum: weight 0 is HAProxy's drain",
                "    server b 127.0.0.1:9002 weight 0 check");
    }

    @Test
    void weightsOverTheHaproxyMaximumAreScaledDown() {
        String text = export(richConfig(StrategySpec.of(StrategySpec.SMOOTH_WRR)), "api");

        assertThat(text).contains("weights scaled by 256/900",
                "server api-1 127.0.0.1:9011 weight 1 ", "server api-2 127.0.0.1:9012 weight 256 ");
    }

    @Test
    void routesAreDecidedBeforeThePrefixIsStripped(@TempDir Path dir) {
        String text = export(richConfig(StrategySpec.of(StrategySpec.SMOOTH_WRR)), null);

        assertThat(text).contains(
                "    acl route_0 path_beg /static/\n    acl route_1 path /api\n    acl route_1 path_beg /api/\n",
                "    http-request set-var(txn.fulcrum_route) int(0) if route_0\n"
                        + "    http-request set-var(txn.fulcrum_route) int(1) if route_1 !{ var(txn.fulcrum_route) -m found }\n",
                "    http-request replace-path '^/api(/|$)(.*)' '/\\2' if { var(txn.fulcrum_route) -m int 1 }\n",
                "    use_backend api if { var(txn.fulcrum_route) -m int 0 }\n"
                        + "    use_backend api if { var(txn.fulcrum_route) -m int 1 }\n"
                        + "    default_backend default\n");
    }

    @Test
    void withoutHealthChecksNoServerIsChecked() {
        FulcrumConfig rich = richConfig(StrategySpec.of(StrategySpec.LEAST_REQUESTS));
        FulcrumConfig off = new FulcrumConfig(rich.proxy(), rich.admin(), rich.strategy(),
                List.of(BackendConfig.of("a", "http://127.0.0.1:9001", 3), BackendConfig.of("b", "http://127.0.0.1:9002", 1)),
                List.of(), new HealthCheckConfig(false, "/health", 2000, 1000, 200, 2, 3), rich.outlierDetection(),
                rich.circuitBreaker(), rich.retries(), rich.timeouts(), 0, null, null,
                List.of(new RouteConfig("/x", "default", false)));

        String text = export(off, null);

        assertThat(text).contains("    server a 127.0.0.1:9001 weight 3\n",
                "no equivalent: outlier detection without health checks")
                .doesNotContain("httpchk", "cookie", "slowstart").doesNotContainPattern("server [^\\n]* check");
    }
}
