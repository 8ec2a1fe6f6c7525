package dev.fulcrum.engine;

import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.StrategySpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchTest {
    @Test
    void aBatchPublishesEachPoolOnceWithEveryChangeInIt() {
        Engine e = Engine.manual(EngineSettings.DEFAULT, new ManualClock(), RandomSource.seeded(1));
        e.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.CONSISTENT_HASH));
        for (int i = 0; i < 50; i++) {
            e.addBackend(Engine.DEFAULT_POOL, new BackendSpec("b" + i, "http://127.0.0.1:" + (20000 + i), 1, null, false), false);
        }
        Pool pool = e.pool(Engine.DEFAULT_POOL);
        List<PoolSnapshot> seen = new ArrayList<>();
        PoolSnapshot before = pool.snapshot();

        e.batch(() -> {
            for (int i = 0; i < 50; i++) {
                e.setWeight("b" + i, 3);
                seen.add(pool.snapshot()); // what a request would see meanwhile: the pool as it was
            }
        });

        // no rebuild in between (no half-applied pool), then one snapshot with every change
        assertThat(seen).allMatch(s -> s == before);
        assertThat(pool.snapshot()).isNotSameAs(before);
        assertThat(pool.snapshot().all()).allMatch(v -> v.weight() == 3);
    }

    @Test
    void aPoolAddedInABatchHasASnapshotAtOnce() {
        Engine e = Engine.manual(EngineSettings.DEFAULT, new ManualClock(), RandomSource.seeded(1));
        e.batch(() -> {
            e.addPool("api", StrategySpec.of(StrategySpec.ROUND_ROBIN));
            assertThat(e.pool("api").snapshot()).isNotNull(); // a request routed there must find one
            e.addBackend("api", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
        });
        assertThat(e.pool("api").snapshot().all()).extracting(BackendView::id).containsExactly("a");
    }
}
