package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.BackendMetrics;
import static dev.fulcrum.engine.strategy.StrategyFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AdaptiveTest {
    private static final int PICKS = 40_000;

    private static void report(Backend b, double cpu, int inflight, double latencyMs) {
        b.reportMetrics(new BackendMetrics(cpu, inflight, latencyMs, CLOCK.nanos()));
    }

    private static double share(Map<String, Integer> n, String id) {
        return n.getOrDefault(id, 0) / (double) PICKS;
    }

    // the worked example of Adaptive's javadoc: pick weights 0.1 and 0.65, so b gets 0.65 / 0.75 = 86.7%;
    // tolerance: sigma over 40,000 picks is 0.17 points; 1.5 points > 8 sigma
    @Test
    void theLessLoadedBackendGetsMostButNotAllRequests() {
        Candidates c = of("a", 1, "b", 1);
        report(c.get(0), 0.8, 8, 100);
        report(c.get(1), 0.4, 2, 50);
        Strategy s = create(StrategySpec.ADAPTIVE, c);
        assertThat(((Adaptive) s).scores()).containsExactly(new double[] {1.0, 0.45}, within(1e-9));
        Map<String, Integer> n = counts(s, PICKS);
        assertThat(share(n, "b")).isCloseTo(0.65 / 0.75, within(0.015));
        assertThat(share(n, "a")).isGreaterThan(0.1); // the floor: never winner-takes-all
    }

    @Test
    void theConfiguredWeightsDecideWhichMetricCounts() {
        Candidates c = of("a", 1, "b", 1);
        report(c.get(0), 1.0, 0, 10); // busy cpu, fast
        report(c.get(1), 0.1, 0, 100); // idle cpu, slow
        StrategySpec latencyOnly = StrategySpec.bare(StrategySpec.ADAPTIVE).with("weights", Map.of("latency", 1.0));
        Map<String, Integer> n = counts(create(latencyOnly, c, 5), PICKS);
        // scores a 0.1, b 1.0 -> weights 1.0 and 0.1
        assertThat(share(n, "a")).isCloseTo(1.0 / 1.1, within(0.015));
    }

    @Test
    void effectiveWeightScalesThePickWeight() {
        Candidates c = of("a", 3, "b", 1);
        report(c.get(0), 0.5, 1, 10);
        report(c.get(1), 0.5, 1, 10); // equal scores: plain weights
        assertThat(share(counts(create(StrategySpec.ADAPTIVE, c), PICKS), "a")).isCloseTo(0.75, within(0.015));
    }

    @Test
    void aBackendWithoutMetricsGetsThePoolsAverageScore() {
        Candidates c = of("a", 1, "b", 1, "silent", 1);
        report(c.get(0), 1.0, 10, 100); // score 1
        report(c.get(1), 0.0, 0, 0); // score 0
        double[] scores = ((Adaptive) create(StrategySpec.ADAPTIVE, c)).scores();
        assertThat(scores[2]).isCloseTo(0.5, within(1e-9));
    }

    @Test
    void metricsOlderThanStaleAfterCountAsMissing() {
        Candidates c = of("a", 1, "b", 1, "c", 1);
        report(c.get(0), 1.0, 10, 100);
        CLOCK.advanceMillis(9_000);
        report(c.get(1), 0.0, 0, 0);
        report(c.get(2), 0.5, 5, 50);
        Adaptive s = (Adaptive) create(StrategySpec.ADAPTIVE, c);
        assertThat(s.scores()[0]).isCloseTo(1.0, within(1e-9));
        CLOCK.advanceMillis(1_001); // a's report is now 10,001 ms old (staleAfterMs 10,000)
        double[] scores = s.scores();
        // normalised without a: b 0, c 1; a gets their average
        assertThat(scores).containsExactly(new double[] {0.5, 0.0, 1.0}, within(1e-9));
    }

    @Test
    void aNewReportChangesThePicksAtOnce() {
        Candidates c = of("a", 1, "b", 1);
        report(c.get(0), 1.0, 10, 100);
        report(c.get(1), 0.0, 0, 0);
        Strategy s = create(StrategySpec.ADAPTIVE, c);
        assertThat(share(counts(s, PICKS), "b")).isGreaterThan(0.85);
        report(c.get(0), 0.0, 0, 0);
        report(c.get(1), 1.0, 10, 100);
        assertThat(share(counts(s, PICKS), "a")).isGreaterThan(0.85);
    }

    @Test
    void withNoMetricsAnywhereItIsWeightedRandom() {
        Map<String, Integer> n = counts(create(StrategySpec.ADAPTIVE, of("a", 1, "b", 1)), PICKS);
        assertThat(share(n, "a")).isCloseTo(0.5, within(0.015));
    }

    @Test
    void anIneligibleBackendIsNeverPicked() {
        Candidates c = of("a", 1, "b", 1, "c", 1);
        Map<String, Integer> n = counts(create(StrategySpec.ADAPTIVE, c), PICKS, () -> ANY, except(c.get(1)));
        assertThat(n).containsOnlyKeys("a", "c");
        assertThat(create(StrategySpec.ADAPTIVE, c).pick(ANY, b -> false)).isNull();
    }
}
