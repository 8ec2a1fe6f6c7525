package dev.fulcrum.config;

import dev.fulcrum.engine.strategy.StrategySpec;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The defaults are docs/REFERENCE.md §2.1's, written out here literally so that a changed constant fails. */
class ConfigDefaultsTest {
    private static final String MINIMAL = """
            { "demoBackends": [ { "id": "demo-a", "port": 9101 } ] }
            """;

    /** The shape block of the external contract (docs/REFERENCE.md §2.1 extends it), verbatim. */
    private static final String REFERENCE_SHAPE = """
            {
              "proxy":  { "host": "127.0.0.1", "port": 8080, "maxHeaderBytes": 8192, "drainTimeoutMs": 30000,
                          "accessLog": null },
              "admin":  { "host": "127.0.0.1", "port": 8081, "token": null },
              "strategy": { "type": "smooth-weighted-round-robin" },
              "backends": [ { "id": "a", "url": "http://127.0.0.1:9001", "weight": 1, "maxInFlight": null, "backup": false } ],
              "demoBackends": [ { "id": "demo-a", "port": 9101, "weight": 1, "latencyMs": 5, "errorRate": 0.0 } ],
              "healthCheck": { "enabled": true, "path": "/health", "intervalMs": 2000, "timeoutMs": 1000,
                               "expectedStatus": 200, "rise": 2, "fall": 3 },
              "outlierDetection": { "enabled": true, "consecutiveFailures": 5, "baseEjectionMs": 30000,
                                    "maxEjectionPercent": 50 },
              "circuitBreaker": { "enabled": true, "window": 20, "minimumCalls": 10, "failureRateThreshold": 50,
                                  "slowCallMs": 2000, "slowCallRateThreshold": 100, "openMs": 10000, "halfOpenCalls": 3 },
              "retries":  { "maxRetries": 2, "retryNonIdempotent": false },
              "timeouts": { "connectMs": 3000, "readMs": 30000, "idleMs": 60000, "requestHeaderMs": 10000 },
              "slowStartMs": 0,
              "stickySession": { "enabled": false, "cookie": "FULCRUM_STICKY", "ttlSeconds": 3600 },
              "pools":  { "api": { "strategy": { "type": "least-requests" },
                                   "backends": [ { "id": "api-1", "url": "http://127.0.0.1:3000" } ] } },
              "routes": [ { "pathPrefix": "/api", "pool": "api", "stripPrefix": false } ]
            }
            """;

    @Test
    void aConfigWithOnlyADemoBackendTakesEveryContractDefault() {
        FulcrumConfig c = ConfigLoader.parse(MINIMAL);

        assertThat(c.proxy()).isEqualTo(new ProxyConfig("127.0.0.1", 8080, 8192, 30000, null, true,
                new TlsConfig(false, 8443, null, null, true), 0));
        assertThat(c.admin()).isEqualTo(new AdminConfig("127.0.0.1", 8081, null));
        assertThat(c.strategy().type()).isEqualTo("smooth-weighted-round-robin");
        assertThat(c.strategy()).isEqualTo(StrategySpec.bare("smooth-weighted-round-robin"));
        assertThat(c.backends()).isEmpty();
        assertThat(c.demoBackends()).containsExactly(new DemoBackendConfig("demo-a", 9101, 1, 5, 0.0));
        assertThat(c.healthCheck()).isEqualTo(new HealthCheckConfig(true, "/health", 2000, 1000, 200, 2, 3));
        assertThat(c.outlierDetection()).isEqualTo(new OutlierConfig(true, 5, 30000, 50));
        assertThat(c.circuitBreaker()).isEqualTo(new BreakerConfig(true, 20, 10, 50, 2000, 100, 10000, 3));
        assertThat(c.retries()).isEqualTo(new RetryConfig(2, false));
        assertThat(c.timeouts()).isEqualTo(new TimeoutConfig(3000, 30000, 60000, 10000));
        assertThat(c.slowStartMs()).isZero();
        assertThat(c.stickySession()).isEqualTo(new StickyConfig(false, "FULCRUM_STICKY", 3600, null));
        assertThat(c.pools()).isEmpty();
        assertThat(c.routes()).isEmpty();
    }

    @Test
    void aBackendEntryTakesWeightOneNoCapAndNoBackupByDefault() {
        FulcrumConfig c = ConfigLoader.parse("""
                { "backends": [ { "id": "a", "url": "http://127.0.0.1:9001" } ],
                  "routes": [ { "pathPrefix": "/x", "pool": "default" } ] }
                """);

        assertThat(c.backends()).containsExactly(new BackendConfig("a", "http://127.0.0.1:9001", 1, null, false));
        assertThat(c.routes()).containsExactly(new RouteConfig("/x", "default", false));
    }

