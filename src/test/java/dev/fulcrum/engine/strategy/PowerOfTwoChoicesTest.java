package dev.fulcrum.engine.strategy;

import static dev.fulcrum.engine.strategy.StrategyFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PowerOfTwoChoicesTest {
    private static final int PICKS = 50_000;

    private static StrategySpec p2c(int choices) {
        return StrategySpec.bare(StrategySpec.POWER_OF_TWO).with("choices", choices);
    }

    @Test
    void theStrictlyMostLoadedBackendIsNeverPickedWithDistinctDraws() {
        Candidates c = of("a", 1, "b", 1, "c", 1, "d", 1, "e", 1);
        hold(c.get(0), 1);
        hold(c.get(1), 2);
        hold(c.get(2), 3);
        hold(c.get(3), 4);
        hold(c.get(4), 9); // e: strictly most loaded
        Map<String, Integer> n = counts(create(StrategySpec.POWER_OF_TWO, c), PICKS);
        assertThat(n).doesNotContainKey("e").doesNotContainKey("none");
        // a wins every pair it is in: 4 of the 10 pairs, so 40%; b wins 3 of 10 (with c, d, e)
        assertThat(n.get("a") / (double) PICKS).isCloseTo(0.4, within(0.015));
        assertThat(n.get("b") / (double) PICKS).isCloseTo(0.3, within(0.015));
    }

    @Test
    void theMostLoadedPerUnitOfWeightIsNeverPickedEvenWhenItIsTheHeaviest() {
        Candidates c = of("a", 9, "b", 1, "c", 1);
        hold(c.get(0), 20); // 20/9 per unit: most loaded though it is drawn most often
        hold(c.get(1), 1);
        Map<String, Integer> n = counts(create(StrategySpec.POWER_OF_TWO, c), PICKS);
        assertThat(n).doesNotContainKey("a");
    }

    // with every backend idle the first draw wins each tie, so picks follow the weights;
    // tolerance: 1.5 points over 50,000 picks is > 6 sigma
    @Test
    void drawsAreWeightedByEffectiveWeight() {
        Map<String, Integer> n = counts(create(StrategySpec.POWER_OF_TWO, of("a", 6, "b", 3, "c", 1)), PICKS);
        assertThat(n.get("a") / (double) PICKS).isCloseTo(0.6, within(0.015));
        assertThat(n.get("b") / (double) PICKS).isCloseTo(0.3, within(0.015));
    }

    @Test
    void threeChoicesNeverPickEitherOfTheTwoMostLoaded() {
        Candidates c = of("a", 1, "b", 2, "c", 1, "d", 3, "e", 1);
        for (int i = 0; i < 5; i++) {
            hold(c.get(i), (i + 1) * c.weight(i) / Strategies.WEIGHT_SCALE); // per unit: 1, 2, 3, 4, 5
        }
        Map<String, Integer> n = counts(create(p2c(3), c, 3), PICKS);
        assertThat(n).containsOnlyKeys("a", "b", "c");
    }

    @Test
    void whenEveryDrawIsIneligibleAScanFindsTheLeastLoadedEligibleOne() {
        Candidates c = of("a", 1, "b", 1, "c", 1);
        hold(c.get(1), 3);
        Strategy s = create(StrategySpec.POWER_OF_TWO, c);
        // only b is eligible: many draws (a, c) are all ineligible, the scan still finds b
        Map<String, Integer> n = counts(s, 1000, () -> ANY, except(c.get(0), c.get(2)));
        assertThat(n).containsOnlyKeys("b");
        assertThat(s.pick(ANY, b -> false)).isNull();
    }

    @Test
    void asManyChoicesAsBackendsIsLeastRequests() {
        Candidates c = of("a", 1, "b", 1);
        hold(c.get(0), 1);
        Map<String, Integer> n = counts(create(p2c(5), c, 1), 100);
        assertThat(n).containsOnlyKeys("b");
    }
}
