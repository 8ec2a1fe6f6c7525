package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Outcome;
import dev.fulcrum.engine.Lease;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.breaker.BreakerSpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Round robin must keep rotating when the snapshot is rebuilt (slow start rebuilds it on every tick). */
class RoundRobinAcrossRebuildsTest {
    @Test
    void roundRobinKeepsRotatingWhileAnotherBackendRampsUp() {
        ManualClock clock = new ManualClock();
        EngineSettings settings = new EngineSettings(20_000, EngineSettings.OutlierSpec.DISABLED,
                BreakerSpec.DISABLED, 2, 3);
        Engine engine = Engine.manual(settings, clock, RandomSource.seeded(1));
        Pool pool = engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
        engine.addBackend("default", new BackendSpec("b", "http://127.0.0.1:9002", 1, null, false), false);
        engine.addBackend("default", new BackendSpec("c", "http://127.0.0.1:9003", 1, null, false), true);

        // 5 requests a second (one every 200 ms), the control tick running every 100 ms as in production
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 90; i++) {
            Lease l = pool.pick(SimpleRequest.get("10.0.0.1", "/"));
            counts.merge(l.backend().id(), 1, Integer::sum);
            l.release(Outcome.SUCCESS);
            clock.advanceMillis(100);
            engine.tick();
            clock.advanceMillis(100);
            engine.tick();
        }
        // round robin ignores weights: 30 each (before: a=90 while c ramped, every rebuild starting again at a)
        assertThat(counts).containsEntry("a", 30).containsEntry("b", 30).containsEntry("c", 30);
    }
}
