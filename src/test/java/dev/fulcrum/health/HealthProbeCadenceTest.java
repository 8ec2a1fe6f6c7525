package dev.fulcrum.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.BackendState;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RawBackend;
import dev.fulcrum.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * With timeoutMs a multiple of intervalMs (here equal), a hung backend's probe is still out when the next round
 * starts; that round must probe it again all the same, or a hung backend would be probed every second interval
 * and go DOWN after about (2 x fall - 1) x interval + timeout instead of fall x interval + timeout.
 */
class HealthProbeCadenceTest {
    private final ManualClock clock = new ManualClock();
    private Engine engine;
    private HealthChecker checker;
    private RawBackend hung;

    @AfterEach
    void stop() throws Exception {
        if (checker != null) {
            checker.close();
        }
        if (hung != null) {
            hung.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void aHungBackendIsProbedEveryIntervalAndDownInTimeWhenTimeoutEqualsInterval() throws Exception {
        engine = Engine.start(EngineSettings.DEFAULT); // rise 2, fall 3
        engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.ROUND_ROBIN));
        hung = RawBackend.start(RawBackend.hung(""));
        engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec("hung", hung.url(), 1, null, false), false);
        HealthCheckSpec spec = new HealthCheckSpec(true, "/health", 400, 400, 200);
        checker = new HealthChecker(engine, spec, clock).start();
        ProbeRounds rounds = new ProbeRounds(engine, clock, checker).hung("hung", hung).runDue();
        long took = rounds.until(() -> engine.backends().get(0).state() == BackendState.DOWN, 10_000);
        assertThat(took).as("ms to DOWN").isLessThanOrEqualTo(spec.intervalMs() * engine.settings().fall()
                + spec.timeoutMs());
        rounds.advance(4000 - Math.min(4000, took));
        int probes = hung.accepted.get(); // rounds at 0, 400, ..., 4000: 11 of them (every other one would be 5 or 6)
        assertThat(probes).as("probes of a hung backend in 4 s at intervalMs 400").isGreaterThanOrEqualTo(8);
        assertThat(probes).as("one probe a round").isEqualTo(11);
    }

    @Test
    void aProbeMayBeOutOneRoundLongerThanItsTimeoutSpans() {
        assertThat(HealthChecker.overlap(400, 400, 3)).isEqualTo(2);
        assertThat(HealthChecker.overlap(1000, 500, 3)).isEqualTo(3);
        assertThat(HealthChecker.overlap(1000, 500, 2)).isEqualTo(2); // never more than fall
        assertThat(HealthChecker.overlap(300, 1000, 3)).isEqualTo(1);
        assertThat(HealthChecker.overlap(1300, 1000, 3)).isEqualTo(2);
    }
}
