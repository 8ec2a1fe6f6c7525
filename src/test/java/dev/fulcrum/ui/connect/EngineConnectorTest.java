package dev.fulcrum.ui.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.config.AdminConfig;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineConnectorTest {
    private static FulcrumConfig withToken(String token) {
        FulcrumConfig c = FulcrumConfig.of(StrategySpec.of(StrategySpec.ROUND_ROBIN), List.of(),
                List.of(new DemoBackendConfig("d1", 0, 1, 0, 0.0))).withProxyPort(0);
        return new FulcrumConfig(c.proxy(), new AdminConfig("127.0.0.1", 0, token), c.strategy(), c.backends(),
                c.demoBackends(), c.healthCheck(), c.outlierDetection(), c.circuitBreaker(), c.retries(), c.timeouts(),
                c.slowStartMs(), c.stickySession(), c.pools(), c.routes());
    }

    @Test
    void attachingToARemoteFulcrumShowsItsBackendsAndNamesIt() {
        try (RunningFulcrum f = RunningFulcrum.wholeApp(withToken("s3cret")).start()) {
            EngineConnector.Connection c = EngineConnector.attach(f.adminUrl(), "s3cret");
            try {
                assertThat(c.description()).isEqualTo("remote engine at " + f.adminUrl());
                assertThat(c.client().state().backends()).extracting(b -> b.id()).containsExactly("d1");
                // the remote engine's breaker thresholds (the Breakers tab said "not published by this engine")
                assertThat(c.breaker()).isEqualTo(f.app().currentConfig().circuitBreaker());
            } finally {
                c.close();
            }
        }
    }

    @Test
    void aWrongTokenFailsTheAttachWithTheAdminApisOwnMessage() {
        try (RunningFulcrum f = RunningFulcrum.wholeApp(withToken("s3cret")).start()) {
            assertThatThrownBy(() -> EngineConnector.attach(f.adminUrl(), "wrong"))
                    .isInstanceOf(EngineException.class).hasMessageContaining("Bearer");
        }
    }

    @Test
    void aMalformedHaproxyAddressIsRefusedWithTheExpectedForm() {
        assertThatThrownBy(() -> EngineConnector.attach("haproxy://nohost", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("haproxy://HOST:PORT");
    }
}
