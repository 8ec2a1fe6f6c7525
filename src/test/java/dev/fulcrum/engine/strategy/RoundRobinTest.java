package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import static dev.fulcrum.engine.strategy.StrategyFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RoundRobinTest {

    @Test
    void visitsEveryCandidateInIdOrderIgnoringWeights() {
        Strategy s = create(StrategySpec.ROUND_ROBIN, of("a", 5, "b", 1, "c", 1));
        assertThat(sequence(s, 7)).containsExactly("a", "b", "c", "a", "b", "c", "a");
    }

    @Test
    void anIneligibleCandidateIsSkippedAndTheOthersShareItsTurnsEvenly() {
        Candidates c = of("a", 1, "b", 1, "c", 1);
        Strategy s = create(StrategySpec.ROUND_ROBIN, c);
        Eligibility notB = except(c.get(1));
        assertThat(s.pick(ANY, notB).id()).isEqualTo("a");
        assertThat(s.pick(ANY, notB).id()).isEqualTo("c"); // b's turn, passed on
        assertThat(s.pick(ANY, notB).id()).isEqualTo("a"); // not c twice (it took b's whole share)
        assertThat(s.pick(ANY, notB).id()).isEqualTo("c");
    }

    @Test
    void anEligibleCandidateIsFoundWhileOtherThreadsTakeTurns() throws Exception {
        // two backends, b ineligible for this pick (tried already); other threads take every other turn, so this
        // pick's own turns can all land on b: it must still find a
        Candidates c = of("a", 1, "b", 1);
        Strategy s = create(StrategySpec.ROUND_ROBIN, c);
        Eligibility notB = except(c.get(1));
        Eligibility stealing = new Eligibility() {
            @Override
            public boolean test(Backend b) {
                s.pick(ANY, x -> true); // another request's pick in between
                return notB.test(b);
            }
        };
        s.pick(ANY, x -> true); // this pick's turns now fall on b, the others' on a
        for (int i = 0; i < 20; i++) {
            assertThat(s.pick(ANY, stealing)).as("pick %d", i).isNotNull().extracting(Backend::id).isEqualTo("a");
        }
    }

    @Test
    void noEligibleCandidateReturnsNone() {
        Candidates c = of("a", 1, "b", 1);
        assertThat(create(StrategySpec.ROUND_ROBIN, c).pick(ANY, b -> false)).isNull();
    }

    @Test
    void oneBackendTakesEveryRequest() {
        assertThat(sequence(create(StrategySpec.ROUND_ROBIN, of("solo", 3)), 4)).containsOnly("solo");
    }
}
