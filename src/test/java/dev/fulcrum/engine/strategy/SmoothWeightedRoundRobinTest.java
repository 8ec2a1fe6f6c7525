package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import static dev.fulcrum.engine.strategy.StrategyFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SmoothWeightedRoundRobinTest {

    private static Strategy rebuild(Candidates c, Strategy previous) {
        return Strategies.create(StrategySpec.of(StrategySpec.SMOOTH_WRR), c, previous, env(1));
    }

    @Test
    void weightsFiveOneOneGiveAABACAAAndRepeat() {
        Strategy s = create(StrategySpec.SMOOTH_WRR, of("a", 5, "b", 1, "c", 1));
        assertThat(sequence(s, 14)).containsExactly(
                "a", "a", "b", "a", "c", "a", "a",
                "a", "a", "b", "a", "c", "a", "a");
    }

    @Test
    void weightsTwoOneInterleaveInsteadOfBursting() {
        Strategy s = create(StrategySpec.SMOOTH_WRR, of("a", 2, "b", 1));
        assertThat(sequence(s, 6)).containsExactly("a", "b", "a", "a", "b", "a");
    }

    @Test
    void aRebuildWithTheSameWeightsContinuesTheCycleInsteadOfRestartingIt() {
        Candidates c = of("a", 5, "b", 1, "c", 1);
        Strategy first = rebuild(c, null);
        assertThat(sequence(first, 3)).containsExactly("a", "a", "b");
        Strategy second = rebuild(c, first); // e.g. a breaker event republished the snapshot
        assertThat(sequence(second, 4)).containsExactly("a", "c", "a", "a");
    }

    @Test
    void aReweightMidRunKeepsEachBackendsCurrentWeightSoTheSequenceStaysSmooth() {
        List<Backend> bs = List.of(backend("a"), backend("b"));
        Strategy before = rebuild(over(bs, 1, 1), null);
        assertThat(sequence(before, 1)).containsExactly("a"); // current now a=-1, b=1 (x100)
        Strategy after = rebuild(over(bs, 3, 1), before);
        // kept: a=-100, b=100; +300/+100 -> 200, 200: a (first on a tie) -> -200, 200
        // -> 100, 300: b -> 100, -100 -> 400, 0: a -> 0, 0 -> 300, 100: a ...
        assertThat(sequence(after, 8)).containsExactly("a", "b", "a", "a", "a", "b", "a", "a");
        // starting from zero instead would have begun a, a, b, a: the kept state is what differs
        assertThat(sequence(rebuild(over(bs, 3, 1), null), 4)).containsExactly("a", "a", "b", "a");
    }

    @Test
    void aNewBackendStartsAtZeroAndARemovedOnesStateIsDropped() {
        Backend a = backend("a");
        Backend b = backend("b");
        Backend c = backend("c");
        Strategy s1 = rebuild(over(List.of(a, b), 1, 1), null);
        sequence(s1, 1);
        Strategy s2 = rebuild(over(List.of(a, c), 1, 1), s1);
        assertThat(((SmoothWeightedRoundRobin) s2).currentWeights()).isEqualTo(Map.of("a", -100L, "c", 0L));
    }

    @Test
    void anIneligibleBackendIsPassedOverAndGainsNoCurrentWeight() {
        Candidates c = of("a", 5, "b", 1, "c", 1);
        Strategy s = create(StrategySpec.SMOOTH_WRR, c);
        Eligibility notA = except(c.get(0));
        assertThat(List.of(s.pick(ANY, notA).id(), s.pick(ANY, notA).id(), s.pick(ANY, notA).id()))
                .containsExactly("b", "c", "b");
        assertThat(((SmoothWeightedRoundRobin) s).currentWeights().get("a")).isZero();
        assertThat(s.pick(ANY, b -> false)).isNull();
    }

    @Test
    void overAFullCycleEachBackendIsPickedExactlyItsWeight() {
        Strategy s = create(StrategySpec.SMOOTH_WRR, of("a", 7, "b", 3, "c", 2, "d", 1));
        Map<String, Integer> n = counts(s, 13 * 10);
        assertThat(n).isEqualTo(Map.of("a", 70, "b", 30, "c", 20, "d", 10));
    }
}
