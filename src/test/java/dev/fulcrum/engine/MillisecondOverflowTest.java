package dev.fulcrum.engine;

import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.StrategySpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.time.ManualClock;
import org.junit.jupiter.api.Test;

/**
 * Durations in ms become nanoseconds in the engine. A config could say circuitBreaker.slowCallMs 9223372036854775807
 * ("never slow"), which times 1,000,000 wrapped to a negative number: every call counted as slow and every breaker
 * opened; a huge baseEjectionMs made the ejection length negative, so nothing was ejected.
 */
class MillisecondOverflowTest {
    @Test
    void aConfigRefusesDurationsBeyondAboutTwentyFourDays() {
        assertThatThrownBy(() -> ConfigLoader.parse("""
                { "backends": [ { "id": "a", "url": "http://127.0.0.1:9001" } ],
                  "circuitBreaker": { "slowCallMs": 9223372036854775807 } }"""))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("circuitBreaker.slowCallMs: must be at most 2147483647 (about 24.8 days) (got: 9223372036854775807)");
        ConfigLoader.parse("""
                { "backends": [ { "id": "a", "url": "http://127.0.0.1:9001" } ],
                  "circuitBreaker": { "slowCallMs": 2147483647 } }""");
    }

    @Test
    void theEngineSaturatesAHugeSlowCallMsSoNoCallIsSlow() {
        ManualClock clock = new ManualClock();
        BreakerSpec never = new BreakerSpec(true, 20, 10, 50, Long.MAX_VALUE, 100, Long.MAX_VALUE, 3);
        Engine engine = Engine.manual(new EngineSettings(0, EngineSettings.OutlierSpec.DISABLED, never, 2, 3), clock,
                RandomSource.seeded(1));
        Pool pool = engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
        for (int i = 0; i < 10; i++) { // ten healthy 1 ms answers
            Lease l = pool.pick(SimpleRequest.get("10.0.0.1", "/"));
            assertThat(l).as("pick %d", i).isNotNull();
            clock.advanceMillis(1);
            l.release(Outcome.SUCCESS);
        }
        assertThat(engine.backends().get(0).breaker()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    void aHugeBaseEjectionMsStillEjectsForTheCappedTime() {
        ManualClock clock = new ManualClock();
        Engine engine = Engine.manual(new EngineSettings(0, new EngineSettings.OutlierSpec(true, 1, Long.MAX_VALUE, 100),
                BreakerSpec.DISABLED, 2, 3), clock, RandomSource.seeded(1));
        Pool pool = engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
        engine.addBackend("default", new BackendSpec("b", "http://127.0.0.1:9002", 1, null, false), false);
        Lease l = pool.tryLease("a");
        l.release(Outcome.CONNECT_FAILURE); // threshold 1: eject a, for at most 300 s
        assertThat(engine.backends().get(0).state()).isEqualTo(BackendState.EJECTED);
        clock.advanceMillis(299_000);
        engine.tick();
        assertThat(engine.backends().get(0).state()).isEqualTo(BackendState.EJECTED);
        clock.advanceMillis(2_000);
        engine.tick();
        assertThat(engine.backends().get(0).state()).isEqualTo(BackendState.UP);
    }
}
