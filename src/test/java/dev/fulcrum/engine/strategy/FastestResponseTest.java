package dev.fulcrum.engine.strategy;

import static dev.fulcrum.engine.strategy.StrategyFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class FastestResponseTest {
    private static final long MS = 1_000_000L;

    @Test
    void theLowestLatencyTimesInFlightPlusOneWins() {
        Candidates c = of("a", 1, "b", 1, "c", 1);
        c.get(0).ewma().observe(20 * MS);
        c.get(1).ewma().observe(10 * MS);
        c.get(2).ewma().observe(50 * MS);
        hold(c.get(0), 1); // 40
        hold(c.get(1), 4); // 50
        Strategy s = create(StrategySpec.FASTEST_RESPONSE, c);
        assertThat(s.pick(ANY, Eligibility.ADMITTING).id()).isEqualTo("a");
        hold(c.get(0), 2); // a now 80, c 50, b 50: b or c
        assertThat(counts(s, 2000)).containsOnlyKeys("b", "c");
    }

    @Test
    void aBackendWithNoSamplesIsCostedAtTheAverageOfTheOthers() {
        Candidates c = of("a", 1, "b", 1, "new", 1);
        c.get(0).ewma().observe(10 * MS);
        c.get(1).ewma().observe(30 * MS); // average 20
        hold(c.get(0), 2); // a: 30
        hold(c.get(2), 1); // new: average 20 x 2 = 40; b: 30 x 1 = 30
        Strategy s = create(StrategySpec.FASTEST_RESPONSE, c);
        assertThat(counts(s, 2000)).containsOnlyKeys("a", "b"); // a and b tie at 30, new costs 40
        hold(c.get(0), 1); // a: 40
        hold(c.get(1), 1); // b: 60
        assertThat(counts(s, 2000)).containsOnlyKeys("a", "new"); // a 40 ties with new 40
    }

    // tolerance: 1/2 over 20,000 picks, sigma 0.35 points; 2 points > 5 sigma
    @Test
    void withNoSamplesAnywhereIdleBackendsShareEvenly() {
        Map<String, Integer> n = counts(create(StrategySpec.FASTEST_RESPONSE, of("a", 1, "b", 1)), 20_000);
        assertThat(n.get("a") / 20_000.0).isCloseTo(0.5, within(0.02));
    }

    @Test
    void anIneligibleFastestBackendIsPassedOver() {
        Candidates c = of("a", 1, "b", 1);
        c.get(0).ewma().observe(1 * MS);
        c.get(1).ewma().observe(100 * MS);
        Strategy s = create(StrategySpec.FASTEST_RESPONSE, c);
        assertThat(s.pick(ANY, except(c.get(0))).id()).isEqualTo("b");
        assertThat(s.pick(ANY, b -> false)).isNull();
    }
}
