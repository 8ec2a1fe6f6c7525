package dev.fulcrum.ui.breakers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.engine.breaker.CircuitBreaker.Call;
import dev.fulcrum.time.ManualClock;
import org.junit.jupiter.api.Test;

/** What the breaker cards read from the engine: the window that tripped it, and the half-open probe slots. */
class BreakerFiguresTest {
    @Test
    void theBreakerKeepsTheWindowThatTrippedItAndCountsItsProbes() {
        // given a breaker of window 20, at least 10 calls, opening at 50% failures, 3 probes
        ManualClock clock = new ManualClock();
        CircuitBreaker b = new CircuitBreaker(BreakerConfig.DEFAULT.toSpec(), clock, null);
        assertThat(b.tripped()).isNull();
        // when 4 calls succeed and then 6 fail: the 10th call makes 60% and opens it
        for (int i = 0; i < 4; i++) {
            b.record(Call.SUCCESS);
        }
        for (int i = 0; i < 6; i++) {
            b.record(Call.FAILURE);
        }
        // then, while OPEN, the window it tripped on is kept (the live one is empty)
        assertThat(b.state()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(b.snapshot().failureRate()).isZero();
        assertThat(b.tripped().failureRate()).isEqualTo(60.0);
        assertThat(b.tripped().recent()).hasSize(10);
        // and once HALF_OPEN the probe slots fill as probes are admitted and come back
        clock.advanceMillis(BreakerConfig.DEFAULT.openMs());
        b.advance();
        assertThat(b.probes()).isEqualTo(new CircuitBreaker.Probes(0, 0, 3));
        long ticket = b.acquire();
        b.acquire();
        assertThat(b.probes()).isEqualTo(new CircuitBreaker.Probes(2, 0, 3));
        b.record(Call.SUCCESS, ticket);
        assertThat(b.probes()).isEqualTo(new CircuitBreaker.Probes(2, 1, 3));
    }
}
