package dev.fulcrum.ui.ring;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A what-if shows only what changes owner, for an added or reweighted backend as for a removed one, on a ring and on a
 * Maglev table: the stretches drawn are the engine's own key space after the change against the one shown, so they add
 * up to the fraction the engine says moves, and each key in them is owned as the engine would own it.
 */
@Timeout(60)
class WhatIfChangesTest {
    private static final StrategySpec RING = StrategySpec.bare("consistent-hash").with("key", "path").with("virtualNodes", 160);
    private static final StrategySpec MAGLEV = StrategySpec.bare("maglev").with("key", "path").with("tableSize", 65537);

    private record Run(EngineClient.Preview preview, List<RingGeometry.Change> changes) {
    }

    private static Run whatIf(StrategySpec strategy, int tableSize, RingViewModel.WhatIf w) {
        try (RunningFulcrum fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(strategy, BreakerConfig.DEFAULT,
                List.of(demo("a", 1, 0, 0), demo("b", 1, 0, 0), demo("c", 1, 0, 0)))).start();
             EngineClient client = new InProcessEngineClient(fulcrum.app())) {
            RingGeometry now = RingGeometry.of(client.ring("default"), tableSize);
            EngineClient.Preview p = switch (w.mode()) {
                case ADD -> client.preview("default", List.of(), Map.of(w.backend(), w.weight()), Map.of());
                case REWEIGHT -> client.preview("default", List.of(), Map.of(), Map.of(w.backend(), w.weight()));
                case REMOVE -> client.preview("default", List.of(w.backend()), Map.of(), Map.of());
            };
            return new Run(p, RingViewModel.changes(now, p, w, tableSize, Map.of()));
        }
    }

    private static double total(List<RingGeometry.Change> changes) {
        return changes.stream().mapToDouble(RingGeometry.Change::length).sum();
    }

    @Test
    void anAddedBackendOnARingTakesStretchesFromTheOthersAndNothingElseMoves() {
        Run r = whatIf(RING, 0, new RingViewModel.WhatIf(RingViewModel.Mode.ADD, "d", 1));
        assertThat(r.preview().points()).anyMatch(pt -> pt.backend().equals("d"));
        assertThat(r.changes()).isNotEmpty().allMatch(c -> c.to().equals("d") && !c.from().equals("d"));
        assertThat(total(r.changes())).isCloseTo(r.preview().movedFraction(), within(1e-9));
        assertThat(r.preview().movedFraction()).isBetween(0.15, 0.35);
    }

    @Test
    void aReweightOnARingMovesKeysOnlyToTheHeavierBackend() {
        Run r = whatIf(RING, 0, new RingViewModel.WhatIf(RingViewModel.Mode.REWEIGHT, "b", 3));
        assertThat(r.changes()).isNotEmpty().allMatch(c -> c.to().equals("b"));
        assertThat(total(r.changes())).isCloseTo(r.preview().movedFraction(), within(1e-9));
    }

    @Test
    void aMaglevWhatIfShowsTheSlotsThatChangeOwner() {
        Run r = whatIf(MAGLEV, 65537, new RingViewModel.WhatIf(RingViewModel.Mode.ADD, "d", 1));
        assertThat(r.changes()).isNotEmpty();
        assertThat(r.changes().stream().filter(c -> c.to().equals("d")).mapToDouble(RingGeometry.Change::length).sum())
                .as("most of what moves goes to the new backend").isGreaterThan(0.8 * total(r.changes()));
        // slot runs are whole slots of the table: the stretches add up to the engine's moved slots
        assertThat(total(r.changes())).isCloseTo(r.preview().movedFraction(), within(2.0 / 65537));
    }
}
