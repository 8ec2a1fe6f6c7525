package dev.fulcrum.engine.strategy;

import static dev.fulcrum.engine.strategy.StrategyFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.BackendMetrics;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The built-ins that draw say what they drew and scored when a request's decision is recorded
 * ({@link RequestContext#decisions()}), and cost nothing when it is not: the same picks, and no allocation.
 */
class DecisionDrawsTest {
    /** What a strategy wrote, in order. */
    private static final class Written implements DecisionLog {
        final List<Double> draws = new ArrayList<>();
        final List<String> scores = new ArrayList<>();
        final List<String> fallbacks = new ArrayList<>();

        @Override
        public void score(Backend backend, double score, String fallback) {
            scores.add(backend.id() + "=" + Math.round(score * 1000) / 1000.0 + (fallback == null ? "" : " " + fallback));
        }

        @Override
        public void draw(double value) {
            draws.add(value);
        }

        @Override
        public void fallback(String reason) {
            fallbacks.add(reason);
        }
    }

    /** A request whose decision is recorded into {@code log}. */
    private static RequestContext logged(DecisionLog log) {
        return new LoggedRequest(SimpleRequest.get("127.0.0.1", "/"), log);
    }

    @Test
    void weightedRandomRecordsItsDrawWhichLandsInThePickedSegment() {
        Candidates c = of("a", 1, "b", 3);
        Strategy s = create(StrategySpec.of(StrategySpec.WEIGHTED_RANDOM), c, 7);
        for (int i = 0; i < 200; i++) {
            Written w = new Written();
            Backend picked = s.pick(logged(w), Eligibility.ADMITTING);
            assertThat(w.draws).hasSize(1);
            double d = w.draws.get(0);
            assertThat(d).isBetween(0.0, 1.0).isNotEqualTo(1.0);
            // a holds [0, 0.25) of the weight line, b [0.25, 1)
            assertThat(picked.id()).isEqualTo(d < 0.25 ? "a" : "b");
            assertThat(w.scores).as("weighted random scores nothing").isEmpty();
        }
    }

    @Test
    void recordingChangesNoPick() {
        Candidates c = of("a", 1, "b", 2, "c", 3);
        for (String type : List.of(StrategySpec.RANDOM, StrategySpec.WEIGHTED_RANDOM, StrategySpec.POWER_OF_TWO,
                StrategySpec.ADAPTIVE)) {
            Strategy quiet = create(StrategySpec.of(type), c, 11);
            Strategy recorded = create(StrategySpec.of(type), c, 11);
            for (int i = 0; i < 100; i++) {
                assertThat(recorded.pick(logged(new Written()), Eligibility.ADMITTING).id()).as(type)
                        .isEqualTo(quiet.pick(ANY, Eligibility.ADMITTING).id());
            }
        }
    }

    @Test
    void randomRecordsOneDrawAsAFractionOfTheCandidates() {
        Candidates c = of("a", 1, "b", 1, "c", 1, "d", 1);
        Strategy s = create(StrategySpec.of(StrategySpec.RANDOM), c, 3);
        Written w = new Written();
        Backend picked = s.pick(logged(w), Eligibility.ADMITTING);
        assertThat(w.draws).hasSize(1);
        assertThat(List.of("a", "b", "c", "d").get((int) Math.round(w.draws.get(0) * 4))).isEqualTo(picked.id());
    }

    @Test
    void powerOfTwoRecordsBothDrawsAndTheLoadOfEachDrawnBackend() {
        Candidates c = of("a", 1, "b", 1, "c", 1);
        hold(c.get(0), 2);
        hold(c.get(1), 1);
        hold(c.get(2), 3);
        Strategy s = create(StrategySpec.of(StrategySpec.POWER_OF_TWO), c, 5);
        for (int i = 0; i < 50; i++) {
            Written w = new Written();
            Backend picked = s.pick(logged(w), Eligibility.ADMITTING);
            assertThat(w.draws).hasSize(2);
            assertThat(w.scores).hasSize(2);
            // the score is in-flight per unit of weight; the winner has the lower one
            String winner = w.scores.stream().min((x, y) -> Double.compare(Double.parseDouble(x.split("=")[1]),
                    Double.parseDouble(y.split("=")[1]))).orElseThrow();
            assertThat(winner).startsWith(picked.id() + "=");
            assertThat(w.scores).allSatisfy(sc -> assertThat(sc).isIn("a=2.0", "b=1.0", "c=3.0"));
        }
    }

    @Test
    void adaptiveRecordsEveryScoreWithStaleAndMissingFallbacksAndItsDraw() {
        Candidates c = of("a", 1, "b", 1, "c", 1, "silent", 1);
        c.get(0).reportMetrics(new BackendMetrics(1.0, 10, 100, CLOCK.nanos()));
        CLOCK.advanceMillis(9_000);
        c.get(1).reportMetrics(new BackendMetrics(0.0, 0, 0, CLOCK.nanos()));
        c.get(2).reportMetrics(new BackendMetrics(0.5, 5, 50, CLOCK.nanos()));
        Strategy s = create(StrategySpec.of(StrategySpec.ADAPTIVE), c, 9);
        CLOCK.advanceMillis(1_001); // a's report is now older than staleAfterMs (10,000)

        Written w = new Written();
        s.pick(logged(w), Eligibility.ADMITTING);

        // b 0 and c 1 are fresh; a (stale) and silent (missing) get their average
        assertThat(w.scores).containsExactly("a=0.5 stale", "b=0.0", "c=1.0", "silent=0.5 missing");
        assertThat(w.draws).hasSize(1);
        assertThat(w.fallbacks).isEmpty();
    }

    /**
     * With nothing recorded, a pick allocates nothing: the recording costs the request path one null check. Measured
     * on this thread's allocation counter over many picks after a warm-up; a recorded pick allocates, which shows the
     * counter sees what it should.
     */
    @Test
    void unrecordedPicksAllocateNothing() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Candidates c = of("a", 1, "b", 2, "c", 3, "d", 4);
        long tid = Thread.currentThread().getId();
        for (String type : List.of(StrategySpec.RANDOM, StrategySpec.WEIGHTED_RANDOM, StrategySpec.POWER_OF_TWO,
                StrategySpec.ADAPTIVE)) {
            Strategy s = create(StrategySpec.of(type), c, 1);
            RequestContext request = SimpleRequest.get("127.0.0.1", "/");
            for (int i = 0; i < 50_000; i++) {
                s.pick(request, Eligibility.ADMITTING); // warm-up: the JIT's own allocations happen here
            }
            long before = mx.getThreadAllocatedBytes(tid);
            for (int i = 0; i < 100_000; i++) {
                s.pick(request, Eligibility.ADMITTING);
            }
            long unrecorded = mx.getThreadAllocatedBytes(tid) - before;
            // the counter's own call allocates a little; 100,000 picks allocating even 8 bytes each would be 800 kB
            assertThat(unrecorded).as(type + ": bytes allocated by 100,000 unrecorded picks").isLessThan(16_384);

            Written w = new Written();
            RequestContext logged = logged(w);
            before = mx.getThreadAllocatedBytes(tid);
            for (int i = 0; i < 1_000; i++) {
                s.pick(logged, Eligibility.ADMITTING);
            }
            assertThat(mx.getThreadAllocatedBytes(tid) - before).as(type + ": recorded picks allocate")
                    .isGreaterThan(16_384);
        }
    }

    @Test
    void aDrawIsAFractionOfItsRange() {
        Written w = new Written();
        RandomSource r = RecordedDraws.of(new RandomSource() {
            @Override
            public int nextInt(int bound) {
                return 1;
            }

            @Override
            public long nextLong(long bound) {
                return 5;
            }

            @Override
            public double nextDouble() {
                return 0.3;
            }
        }, w);
        r.nextInt(4);
        r.nextLong(8);
        r.nextDouble();
        assertThat(w.draws).containsExactly(0.25, 0.625, 0.3);
        RandomSource plain = RandomSource.seeded(1);
        assertThat(RecordedDraws.of(plain, null)).isSameAs(plain);
    }
}
