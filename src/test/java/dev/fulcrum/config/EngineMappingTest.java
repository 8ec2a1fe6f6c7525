package dev.fulcrum.config;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.Router;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The config maps onto the engine's own values field by field. */
class EngineMappingTest {
    private final FulcrumConfig config = ConfigLoader.parse("""
            { "slowStartMs": 15000,
              "outlierDetection": { "enabled": false, "consecutiveFailures": 7, "baseEjectionMs": 1000,
                                    "maxEjectionPercent": 20 },
              "circuitBreaker": { "window": 30, "minimumCalls": 12, "failureRateThreshold": 40,
                                  "slowCallMs": 900, "slowCallRateThreshold": 80, "openMs": 4000, "halfOpenCalls": 2 },
              "healthCheck": { "rise": 4, "fall": 6 },
              "backends": [ { "id": "a", "url": "http://10.0.0.1:9001", "weight": 3, "maxInFlight": 8,
                              "backup": true } ],
              "demoBackends": [ { "id": "d", "port": 9101, "weight": 7, "latencyMs": 50, "errorRate": 0.1 } ],
              "pools": { "api": { "strategy": { "type": "least-requests" },
                                  "backends": [ { "id": "api-1", "url": "http://127.0.0.1:3000" } ] },
                         "v2": { "demoBackends": [ { "id": "v2-demo", "port": 9200 } ] } },
              "routes": [ { "pathPrefix": "/api", "pool": "api" },
                          { "pathPrefix": "/api/v2", "pool": "v2", "stripPrefix": true } ] }
            """);

    @Test
    void engineSettingsCarrySlowStartOutlierBreakerRiseAndFall() {
        assertThat(config.toEngineSettings()).isEqualTo(new EngineSettings(15000,
                new EngineSettings.OutlierSpec(false, 7, 1000, 20),
                new BreakerSpec(true, 30, 12, 40, 900, 80, 4000, 2), 4, 6));
    }

    @Test
    void theDefaultConfigMapsToTheEngineDefaults() {
        assertThat(FulcrumConfig.DEFAULT.toEngineSettings()).isEqualTo(EngineSettings.DEFAULT);
    }

    @Test
    void backendsAndDemoBackendsBecomeBackendSpecs() {
        assertThat(config.defaultPool().backendSpecs()).containsExactly(
                new BackendSpec("a", "http://10.0.0.1:9001", 3, 8, true),
                new BackendSpec("d", "http://127.0.0.1:9101", 7, null, false));
        assertThat(config.demoBackends().get(0).toSpec(40001))
                .isEqualTo(new BackendSpec("d", "http://127.0.0.1:40001", 7, null, false));
    }

    @Test
    void allPoolsListsDefaultFirstThenTheNamedPoolsInFileOrder() {
        assertThat(config.allPools()).containsOnlyKeys("default", "api", "v2");
        assertThat(List.copyOf(config.allPools().keySet())).containsExactly("default", "api", "v2");
        assertThat(config.allPools().get("api").strategy().type()).isEqualTo("least-requests");
        assertThat(config.allPools().get("v2").backendSpecs()).extracting(BackendSpec::url)
                .containsExactly("http://127.0.0.1:9200");
    }

    @Test
    void routesBecomeARouterThatPrefersTheLongestPrefix() {
        Router router = config.toRouter();

        assertThat(router.match("/api/v2/users")).isEqualTo(new Router.Route("/api/v2", "v2", true));
        assertThat(router.match("/api/users")).isEqualTo(new Router.Route("/api", "api", false));
        assertThat(router.match("/")).isNull();
    }

    @Test
    void portOverridesReplaceOnlyThePort() {
        FulcrumConfig moved = config.withProxyPort(0).withAdminPort(0);

        assertThat(moved.proxy().port()).isZero();
        assertThat(moved.admin().port()).isZero();
        assertThat(moved.proxy().host()).isEqualTo(config.proxy().host());
        assertThat(moved.withProxyPort(config.proxy().port()).withAdminPort(config.admin().port()))
                .isEqualTo(config);
    }
}
