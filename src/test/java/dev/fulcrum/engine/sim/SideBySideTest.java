package dev.fulcrum.engine.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;

class SideBySideTest {
    private static final List<SimBackend> EVEN = List.of(SimBackend.of("a", 1, 10), SimBackend.of("b", 1, 10),
            SimBackend.of("c", 1, 10));
    private static final List<SimBackend> WEIGHTED = List.of(SimBackend.of("a", 5, 10), SimBackend.of("b", 1, 10),
            SimBackend.of("c", 1, 10));

    @Test
    void twoRunsWithTheSameSeedGiveTheSameReportAndAnotherSeedDoesNot() {
        SideBySide.Settings s = SideBySide.Settings.of(EVEN.stream().map(b -> b.withJitterMs(5)).toList())
                .withSeed(11);
        List<SimRequest> trace = SimTrace.generate(3000, 500, new KeyDistribution.Zipf(200, 1.0), 0.1, 11);
        SideBySideReport first = SideBySide.run(s, trace);
        SideBySideReport second = SideBySide.run(s, SimTrace.generate(3000, 500, new KeyDistribution.Zipf(200, 1.0), 0.1, 11));
        assertThat(second).isEqualTo(first);
        assertThat(second.toCsv()).isEqualTo(first.toCsv());
        assertThat(first.results()).extracting(StrategyResult::strategy).containsExactly("round-robin", "random",
                "weighted-random", "smooth-weighted-round-robin", "least-requests", "power-of-two", "consistent-hash",
                "maglev", "ip-hash", "fastest-response", "naive-weighted-round-robin");

        SideBySideReport other = SideBySide.run(s.withSeed(12), trace);
        assertThat(other.result("random").requestsPerBackend())
                .isNotEqualTo(first.result("random").requestsPerBackend());
    }

    @Test
    void smoothWeightedRoundRobinAvoidsTheBurstOfTheNaiveExpandedList() {
        SideBySide.Settings s = SideBySide.Settings.of(WEIGHTED)
                .withStrategies(List.of(StrategySpec.of("smooth-weighted-round-robin")));
        SideBySideReport r = SideBySide.run(s, SimTrace.generate(7000, 200, new KeyDistribution.Uniform(10), 0, 3));

        StrategyResult smooth = r.result("smooth-weighted-round-robin");
        StrategyResult naive = r.result("naive-weighted-round-robin");
        // both honour 5:1:1 exactly over whole cycles
        assertThat(smooth.requestsPerBackend()).containsEntry("a", 5000L).containsEntry("b", 1000L)
                .containsEntry("c", 1000L);
        assertThat(naive.requestsPerBackend()).isEqualTo(smooth.requestsPerBackend());
        assertThat(smooth.maxAvgWeightedRatio()).isCloseTo(1.0, within(1e-9));
        // a a b a c a a, repeating, has a run of 4 where two cycles meet (a a | a a); a a a a a b c has 5
        assertThat(smooth.longestRun()).isEqualTo(4);
        assertThat(naive.longestRun()).isEqualTo(5);
        assertThat(naive.longestRunBackend()).isEqualTo("a");
        assertThat(new NaiveWeightedRoundRobin(WEIGHTED).slots()).containsExactly("a", "a", "a", "a", "a", "b", "c");

        // with a heavier skew the burst is plain: 8,2,1,1 gives runs of at most 3 against the naive 8
        List<SimBackend> skewed = List.of(SimBackend.of("a", 8, 10), SimBackend.of("b", 2, 10),
                SimBackend.of("c", 1, 10), SimBackend.of("d", 1, 10));
        SideBySideReport r2 = SideBySide.run(SideBySide.Settings.of(skewed)
                .withStrategies(List.of(StrategySpec.of("smooth-weighted-round-robin"))),
                SimTrace.generate(1200, 200, new KeyDistribution.Uniform(10), 0, 3));
        assertThat(r2.result("smooth-weighted-round-robin").longestRun()).isEqualTo(3);
        assertThat(r2.result("naive-weighted-round-robin").longestRun()).isEqualTo(8);
    }

