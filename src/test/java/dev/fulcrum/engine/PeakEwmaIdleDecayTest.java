package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.strategy.StrategySpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Peak EWMA (Finagle, Linkerd) decays the estimate towards 0 with time on every read, so a backend that had one
 * slow answer is tried again after about decayMs. Here an estimate only moves when a new sample arrives, and a
 * backend that is never picked never gets one: one slow response starves it forever.
 */
class PeakEwmaIdleDecayTest {
    @Test
    void aBackendWithOneSlowAnswerIsTriedAgainLongAfterDecayMs() {
        ManualClock clock = new ManualClock();
        Engine engine = Engine.manual(new EngineSettings(0, EngineSettings.OutlierSpec.DISABLED,
                BreakerSpec.DISABLED, 2, 3), clock, RandomSource.seeded(1));
        Pool pool = engine.addPool("default", StrategySpec.bare(StrategySpec.FASTEST_RESPONSE).with("decayMs", 1000L));
        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
        engine.addBackend("default", new BackendSpec("b", "http://127.0.0.1:9002", 1, null, false), false);

        // a answers once in 2 s (a GC pause), b in 10 ms
        Lease first = pool.tryLease("a");
        clock.advanceMillis(2000);
        first.release(Outcome.SUCCESS);
        Lease second = pool.tryLease("b");
        clock.advanceMillis(10);
        second.release(Outcome.SUCCESS);

        // then one request at a time for ten minutes, 600 x decayMs
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 6000; i++) {
            Lease l = pool.pick(SimpleRequest.get("10.0.0.1", "/"));
            counts.merge(l.backend().id(), 1, Integer::sum);
            clock.advanceMillis(10);
            l.release(Outcome.SUCCESS);
            clock.advanceMillis(90);
        }
        assertThat(counts.getOrDefault("a", 0)).isPositive(); // before: 0, b took all 6000
    }
}
