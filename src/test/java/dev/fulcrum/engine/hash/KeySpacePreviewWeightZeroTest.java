package dev.fulcrum.engine.hash;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.KeySpacePreview;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.StrategySpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fulcrum.time.ManualClock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * POST /api/ring/preview {"weights":{"c":1}} for a backend the operator set to weight 0 must show what
 * PUT /api/backends/c/weight {"weight":1} would do. The preview only looks at the current candidates, so a
 * weight-0 backend is silently ignored (and {"add":[{"id":"c"}]} is refused with 409 because c exists).
 */
class KeySpacePreviewWeightZeroTest {
    @Test
    void previewingAWeightZeroBackendBackAtWeightOneShowsItsKeysMoving() {
        Engine engine = Engine.manual(EngineSettings.DEFAULT, new ManualClock(), RandomSource.seeded(1));
        Pool pool = engine.addPool("default", StrategySpec.of(StrategySpec.CONSISTENT_HASH));
        for (String id : List.of("a", "b", "c")) {
            engine.addBackend("default", new BackendSpec(id, "http://127.0.0.1:9001", 1, null, false), false);
        }
        engine.setWeight("c", 0);

        KeySpace.Preview p = KeySpacePreview.preview(pool, List.of(), Map.of(), Map.of("c", 1));

        engine.setWeight("c", 1); // what actually happens
        Map<String, Double> actual = pool.snapshot().primary().keySpace().share();
        assertThat(p.share()).containsOnlyKeys("a", "b", "c"); // before: {a, b}
        assertThat(p.movedFraction()).isCloseTo(actual.get("c"), within(1e-9)); // before: 0.0
    }

    @Test
    void unknownIdsAreNotFoundNotSilentlyIgnored() {
        Engine engine = Engine.manual(EngineSettings.DEFAULT, new ManualClock(), RandomSource.seeded(1));
        Pool pool = engine.addPool("default", StrategySpec.of(StrategySpec.CONSISTENT_HASH));
        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> KeySpacePreview.preview(pool, List.of("zzz"), Map.of(), Map.of()))
                .isInstanceOf(EngineException.class).hasMessage("remove: no such backend in pool default (got: zzz)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> KeySpacePreview.preview(pool, List.of(), Map.of(), Map.of("zzz", 3)))
                .isInstanceOf(EngineException.class).hasMessage("weights: no such backend in pool default (got: zzz)");
        assertThat(((EngineException) org.assertj.core.api.Assertions.catchThrowable(
                () -> KeySpacePreview.preview(pool, List.of("zzz"), Map.of(), Map.of()))).status()).isEqualTo(404);
    }
}