    @Test
    void requestsHoldTheirSlotUntilSimulatedCompletionSoLoadAwareStrategiesAvoidTheSlowBackend() {
        SideBySide.Settings s = SideBySide.Settings.of(EVEN).withSlowBackend("b", 10).withStrategies(List.of(
                StrategySpec.of("round-robin"), StrategySpec.of("least-requests"), StrategySpec.of("power-of-two"),
                StrategySpec.of("fastest-response"))).withNaiveWeightedRoundRobin(false).withRemoveOnChange(null);
        // 2,000 req/s for 5 s: on round robin b (100 ms) holds about 67 requests, a and c (10 ms) about 7
        SideBySideReport r = SideBySide.run(s, SimTrace.generate(10_000, 2000, new KeyDistribution.Uniform(100), 0, 5));

        StrategyResult rr = r.result("round-robin");
        assertThat(rr.requestsPerBackend().get("b")).isBetween(3333L, 3334L);
        assertThat(rr.p99Ms()).isEqualTo(100.0);
        assertThat(rr.p50Ms()).isEqualTo(10.0);
        assertThat(rr.peakInFlight().get("b")).isGreaterThan(40);
        assertThat(rr.peakInFlight().get("a")).isLessThan(25);
        for (String loadAware : List.of("least-requests", "power-of-two", "fastest-response")) {
            StrategyResult x = r.result(loadAware);
            assertThat(x.requestsPerBackend().get("b")).as(loadAware).isLessThan(2000L);
            assertThat(x.meanMs()).as(loadAware).isLessThan(rr.meanMs());
            assertThat(x.unrouted()).isZero();
        }
        assertThat(rr.keysMoved()).isNull();
        assertThat(rr.keysMovedMethod()).isEqualTo("N/A");
    }

    @Test
    void removingABackendMovesOnlyItsKeysOnTheRingButMostKeysWithModuloAndRoundRobin() {
        List<SimBackend> four = List.of(SimBackend.of("a", 1, 1), SimBackend.of("b", 1, 1), SimBackend.of("c", 1, 1),
                SimBackend.of("d", 1, 1));
        SideBySide.Settings s = SideBySide.Settings.of(four).withStrategies(List.of(StrategySpec.of("consistent-hash"),
                StrategySpec.of("maglev"), StrategySpec.of("ip-hash"), StrategySpec.of("round-robin")));
        SideBySideReport r = SideBySide.run(s, SimTrace.generate(4000, 1000, new KeyDistribution.Uniform(2000), 0, 9));

        assertThat(r.removedBackend()).isEqualTo("d");
        assertThat(r.idealMovedFraction()).isEqualTo(0.25);
        StrategyResult ring = r.result("consistent-hash");
        assertThat(ring.keysMovedMethod()).isEqualTo("key-map");
        assertThat(ring.keysMovedNeedlessly()).isZero(); // only d's keys move
        // about 1,750 distinct keys; d's share of a 160-point-per-backend ring is 0.25 give or take a few percent
        assertThat(ring.keysMoved()).isCloseTo(0.25, within(0.06));
        StrategyResult maglev = r.result("maglev");
        assertThat(maglev.keysMoved()).isCloseTo(0.25, within(0.06));
        assertThat(maglev.keysMovedNeedlessly()).isLessThan(0.05);
        // modulo over 4 then 3: a key stays only when h mod 4 == h mod 3 for its bucket, about 1 key in 4... or less
        assertThat(r.result("ip-hash").keysMovedNeedlessly()).isGreaterThan(0.3);
        StrategyResult rr = r.result("round-robin");
        assertThat(rr.keysMovedMethod()).isEqualTo("replay");
        assertThat(rr.keysMoved()).isGreaterThan(0.5);
        assertThat(r.result("naive-weighted-round-robin").keysMovedMethod()).isEqualTo("replay");
    }

