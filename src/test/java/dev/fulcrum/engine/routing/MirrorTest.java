package dev.fulcrum.engine.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fulcrum.engine.strategy.RandomSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The mirror's share and its own counters, apart from the client's requests. */
@DisplayName("Mirror")
class MirrorTest {
    @Test
    void eachOutcomeIsCountedInItsPlace() {
        Mirror m = new Mirror("shadow", 10, 65536);
        m.answered(200);
        m.answered(302);
        m.answered(404);
        m.answered(503);
        m.answered(0); // no answer
        m.tooLarge();
        m.dropped();
        m.dropped();

        assertThat(m.counts()).isEqualTo(new Mirror.Counts(5, 2, 1, 1, 2));
        assertThat(m.counts().plus(new Mirror.Counts(1, 1, 1, 1, 1))).isEqualTo(new Mirror.Counts(6, 3, 2, 2, 3));
        assertThat(new Mirror("shadow", 10, 1).counts()).isEqualTo(Mirror.Counts.NONE);
    }

    @Test
    void aStatusOutsideHttpsRangeIsAFailure() {
        Mirror m = new Mirror("shadow", 100, 0);
        m.answered(600);
        m.answered(-1);
        assertThat(m.counts()).isEqualTo(new Mirror.Counts(2, 2, 2, 0, 0));
    }

    @Test
    void theShareSampledFollowsThePercentWithinOnePoint() {
        // seeded: 10,000 draws at 10% have an sd of 0.3 point
        RandomSource random = RandomSource.seeded(3);
        Mirror m = new Mirror("shadow", 10, 65536);
        int n = 0;
        for (int i = 0; i < 10_000; i++) {
            n += m.sampled(random) ? 1 : 0;
        }
        assertThat(n / 10_000.0).isCloseTo(0.10, within(0.01));
    }

    @Test
    void aHundredPercentCopiesEveryRequestAndZeroNone() {
        RandomSource noDraw = SplitTest.NO_DRAW;
        Mirror all = new Mirror("shadow", 100, 65536);
        Mirror none = new Mirror("shadow", 0, 65536);
        for (int i = 0; i < 100; i++) {
            assertThat(all.sampled(noDraw)).isTrue();
            assertThat(none.sampled(noDraw)).isFalse();
        }
    }
}
