package dev.fulcrum.ui.ring;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The teaching view's ring is the engine's own placement at another count: at the pool's count it is the pool's ring
 * point for point, its what-ifs are the engine's previews, its points are named as the engine names them, and the
 * spread it reports is the engine's shares against the weights.
 */
@Timeout(60)
class TeachingRingTest {
    private static RunningFulcrum engine(int virtualNodes, DemoBackendConfig... demos) {
        return RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.bare("consistent-hash").with("key", "path")
                .with("virtualNodes", virtualNodes), BreakerConfig.DEFAULT, List.of(demos))).start();
    }

    @Test
    void atThePoolsCountTheTeachingRingIsThePoolsRingAndItsWhatIfsAreTheEnginesPreviews() {
        try (RunningFulcrum fulcrum = engine(40, demo("a", 1, 0, 0), demo("b", 2, 0, 0), demo("c", 1, 0, 0));
             EngineClient client = new InProcessEngineClient(fulcrum.app())) {
            EngineClient.Ring pool = client.ring("default");
            TeachingRing t = TeachingRing.of(pool, 40);

            // the weights the ring was built from, and the ring itself, point for point
            assertThat(t.weights()).containsExactly(Map.entry("a", 1), Map.entry("b", 2), Map.entry("c", 1));
            EngineClient.Ring same = t.ring(40);
            assertThat(same.points()).isEqualTo(pool.points());
            assertThat(same.share()).isEqualTo(pool.share());

            // and a what-if on it moves what the engine's own preview moves, to the same ring
            for (RingViewModel.WhatIf w : List.of(new RingViewModel.WhatIf(RingViewModel.Mode.REMOVE, "b", 0),
                    new RingViewModel.WhatIf(RingViewModel.Mode.ADD, "d", 3),
                    new RingViewModel.WhatIf(RingViewModel.Mode.REWEIGHT, "a", 4))) {
                EngineClient.Preview engine = switch (w.mode()) {
                    case REMOVE -> client.preview("default", List.of(w.backend()), Map.of(), Map.of());
                    case ADD -> client.preview("default", List.of(), Map.of(w.backend(), w.weight()), Map.of());
                    case REWEIGHT -> client.preview("default", List.of(), Map.of(), Map.of(w.backend(), w.weight()));
                };
                EngineClient.Preview ours = t.preview(40, w);
                assertThat(ours.movedFraction()).as(w.toString()).isCloseTo(engine.movedFraction(), within(1e-12));
                assertThat(ours.points()).as(w.toString()).isEqualTo(engine.points());
                assertThat(ours.share()).as(w.toString()).isEqualTo(engine.share());
            }
        }
    }

    @Test
    void atAnotherCountEveryBackendHasItsWeightTimesTheCountOfPointsEachNamedAsTheEngineHashesIt() {
        try (RunningFulcrum fulcrum = engine(160, demo("a", 1, 0, 0), demo("b", 2, 0, 0), demo("c", 1, 0, 0));
             EngineClient client = new InProcessEngineClient(fulcrum.app())) {
            TeachingRing t = TeachingRing.of(client.ring("default"), 160);

            RingGeometry g = RingGeometry.of(t.ring(3));

            assertThat(g.pointCount()).isEqualTo(12);
            for (RingGeometry.Part p : g.parts()) {
                int expected = p.backend().equals("b") ? 6 : 3;
                assertThat(p.points()).as(p.backend()).hasSize(expected);
                List<String> names = new ArrayList<>();
                for (int i = 0; i < p.points().length; i++) {
                    names.add(p.pointName(i));
                    // point b#i is where the engine's hash of "b#i" puts it
                    long h = dev.fulcrum.engine.hash.XxHash64.hash(p.pointName(i));
                    assertThat(p.points()[i]).isEqualTo(RingGeometry.fraction(h));
                }
                List<String> all = new ArrayList<>();
                for (int i = 0; i < expected; i++) {
                    all.add(p.backend() + "#" + i);
                }
                assertThat(names).containsExactlyInAnyOrderElementsOf(all);
            }
        }
    }

    @Test
    void theSpreadIsTheEnginesSharesAgainstTheWeightsAndEvensOutAsTheCountGrows() {
        try (RunningFulcrum fulcrum = engine(160, demo("a", 1, 0, 0), demo("b", 1, 0, 0), demo("c", 2, 0, 0),
                demo("d", 1, 0, 0), demo("e", 1, 0, 0), demo("f", 1, 0, 0), demo("g", 1, 0, 0));
             EngineClient client = new InProcessEngineClient(fulcrum.app())) {
            EngineClient.Ring pool = client.ring("default");
            TeachingRing t = TeachingRing.of(pool, 160);

            Spread s = Spread.of(pool.share(), t.weights());

            // each backend's share is the engine's, its fair share its weight over the total (8)
            assertThat(s.rows()).extracting(Spread.Row::backend).containsExactly("a", "b", "c", "d", "e", "f", "g");
            double max = 0;
            double min = Double.MAX_VALUE;
            for (Spread.Row r : s.rows()) {
                assertThat(r.share()).isEqualTo(pool.share().get(r.backend()));
                assertThat(r.fair()).isCloseTo(r.backend().equals("c") ? 2 / 8.0 : 1 / 8.0, within(1e-12));
                max = Math.max(max, r.share() / r.fair());
                min = Math.min(min, r.share() / r.fair());
            }
            assertThat(s.maxOverMin()).isCloseTo(max / min, within(1e-12));

            // one point each is far more uneven than the engine's 160 (the hashes are fixed: this is no chance)
            Spread one = Spread.of(t.ring(1).share(), t.weights());
            Spread ten = Spread.of(t.ring(10).share(), t.weights());
            assertThat(one.maxOverMin()).isGreaterThan(ten.maxOverMin());
            assertThat(ten.maxOverMin()).isGreaterThan(s.maxOverMin());
            assertThat(s.maxOverMin()).isLessThan(1.5);
        }
    }

    @Test
    void aWhatIfOnTheTeachingRingRefusesWhatTheEngineWouldRefuse() {
        try (RunningFulcrum fulcrum = engine(160, demo("a", 1, 0, 0), demo("b", 1, 0, 0));
             EngineClient client = new InProcessEngineClient(fulcrum.app())) {
            TeachingRing t = TeachingRing.of(client.ring("default"), 160);

            org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.preview(3,
                    new RingViewModel.WhatIf(RingViewModel.Mode.REMOVE, "x", 0))).hasMessageContaining("(got: x)");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.preview(3,
                    new RingViewModel.WhatIf(RingViewModel.Mode.ADD, "a", 1))).hasMessageContaining("already exists");
        }
    }
}
