package dev.fulcrum.engine.strategy;

import static dev.fulcrum.engine.strategy.StrategyFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LeastRequestsTest {

    @Test
    void picksTheFewestInFlightPerUnitOfWeight() {
        Candidates c = of("a", 2, "b", 1, "c", 1);
        hold(c.get(0), 3); // 1.5 per unit
        hold(c.get(1), 2); // 2 per unit
        hold(c.get(2), 4); // 4 per unit
        Strategy s = create(StrategySpec.LEAST_REQUESTS, c);
        assertThat(s.pick(ANY, Eligibility.ADMITTING).id()).isEqualTo("a");
    }

    @Test
    void followsTheLoadAsRequestsAreTaken() {
        Candidates c = of("a", 1, "b", 1);
        Strategy s = create(StrategySpec.LEAST_REQUESTS, c);
        for (int i = 0; i < 10; i++) {
            hold(s.pick(ANY, Eligibility.ADMITTING), 1);
        }
        assertThat(c.get(0).inFlight()).isEqualTo(5);
        assertThat(c.get(1).inFlight()).isEqualTo(5);
    }

    // tolerance: 1/3 over 30,000 picks, sigma 0.27 points; 1.5 points > 5 sigma
    @Test
    void tiesAreBrokenUniformlyInsteadOfAlwaysFavouringTheFirst() {
        Candidates c = of("a", 1, "b", 1, "c", 1, "d", 1);
        hold(c.get(3), 1); // d is busier; a, b, c tie at zero
        Map<String, Integer> n = counts(create(StrategySpec.LEAST_REQUESTS, c), 30_000);
        assertThat(n).doesNotContainKey("d");
        for (String id : new String[] {"a", "b", "c"}) {
            assertThat(n.get(id) / 30_000.0).as(id).isCloseTo(1 / 3.0, within(0.015));
        }
    }

    @Test
    void anIneligibleLeastLoadedBackendIsPassedOver() {
        Candidates c = of("a", 1, "b", 1);
        hold(c.get(1), 5);
        assertThat(create(StrategySpec.LEAST_REQUESTS, c).pick(ANY, except(c.get(0))).id()).isEqualTo("b");
        assertThat(create(StrategySpec.LEAST_REQUESTS, c).pick(ANY, b -> false)).isNull();
    }
}