    @Test
    void aNamedPoolWithoutAStrategyUsesSmoothWeightedRoundRobin() {
        FulcrumConfig c = ConfigLoader.parse("""
                { "pools": { "p": { "backends": [ { "id": "a", "url": "http://127.0.0.1:9001" } ] } } }
                """);

        assertThat(c.pools().get("p").strategy().type()).isEqualTo("smooth-weighted-round-robin");
        assertThat(c.pools().get("p").demoBackends()).isEmpty();
    }

    @Test
    void theContractShapeBlockLoadsAsWrittenAndEqualsTheDefaults() {
        assertIsTheDefaults(ConfigLoader.parse(REFERENCE_SHAPE));
    }

    @Test
    void theShapeBlockOfTheReferenceInTheRepositoryLoadsAsWrittenAndEqualsTheDefaults() throws Exception {
        String doc = Files.readString(Path.of("docs/REFERENCE.md"));
        int section = doc.indexOf("### 2.1 Shape");
        int start = doc.indexOf("```json\n", section) + "```json\n".length();
        String block = doc.substring(start, doc.indexOf("```", start));

        FulcrumConfig c = ConfigLoader.parse(block);

        assertIsTheDefaults(c);
        assertThat(c.proxy()).isEqualTo(FulcrumConfig.DEFAULT.proxy());
    }

    private static void assertIsTheDefaults(FulcrumConfig c) {
        FulcrumConfig minimal = ConfigLoader.parse(MINIMAL);

        assertThat(c.proxy()).isEqualTo(minimal.proxy());
        assertThat(c.admin()).isEqualTo(minimal.admin());
        assertThat(c.strategy()).isEqualTo(minimal.strategy());
        assertThat(c.demoBackends()).isEqualTo(minimal.demoBackends());
        assertThat(c.healthCheck()).isEqualTo(minimal.healthCheck());
        assertThat(c.outlierDetection()).isEqualTo(minimal.outlierDetection());
        assertThat(c.circuitBreaker()).isEqualTo(minimal.circuitBreaker());
        assertThat(c.retries()).isEqualTo(minimal.retries());
        assertThat(c.timeouts()).isEqualTo(minimal.timeouts());
        assertThat(c.stickySession()).isEqualTo(minimal.stickySession());
        assertThat(c.backends()).containsExactly(BackendConfig.of("a", "http://127.0.0.1:9001", 1));
        assertThat(c.pools()).containsOnlyKeys("api");
        assertThat(c.pools().get("api")).isEqualTo(new PoolConfig(StrategySpec.of("least-requests"),
                List.of(BackendConfig.of("api-1", "http://127.0.0.1:3000", 1)), List.of()));
        assertThat(c.routes()).containsExactly(new RouteConfig("/api", "api", false));
    }

    @Test
    void theDefaultConstantsAreTheContractValues() {
        assertThat(FulcrumConfig.DEFAULT.proxy()).isEqualTo(ConfigLoader.parse(MINIMAL).proxy());
        assertThat(FulcrumConfig.DEFAULT.withDefaultPool(new PoolConfig(null,
                List.of(), List.of(new DemoBackendConfig("demo-a", 9101, 1, 5, 0.0)))))
                .isEqualTo(ConfigLoader.parse(MINIMAL));
    }

    @Test
    void strategiesGetTheDefaultsOfTheirTypeFromContractSection2_2() {
        FulcrumConfig hash = ConfigLoader.parse("""
                { "strategy": { "type": "consistent-hash" }, "demoBackends": [ { "id": "d", "port": 9101 } ] }
                """);
        FulcrumConfig maglev = ConfigLoader.parse("""
                { "strategy": { "type": "maglev" }, "demoBackends": [ { "id": "d", "port": 9101 } ] }
                """);
        FulcrumConfig adaptive = ConfigLoader.parse("""
                { "strategy": { "type": "adaptive" }, "demoBackends": [ { "id": "d", "port": 9101 } ] }
                """);

        assertThat(hash.strategy().key()).isEqualTo("ip");
        assertThat(hash.strategy().integer("virtualNodes")).isEqualTo(160);
        assertThat(hash.strategy().number("balanceFactor")).isNull();
        assertThat(maglev.strategy().integer("tableSize")).isEqualTo(65537);
        assertThat(adaptive.strategy().numberMap("weights")).isEqualTo(Map.of("cpu", 0.5, "latency", 0.3, "inflight", 0.2));
        assertThat(adaptive.strategy().longValue("staleAfterMs")).isEqualTo(10000L);
    }
}
