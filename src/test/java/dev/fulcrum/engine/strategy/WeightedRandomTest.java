package dev.fulcrum.engine.strategy;

import static dev.fulcrum.engine.strategy.StrategyFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class WeightedRandomTest {
    private static final int PICKS = 50_000;

    // tolerance: a share p over 50,000 picks has sigma <= 0.23 points; 1.5 points is > 6 sigma
    @Test
    void eachCandidateIsPickedInProportionToItsWeightWithinOneAndAHalfPoints() {
        Map<String, Integer> n = counts(create(StrategySpec.WEIGHTED_RANDOM, of("a", 5, "b", 3, "c", 2)), PICKS);
        assertThat(n.get("a") / (double) PICKS).isCloseTo(0.5, within(0.015));
        assertThat(n.get("b") / (double) PICKS).isCloseTo(0.3, within(0.015));
        assertThat(n.get("c") / (double) PICKS).isCloseTo(0.2, within(0.015));
    }

    @Test
    void equalWeightsAreAUniformDraw() {
        Map<String, Integer> n = counts(create(StrategySpec.WEIGHTED_RANDOM, of("a", 2, "b", 2)), PICKS);
        assertThat(n.get("a") / (double) PICKS).isCloseTo(0.5, within(0.015));
    }

    @Test
    void whenTheHeaviestIsIneligibleTheOthersKeepTheirRelativeWeights() {
        Candidates c = of("a", 5, "b", 3, "c", 1);
        Map<String, Integer> n = counts(create(StrategySpec.WEIGHTED_RANDOM, c), PICKS, () -> ANY, except(c.get(0)));
        assertThat(n).doesNotContainKey("a");
        assertThat(n.get("b") / (double) PICKS).isCloseTo(0.75, within(0.015));
    }

    @Test
    void noEligibleCandidateReturnsNone() {
        assertThat(create(StrategySpec.WEIGHTED_RANDOM, of("a", 1, "b", 2)).pick(ANY, b -> false)).isNull();
    }
}
