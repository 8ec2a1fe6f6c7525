package dev.fulcrum.engine.sim;

import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.Lease;
import dev.fulcrum.engine.Outcome;
import dev.fulcrum.engine.DecisionTrace;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Explaining a pick (pressing Step) does not move the live pool's round-robin or smooth WRR position. */
class DecisionTraceSideEffectTest {
    private static Pool pool(String type) {
        Engine e = Engine.manual(EngineSettings.DEFAULT, SideBySide.simulatedClock(), RandomSource.seeded(5));
        Pool p = e.addPool(Engine.DEFAULT_POOL, StrategySpec.of(type));
        int port = 9001;
        for (String id : List.of("a", "b", "c")) {
            e.addBackend(Engine.DEFAULT_POOL, new BackendSpec(id, "http://127.0.0.1:" + port++, 1, null, false), false);
        }
        return p;
    }

    private static List<String> route(Pool p, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Lease l = p.pick(SimpleRequest.get("10.0.0.1", "/"));
            out.add(l.backend().id());
            l.release(Outcome.SUCCESS);
        }
        return out;
    }

    @Test
    void explainingAPickLeavesTheLivePoolsNextPicksAsTheyWere() {
        for (String type : List.of("round-robin", "smooth-weighted-round-robin")) {
            Pool untouched = pool(type);
            Pool explained = pool(type);
            List<String> expected = route(untouched, 6);

            // "Why this backend" > Step, once, before the real traffic
            DecisionTrace.explain(explained, SimpleRequest.get("10.0.0.1", "/"));

            assertThat(route(explained, 6)).as(type + ": real picks after one Step").isEqualTo(expected);
        }
    }
}