    @Test
    void theCsvHasAHeaderAndOneRowPerStrategyWithTheReportedFigures() {
        SideBySide.Settings s = SideBySide.Settings.of(WEIGHTED)
                .withStrategies(List.of(StrategySpec.of("round-robin"), StrategySpec.of("consistent-hash"),
                        StrategySpec.bare("consistent-hash").with("key", "ip").with("balanceFactor", 1.25)));
        SideBySideReport r = SideBySide.run(s, SimTrace.generate(700, 100, new KeyDistribution.Uniform(50), 0, 1));
        String[] lines = r.toCsv().split("\n", -1);

        assertThat(lines).hasSize(1 + 4 + 1); // header, 4 rows, the empty string after the last \n
        assertThat(lines[lines.length - 1]).isEmpty();
        assertThat(lines[0]).isEqualTo("strategy,requests_a,requests_b,requests_c,unrouted,max_avg_ratio,"
                + "max_avg_weighted_ratio,p50_ms,p99_ms,mean_ms,longest_run,longest_run_backend,keys_moved,"
                + "keys_moved_needlessly,keys_moved_method");
        assertThat(lines[1]).startsWith("round-robin,234,233,233,0,1.003,");
        assertThat(lines[1]).endsWith(",replay");
        assertThat(lines[2]).startsWith("consistent-hash(key=ip virtualNodes=160),");
        assertThat(lines[3]).startsWith("consistent-hash(key=ip balanceFactor=1.25 virtualNodes=160),");
        assertThat(lines[4]).startsWith("naive-weighted-round-robin,500,100,100,0,2.143,1.000,10.000,10.000,10.000,5,a,");
        for (int i = 1; i <= 4; i++) {
            String[] cells = lines[i].split(",");
            assertThat(cells).hasSize(15);
            StrategyResult row = r.results().get(i - 1);
            assertThat(Long.parseLong(cells[1]) + Long.parseLong(cells[2]) + Long.parseLong(cells[3])
                    + Long.parseLong(cells[4])).isEqualTo(700);
            assertThat(Double.parseDouble(cells[8])).isEqualTo(Math.round(row.p99Ms() * 1000) / 1000.0);
            assertThat(Double.parseDouble(cells[12])).isCloseTo(row.keysMoved(), within(0.0005));
        }
        assertThat(SideBySideReport.cell("a,b")).isEqualTo("\"a,b\"");
    }

    @Test
    void progressIsReportedPerStrategyAndEndsComplete() {
        List<SideBySide.Progress> seen = new ArrayList<>();
        SideBySide.Settings s = SideBySide.Settings.of(EVEN).withStrategies(List.of(StrategySpec.of("round-robin")));
        SideBySide.run(s, SimTrace.generate(2500, 100, new KeyDistribution.Uniform(5), 0, 1), seen::add);
        assertThat(seen).extracting(SideBySide.Progress::strategy).containsOnly("round-robin",
                "naive-weighted-round-robin");
        assertThat(seen).extracting(SideBySide.Progress::fraction).isSorted();
        assertThat(seen.get(seen.size() - 1).fraction()).isEqualTo(1.0);
        assertThat(seen).extracting(SideBySide.Progress::done).contains(1000L, 2000L, 2500L);
    }

    @Test
    void aPoolWithEveryWeightZeroLeavesEveryRequestUnrouted() {
        List<SimBackend> zero = List.of(SimBackend.of("a", 0, 1), SimBackend.of("b", 0, 1));
        SideBySideReport r = SideBySide.run(SideBySide.Settings.of(zero)
                .withStrategies(List.of(StrategySpec.of("least-requests"))), SimTrace.generate(10, 10,
                new KeyDistribution.Uniform(3), 0, 1));
        assertThat(r.result("least-requests").unrouted()).isEqualTo(10);
        assertThat(r.result("naive-weighted-round-robin").unrouted()).isEqualTo(10);
        assertThat(r.result("least-requests").longestRunBackend()).isNull();
        assertThat(r.toCsv()).contains("least-requests,0,0,10,0.000,0.000,0.000,0.000,0.000,0,N/A,");
    }

    @Test
    void anInterruptedRunIsCancelled() {
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> SideBySide.run(SideBySide.Settings.of(EVEN),
                    SimTrace.generate(10, 10, new KeyDistribution.Uniform(3), 0, 1)))
                    .isInstanceOf(CancellationException.class);
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void settingsAndTracesNameTheFieldAndValueWhenInvalid() {
        assertThatThrownBy(() -> SideBySide.Settings.of(List.of(SimBackend.of("a", 1, 1))).withRemoveOnChange("x"))
                .hasMessage("removeOnChange: no such backend (got: x)");
        assertThatThrownBy(() -> SimBackend.of("a", -3, 1)).hasMessage("weight: must be between 0 and 1000 (got: -3)");
        assertThatThrownBy(() -> SimTrace.generate(0, 1, new KeyDistribution.Uniform(1), 0, 1))
                .hasMessage("requests: must be between 1 and 5000000 (got: 0)");
    }
}
