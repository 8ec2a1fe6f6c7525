package dev.fulcrum.engine.strategy;

import static dev.fulcrum.engine.strategy.StrategyFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RandomChoiceTest {
    private static final int PICKS = 40_000;

    // tolerance: 1/3 of 40,000 picks has a standard deviation of ~0.24 percentage points; 1.5 points is > 6 sigma
    @Test
    void everyCandidateIsEquallyLikelyWhateverItsWeightWithinOneAndAHalfPoints() {
        Map<String, Integer> n = counts(create(StrategySpec.RANDOM, of("a", 5, "b", 1, "c", 1)), PICKS);
        for (String id : new String[] {"a", "b", "c"}) {
            assertThat(n.get(id) / (double) PICKS).as(id).isCloseTo(1 / 3.0, within(0.015));
        }
    }

    @Test
    void anIneligibleCandidateIsNeverPickedAndTheOthersShareEvenly() {
        Candidates c = of("a", 1, "b", 1, "c", 1);
        Map<String, Integer> n = counts(create(StrategySpec.RANDOM, c), PICKS, () -> ANY, except(c.get(0)));
        assertThat(n).doesNotContainKey("a");
        assertThat(n.get("b") / (double) PICKS).isCloseTo(0.5, within(0.015));
    }

    @Test
    void theSameSeedGivesTheSameSequence() {
        Candidates c = equal(10);
        assertThat(sequence(create(StrategySpec.of(StrategySpec.RANDOM), c, 9), 50))
                .isEqualTo(sequence(create(StrategySpec.of(StrategySpec.RANDOM), c, 9), 50));
    }
}
