package dev.fulcrum.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fulcrum.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The peak EWMA the fastest-response strategy reads, on the fake clock (the worked example of its Javadoc). */
@DisplayName("Peak EWMA")
class PeakEwmaControlTest {
    static final long MS = 1_000_000L;

    final ManualClock clock = new ManualClock();
    final PeakEwma ewma = new PeakEwma(clock, 10_000);

    @Test
    void hasNoEstimateBeforeTheFirstSample() {
        assertThat(ewma.hasSamples()).isFalse();
        assertThat(ewma.get()).isZero();
    }

    @Test
    void theFirstSampleIsTheEstimateEvenWhenItIsZero() {
        ewma.observe(0);

        assertThat(ewma.hasSamples()).isTrue();
        assertThat(ewma.get()).isZero();
    }

    @Test
    void aLowerSampleDecaysTheEstimateByElapsedTimeOverDecay() {
        ewma.observe(100 * MS);
        clock.advance(Duration.ofSeconds(10));

        ewma.observe(20 * MS);

        double w = Math.exp(-1);
        assertThat(ewma.get()).isCloseTo(100 * MS * w + 20 * MS * (1 - w), within(1.0));
        assertThat(ewma.get() / MS).isCloseTo(49.4, within(0.05));
    }

    @Test
    void aLowerSampleAtTheSameInstantChangesNothing() {
        ewma.observe(100 * MS);

        ewma.observe(20 * MS);

        assertThat(ewma.get()).isEqualTo(100.0 * MS);
    }

    @Test
    void aPeakReplacesTheEstimateAtOnce() {
        ewma.observe(20 * MS);
        clock.advance(Duration.ofSeconds(30));

        ewma.observe(300 * MS);

        assertThat(ewma.get()).isEqualTo(300.0 * MS);
    }
}
