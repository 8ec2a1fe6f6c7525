package dev.fulcrum.engine.strategy;

import static dev.fulcrum.engine.strategy.StrategyFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.BackendMetrics;
import dev.fulcrum.engine.TestBackends;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScoreStrategyTest {
    private static final int PICKS = 60_000;

    private static void report(Backend b, double cpu) {
        b.reportMetrics(new BackendMetrics(cpu, 0, 10, CLOCK.nanos()));
    }

    private static StrategySpec spec(String formula) {
        return StrategySpec.bare(StrategySpec.SCORE).with("score", formula);
    }

    private static double share(Map<String, Integer> n, String id) {
        return n.getOrDefault(id, 0) / (double) PICKS;
    }

    private static List<CandidateScore> scores(Strategy s) {
        return s.candidateScores();
    }

    // the worked example of ScoreStrategy's javadoc; sigma of a share over 60,000 picks is at most 0.2 points,
    // so 1.5 points is more than 7 sigma
    @Test
    void weightedRandomPicksInProportionToTheScoreAndAMissingOneGetsTheAverage() {
        Candidates c = of("a", 1, "b", 1, "c", 1);
        report(c.get(0), 0.2);
        report(c.get(1), 0.6);
        Strategy s = create(spec("1 - cpu"), c, 1);
        assertThat(scores(s)).extracting(CandidateScore::score).containsExactly(0.8, 0.4, 0.6000000000000001);
        assertThat(scores(s)).extracting(CandidateScore::fallback).containsExactly(null, null, "missing");
        Map<String, Integer> n = counts(s, PICKS);
        assertThat(share(n, "a")).isCloseTo(0.8 / 1.8, within(0.015));
        assertThat(share(n, "b")).isCloseTo(0.4 / 1.8, within(0.015));
        assertThat(share(n, "c")).isCloseTo(0.6 / 1.8, within(0.015));
    }

    @Test
    void aColdBackendGetsAtMostItsShareOfAnEqualShareAndTheRestGoesToTheWarmOnes() {
        Candidates c = of("a", 1, "b", 1, "c", 1);
        report(c.get(0), 0.2);
        report(c.get(1), 0.6);
        TestBackends.joinedAt(c.get(2), CLOCK.nanos() - 10_000_000_000L); // 10 s ago, cold for 120 s
        Strategy s = create(spec("1 - cpu"), c, 2);
        assertThat(scores(s)).extracting(CandidateScore::cold).containsExactly(false, false, true);
        Map<String, Integer> n = counts(s, PICKS);
        assertThat(share(n, "c")).isCloseTo(0.2 / 3, within(0.01));
        assertThat(share(n, "a")).isCloseTo((1 - 0.2 / 3) * 2 / 3, within(0.015));
        assertThat(share(n, "b")).isCloseTo((1 - 0.2 / 3) / 3, within(0.015));
        CLOCK.advanceMillis(110_001); // 120 s after it joined: warm
        assertThat(scores(s)).extracting(CandidateScore::cold).containsExactly(false, false, false);
        assertThat(share(counts(s, PICKS), "c")).isCloseTo(0.6 / 1.8, within(0.015));
    }

    @Test
    void aBackendAddedToTheRunningPoolIsColdFromWhenItJoinedAndThoseConfiguredAtStartAreNot() {
        dev.fulcrum.time.ManualClock clock = new dev.fulcrum.time.ManualClock();
        try (dev.fulcrum.engine.Engine engine = dev.fulcrum.engine.Engine.manual(
                dev.fulcrum.engine.EngineSettings.DEFAULT, clock, RandomSource.seeded(1))) {
            engine.addPool("p", spec("1"));
            engine.addBackend("p", new dev.fulcrum.engine.BackendSpec("a", "http://127.0.0.1:1", 1, null, false), false);
            clock.advanceMillis(60_000);
            engine.addBackend("p", new dev.fulcrum.engine.BackendSpec("b", "http://127.0.0.1:2", 1, null, false), true);
            clock.advanceMillis(119_999);
            assertThat(engine.pool("p").snapshot().primary().candidateScores()).extracting(CandidateScore::cold)
                    .containsExactly(false, true);
            clock.advanceMillis(1);
            assertThat(engine.pool("p").snapshot().primary().candidateScores()).extracting(CandidateScore::cold)
                    .containsExactly(false, false);
        }
    }

    @Test
    void aBackendPresentWhenThePoolStartedIsNeverCold() {
        Candidates c = of("a", 1, "b", 1);
        Strategy s = create(spec("1"), c, 3);
        assertThat(scores(s)).extracting(CandidateScore::cold).containsExactly(false, false);
    }

    @Test
    void whenEveryBackendIsColdNobodyIsCapped() {
        Candidates c = of("a", 1, "b", 1);
        TestBackends.joinedAt(c.get(0), CLOCK.nanos());
        TestBackends.joinedAt(c.get(1), CLOCK.nanos());
        Map<String, Integer> n = counts(create(spec("1"), c, 4), PICKS);
        assertThat(share(n, "a")).isCloseTo(0.5, within(0.015));
    }

    @Test
    void bestTakesTheHighestScoreWithTiesToTheSmallerId() {
        Candidates c = of("a", 1, "b", 1, "c", 1);
        report(c.get(0), 0.5);
        report(c.get(1), 0.1);
        report(c.get(2), 0.1);
        Strategy s = create(spec("1 - cpu").with("pick", "best"), c, 5);
        assertThat(sequence(s, 5)).containsOnly("b");
        // b cannot take it: the next best
        assertThat(s.pick(ANY, except(c.get(1))).id()).isEqualTo("c");
        assertThat(s.pick(ANY, except(c.get(1), c.get(2))).id()).isEqualTo("a");
    }

    // a retry that leaves out a, scores all equal, d cold (its chance 0.2 where its share is 0.25): d stands on 5% of the
    // first draws; when a is drawn (25%), the draw goes among b, c and d, where d gets at most 0.2 of an equal share of
    // the three, 1/15; when d was refused and the redraw among the warm lands on a, d is not drawn again. So d takes
    // 0.05 + 0.25 / 15 = 1/15 of the retries, its cap among the eligible. Drawn there without its cap it took 0.154.
    @Test
    void aRetryKeepsTheColdBackendAtItsCap() {
        Candidates c = of("a", 1, "b", 1, "c", 1, "d", 1);
        TestBackends.joinedAt(c.get(3), CLOCK.nanos());
        Map<String, Integer> n = counts(create(spec("1"), c, 8), PICKS, () -> ANY, except(c.get(0)));
        assertThat(share(n, "a")).isZero();
        assertThat(share(n, "d")).isCloseTo(0.2 / 3, within(0.004));
    }

    // best: a scores 1, d 0.9 (cold), b and c 0.5; a retry leaving out a finds d best among the eligible, which stands
    // with 0.2 of an equal share of the three; otherwise b (ties go to the smaller index). Uncapped it took every one.
    @Test
    void aRetryUnderBestKeepsTheColdBackendAtItsCap() {
        Candidates c = of("a", 1, "b", 1, "c", 1, "d", 1);
        report(c.get(0), 0);
        report(c.get(1), 0.5);
        report(c.get(2), 0.5);
        report(c.get(3), 0.1);
        TestBackends.joinedAt(c.get(3), CLOCK.nanos());
        Map<String, Integer> n = counts(create(spec("1 - cpu").with("pick", "best"), c, 9), PICKS, () -> ANY,
                except(c.get(0)));
        assertThat(share(n, "d")).isCloseTo(0.2 / 3, within(0.004));
        assertThat(share(n, "b")).isCloseTo(1 - 0.2 / 3, within(0.004));
    }

    @Test
    void aColdBestBackendTakesOnlyItsCap() {
        Candidates c = of("a", 1, "b", 1);
        report(c.get(0), 0.5);
        report(c.get(1), 0.1);
        TestBackends.joinedAt(c.get(1), CLOCK.nanos());
        Map<String, Integer> n = counts(create(spec("1 - cpu").with("pick", "best"), c, 6), PICKS);
        assertThat(share(n, "b")).isCloseTo(0.2 / 2, within(0.01));
        assertThat(share(n, "a")).isCloseTo(0.9, within(0.01));
    }

    // two draws with replacement, weighted 0.5, 0.3, 0.2: c wins only against itself (0.04), b against itself or c
    // (0.09 + 2 x 0.3 x 0.2 = 0.21), a the rest (0.75)
    @Test
    void twoChoicesDrawsTwiceByScoreAndTheHigherWins() {
        Candidates c = of("a", 1, "b", 1, "c", 1);
        report(c.get(0), 0.5);
        report(c.get(1), 0.7);
        report(c.get(2), 0.8);
        Map<String, Integer> n = counts(create(spec("1 - cpu").with("pick", "two-choices"), c, 7), PICKS);
        assertThat(share(n, "a")).isCloseTo(0.75, within(0.015));
        assertThat(share(n, "b")).isCloseTo(0.21, within(0.015));
        assertThat(share(n, "c")).isCloseTo(0.04, within(0.01));
    }

    @Test
    void aScoreAtOrBelowZeroIsNeverPickedWhileAnotherScoresAboveIt() {
        Candidates c = of("a", 1, "b", 1, "c", 1);
        report(c.get(0), 0.9); // 0.4
        report(c.get(1), 0.2); // -0.3
        report(c.get(2), 0.5); // 0
        for (String pick : ScoreStrategy.PICKS) {
            assertThat(counts(create(spec("cpu - 0.5").with("pick", pick), c, 8), 5_000)).as(pick)
                    .containsOnlyKeys("a");
        }
    }

    @Test
    void whenNoneScoresAboveZeroEachIsEquallyLikely() {
        Candidates c = of("a", 1, "b", 1);
        Map<String, Integer> n = counts(create(spec("-1"), c, 9), PICKS);
        assertThat(share(n, "a")).isCloseTo(0.5, within(0.015));
    }

    @Test
    void missingExcludeLeavesTheBackendOutAndANumberStandsIn() {
        Candidates c = of("a", 1, "b", 1, "silent", 1);
        report(c.get(0), 0.2);
        report(c.get(1), 0.6);
        Strategy excluded = create(spec("1 - cpu").with("missing", "exclude"), c, 10);
        assertThat(counts(excluded, 10_000)).containsOnlyKeys("a", "b");
        assertThat(scores(excluded).get(2)).isEqualTo(new CandidateScore("silent", null, "missing", false));
        // only silent can take it: excluded means never picked
        assertThat(excluded.pick(ANY, except(c.get(0), c.get(1)))).isNull();
        Strategy fixed = create(spec("1 - cpu").with("missing", 0.05), c, 11);
        assertThat(scores(fixed).get(2)).isEqualTo(new CandidateScore("silent", 0.05, "missing", false));
    }

    @Test
    void whenEveryBackendIsExcludedEachIsEquallyLikely() {
        Candidates c = of("a", 1, "b", 1);
        Map<String, Integer> n = counts(create(spec("cpu").with("missing", "exclude"), c, 12), PICKS);
        assertThat(share(n, "a")).isCloseTo(0.5, within(0.015));
    }

    @Test
    void aReportOlderThanStaleAfterMsIsStaleAndOnlyWhenTheFormulaReadsCpu() {
        Candidates c = of("a", 1, "b", 1);
        report(c.get(0), 0.2);
        report(c.get(1), 0.6);
        Strategy s = create(spec("1 - cpu").with("staleAfterMs", 5_000L), c, 13);
        Strategy noCpu = create(spec("2"), c, 13);
        assertThat(scores(s)).extracting(CandidateScore::fallback).containsExactly(null, null);
        CLOCK.advanceMillis(3_000);
        report(c.get(1), 0.6);
        CLOCK.advanceMillis(2_001); // a's report is 5,001 ms old
        assertThat(scores(s)).extracting(CandidateScore::fallback).containsExactly("stale", null);
        assertThat(scores(s).get(0).score()).isCloseTo(0.4, within(1e-9)); // b's, the average of the others
        assertThat(scores(noCpu)).extracting(CandidateScore::fallback).containsExactly(null, null);
        assertThat(scores(noCpu)).extracting(CandidateScore::score).containsExactly(2.0, 2.0);
    }

    @Test
    void aLabelTheBackendLacksMakesItMissingAndANewLabelIsSeen() {
        Candidates c = of("a", 1, "b", 1);
        TestBackends.relabel(c.get(0), Map.of("cost", "2", "tier", "spot"));
        Strategy s = create(spec("if(label.tier == \"spot\", 0.5, 1) * label.cost"), c, 14);
        assertThat(scores(s)).containsExactly(new CandidateScore("a", 1.0, null, false),
                new CandidateScore("b", 1.0, "missing", false));
        TestBackends.relabel(c.get(1), Map.of("cost", "3", "tier", "on-demand"));
        assertThat(scores(s)).containsExactly(new CandidateScore("a", 1.0, null, false),
                new CandidateScore("b", 3.0, null, false));
    }

    @Test
    void liveFiguresAreReadAgainAfterAMillisecondAndNotBefore() {
        Candidates c = of("a", 1, "b", 1);
        Strategy s = create(spec("10 - inflight"), c, 15);
        assertThat(scores(s)).extracting(CandidateScore::score).containsExactly(10.0, 10.0);
        hold(c.get(0), 4);
        assertThat(scores(s)).extracting(CandidateScore::score).containsExactly(10.0, 10.0);
        CLOCK.advanceMillis(1);
        assertThat(scores(s)).extracting(CandidateScore::score).containsExactly(6.0, 10.0);
        for (int i = 0; i < 4; i++) {
            TestBackends.releaseSlot(c.get(0));
        }
    }

    @Test
    void weightsErrorRateAndLatencyAreTheBackendsOwn() {
        Candidates c = over(List.of(backend("a"), backend("b")), 3, 1);
        c.get(0).ewma().observe(250_000_000L); // 250 ms
        for (int i = 0; i < 4; i++) {
            c.get(1).breaker().record(dev.fulcrum.engine.breaker.CircuitBreaker.Call.SUCCESS);
        }
        c.get(1).breaker().record(dev.fulcrum.engine.breaker.CircuitBreaker.Call.FAILURE);
        Strategy s = create(spec("effectiveWeight * 1000 + errorRate * 100 + latency"), c, 16);
        assertThat(scores(s).get(0).score()).isCloseTo(3000.0 + 250, within(1.0));
        assertThat(scores(s).get(1).score()).isCloseTo(1000 + 20, within(1e-9));
    }

    @Test
    void pickRecordsEveryScoreAndDrawWhenAskedAndExplainMovesNothing() {
        Candidates c = of("a", 1, "b", 1, "c", 1);
        report(c.get(0), 0.2);
        report(c.get(1), 0.6);
        List<String> log = new ArrayList<>();
        DecisionLog d = new DecisionLog() {
            @Override
            public void score(Backend backend, double score, String fallback) {
                log.add(backend.id() + "=" + Math.round(score * 100) / 100.0 + (fallback == null ? "" : " " + fallback));
            }

            @Override
            public void draw(double value) {
                log.add("draw");
            }

            @Override
            public void fallback(String reason) {
                log.add("fallback " + reason);
            }
        };
        RequestContext asked = asking(d);
        Strategy s = create(spec("1 - cpu").with("pick", "two-choices"), c, 17);
        s.pick(asked, Eligibility.ADMITTING);
        assertThat(log).containsExactly("a=0.8", "b=0.4", "c=0.6 missing", "draw", "draw");

        // explain draws from the random it is given, so the same seed gives the same account, and the strategy's
        // own sequence goes on as if nothing had been explained
        Strategy twin = create(spec("1 - cpu").with("pick", "two-choices"), c, 17);
        Explanation e1 = s.explain(ANY, RandomSource.seeded(99));
        Explanation e2 = s.explain(ANY, RandomSource.seeded(99));
        assertThat(e1).isEqualTo(e2);
        assertThat(e1.draws()).hasSize(2).contains(e1.picked().id());
        twin.pick(ANY, Eligibility.ADMITTING); // s picked once above
        assertThat(sequence(s, 20)).isEqualTo(sequence(twin, 20));
    }

    /** A request whose decision is being recorded into {@code d}. */
    static RequestContext asking(DecisionLog d) {
        SimpleRequest r = SimpleRequest.get("127.0.0.1", "/");
        return new RequestContext() {
            public String clientIp() {
                return r.clientIp();
            }

            public String method() {
                return r.method();
            }

            public String path() {
                return r.path();
            }

            public String header(String name) {
                return r.header(name);
            }

            public String cookie(String name) {
                return r.cookie(name);
            }

            public String queryParam(String name) {
                return r.queryParam(name);
            }

            @Override
            public DecisionLog decisions() {
                return d;
            }
        };
    }

    // not a timing threshold: the bytes this thread allocated over a million picks once the table is built
    @Test
    void pickingAllocatesNothing() {
        Candidates c = equal(10);
        for (int i = 0; i < 10; i++) {
            report(c.get(i), i / 10.0);
        }
        for (String pick : ScoreStrategy.PICKS) {
            Strategy s = create(StrategySpec.of(StrategySpec.SCORE).with("pick", pick), c, 18);
            com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            int sink = 0;
            long allocated = Long.MAX_VALUE;
            // the least of three rounds: a round may take in what the JIT allocates once on this thread
            for (int round = 0; round < 3; round++) {
                long before = mx.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < 1_000_000; i++) {
                    sink += s.pick(ANY, Eligibility.ADMITTING).id().length();
                }
                allocated = Math.min(allocated, mx.getCurrentThreadAllocatedBytes() - before);
            }
            assertThat(sink).isPositive();
            assertThat(allocated).as(pick + ": bytes over 1,000,000 picks").isZero();
        }
    }

    @Test
    void anEmptyPoolPicksNothing() {
        Strategy s = create(StrategySpec.SCORE, Candidates.EMPTY);
        assertThat(s.pick(ANY, Eligibility.ADMITTING)).isNull();
        assertThat(s.explain(ANY, RandomSource.seeded(1)).picked()).isNull();
        assertThat(s.candidateScores()).isEmpty();
    }

    @Test
    void everyBadSettingIsRefusedNamingTheFieldPositionAndValue() {
        assertThat(Strategies.validate(spec("1 - cpux")))
                .containsExactly("score: unknown variable 'cpux' at column 5 (got: \"1 - cpux\")");
        assertThat(Strategies.validate(StrategySpec.bare("score").with("pick", "fastest")))
                .containsExactly("pick: must be one of weighted-random, best, two-choices (got: fastest)");
        assertThat(Strategies.validate(StrategySpec.bare("score").with("missing", "zero")))
                .containsExactly("missing: must be a number or one of average, exclude (got: zero)");
        assertThat(Strategies.validate(StrategySpec.bare("score").with("missing", List.of())))
                .containsExactly("missing: must be a number or a string (got: [])");
        assertThat(Strategies.validate(StrategySpec.bare("score").with("coldStartShare", 1.5)))
                .containsExactly("coldStartShare: must be between 0 and 1 (got: 1.5)");
        assertThat(Strategies.validate(StrategySpec.bare("score").with("coldStartMs", -1L)))
                .containsExactly("coldStartMs: must be at least 0 (got: -1)");
        assertThat(Strategies.validate(StrategySpec.bare("score").with("score", 3)))
                .containsExactly("score: must be a string (got: 3)");
        assertThat(Strategies.validate(StrategySpec.of("score"))).isEmpty();
    }
}
