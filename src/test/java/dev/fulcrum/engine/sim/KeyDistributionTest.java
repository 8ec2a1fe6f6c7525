package dev.fulcrum.engine.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Seeded draws against the exact probabilities; tolerances are about 4 standard deviations at 100,000 draws. */
class KeyDistributionTest {
    private static final int N = 100_000;

    private static int[] draw(KeyDistribution d, long seed) {
        int[] counts = new int[d.keys()];
        KeyDistribution.Sampler s = d.sampler();
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < N; i++) {
            counts[s.nextIndex(r)]++;
        }
        return counts;
    }

    @Test
    void zipfWithExponentOneGivesRankOneTwiceRankTwoAndTheClassicShares() {
        KeyDistribution.Zipf z = new KeyDistribution.Zipf(100, 1.0);
        int[] c = draw(z, 1);
        // H(100) = 5.187: k0 19.28%, k1 9.64%, k9 1.93%
        assertThat(z.probability(0)).isCloseTo(0.1928, within(0.0001));
        for (int i : new int[] {0, 1, 2, 9, 49}) {
            double expected = z.probability(i);
            double sd = Math.sqrt(expected * (1 - expected) / N);
            assertThat(c[i] / (double) N).as("k" + i).isCloseTo(expected, within(4 * sd));
        }
        assertThat((double) c[0] / c[1]).isCloseTo(2.0, within(0.1));
        double sum = 0;
        for (int i = 0; i < 100; i++) {
            sum += z.probability(i);
        }
        assertThat(sum).isCloseTo(1.0, within(1e-9));
        double[] all = z.probabilities();
        assertThat(all).hasSize(100);
        for (int i = 0; i < 100; i++) {
            assertThat(all[i]).isCloseTo(z.probability(i), within(1e-12));
        }
        assertThat(new KeyDistribution.HotKey(5, 0.6).probabilities()).containsExactly(0.6, 0.1, 0.1, 0.1, 0.1);
    }

    @Test
    void aSteeperZipfConcentratesMoreOnTheTopKey() {
        int[] flat = draw(new KeyDistribution.Zipf(1000, 0.5), 2);
        int[] steep = draw(new KeyDistribution.Zipf(1000, 1.5), 2);
        assertThat(steep[0]).isGreaterThan(5 * flat[0]);
    }

    @Test
    void theHotKeyTakesItsShareAndTheOthersSplitTheRestEvenly() {
        int[] c = draw(new KeyDistribution.HotKey(11, 0.6), 3);
        assertThat(c[0] / (double) N).isCloseTo(0.6, within(0.006));
        for (int i = 1; i < 11; i++) {
            assertThat(c[i] / (double) N).isCloseTo(0.04, within(0.0025));
        }
    }

    @Test
    void uniformIsEvenAndTheSameSeedDrawsTheSameKeys() {
        int[] c = draw(new KeyDistribution.Uniform(10), 4);
        for (int n : c) {
            assertThat(n / (double) N).isCloseTo(0.1, within(0.004));
        }
        assertThat(draw(new KeyDistribution.Zipf(50, 1.2), 9)).isEqualTo(draw(new KeyDistribution.Zipf(50, 1.2), 9));
        assertThat(new KeyDistribution.Uniform(3).sampler().next(new SplittableRandom(1))).matches("k[012]");
    }

    @Test
    void invalidShapesNameTheFieldAndTheValue() {
        assertThatThrownBy(() -> new KeyDistribution.Zipf(10, 0)).hasMessage("exponent: must be above 0 and at most 10 (got: 0.0)");
        assertThatThrownBy(() -> new KeyDistribution.HotKey(10, 1.2)).hasMessage("share: must be between 0 and 1 (got: 1.2)");
        assertThatThrownBy(() -> new KeyDistribution.Uniform(0)).hasMessage("keys: must be between 1 and 10000000 (got: 0)");
    }
}
