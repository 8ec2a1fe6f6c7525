package dev.fulcrum.ui.breakers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState.BackendInfo;
import org.junit.jupiter.api.Test;

class BreakerCardTest {
    private static BackendInfo backend(String state, int timesEjected, long ejectedForMs) {
        return new BackendInfo("demo-a", "default", "http://127.0.0.1:1", 1, 1, state, "UP", null, 0, 0, 0, 0, 0, 0, 0,
                false, null, timesEjected, ejectedForMs);
    }

    @Test
    void aCardSaysWhyNoCallsReachItsBreaker() {
        // an ejected breaker sat at CLOSED, 30% failures, for 30 s: it looked frozen in front of an audience
        assertThat(BreakerCard.bypassedBecause(backend("EJECTED", 2, 29_100)))
                .isEqualTo("Ejected by outlier detection for 30 s more (2× so far): no calls reach the breaker until then.");
        assertThat(BreakerCard.bypassedBecause(backend("DOWN", 0, 0))).contains("health checks");
        assertThat(BreakerCard.bypassedBecause(backend("DRAINING", 0, 0))).startsWith("DRAINING");
        assertThat(BreakerCard.bypassedBecause(backend("UP", 0, 0))).isNull();
    }
}
