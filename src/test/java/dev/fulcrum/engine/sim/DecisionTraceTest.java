package dev.fulcrum.engine.sim;

import dev.fulcrum.engine.Lease;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.Outcome;
import dev.fulcrum.engine.DecisionTrace;
import dev.fulcrum.engine.DecisionTrace.Filtered;
import dev.fulcrum.engine.DecisionTrace.Reason;
import dev.fulcrum.engine.strategy.SimpleRequest;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DecisionTraceTest {
    /** A breaker that opens after 4 calls at 50% failures; outlier detection off so only the breaker reacts. */
    private static final EngineSettings SETTINGS = EngineSettings.DEFAULT
            .withBreaker(new BreakerSpec(true, 4, 4, 50, 2000, 100, 10_000, 1))
            .withOutlier(EngineSettings.OutlierSpec.DISABLED);

    private static Engine engineWith(StrategySpec spec, String... ids) {
        Engine e = Engine.manual(SETTINGS, SideBySide.simulatedClock(), RandomSource.seeded(5));
        e.addPool(Engine.DEFAULT_POOL, spec);
        int port = 9001;
        for (String id : ids) {
            e.addBackend(Engine.DEFAULT_POOL, new BackendSpec(id, "http://127.0.0.1:" + port++, 1, null, false), false);
        }
        return e;
    }

    private static SimpleRequest user(String name) {
        return new SimpleRequest("10.0.0.9", "GET", "/", Map.of("X-User", name), Map.of(), Map.of());
    }

    @Test
    void namesEachFilteredBackendWithExactlyItsReasonAndPicksAmongTheRest() {
        Engine e = engineWith(StrategySpec.bare("consistent-hash").with("key", "header:X-User"), "a", "b", "c", "d", "e", "f");
        Pool pool = e.pool(Engine.DEFAULT_POOL);
        // given: b draining with a request still in flight, c at weight 0, d DOWN after `fall` failed probes,
        // e's breaker OPEN after four failed calls
        Lease held = pool.tryLease("b");
        e.drain("b");
        e.setWeight("c", 0);
        for (int i = 0; i < SETTINGS.fall(); i++) {
            e.reportProbe("d", false);
        }
        for (int i = 0; i < 4; i++) {
            pool.tryLease("e").release(Outcome.SERVER_ERROR);
        }

        // when
        DecisionTrace t = DecisionTrace.explain(pool, user("alice"));

        // then
        assertThat(t.filtered()).containsExactly(new Filtered("b", List.of(Reason.DRAINING)),
                new Filtered("c", List.of(Reason.WEIGHT_ZERO)), new Filtered("d", List.of(Reason.DOWN)),
                new Filtered("e", List.of(Reason.BREAKER_OPEN)));
        assertThat(t.candidates()).extracting(DecisionTrace.Candidate::backend).containsExactly("a", "f");
        assertThat(t.candidates()).allSatisfy(c -> {
            assertThat(c.weight()).isEqualTo(1);
            assertThat(c.effectiveWeight()).isEqualTo(100);
            assertThat(c.inFlight()).isZero();
            assertThat(c.admitting()).isTrue();
        });
        assertThat(t.strategy()).isEqualTo("consistent-hash");
        assertThat(t.hashKey()).isEqualTo("header:X-User");
        assertThat(t.key()).isEqualTo("alice");
        assertThat(t.keyHash()).isEqualTo(pool.snapshot().primary().keySpace().hash("alice"));
        assertThat(t.placement().kind()).isEqualTo("ring");
        assertThat(t.placement().owner()).isEqualTo(pool.snapshot().primary().keySpace().owner("alice"));
        assertThat(t.picked()).isEqualTo(t.placement().owner()).isIn("a", "f");
        assertThat(t.summary()).contains("filtered out: b (DRAINING), c (WEIGHT_ZERO), d (DOWN), e (BREAKER_OPEN)")
                .contains("picked " + t.picked());
        // step mode takes no lease
        assertThat(pool.inFlight()).isEqualTo(1);
        held.release(Outcome.SUCCESS);

        // once b's last request ends it is DRAINED; enabling c's weight makes it a candidate again
        e.setWeight("c", 2);
        DecisionTrace after = DecisionTrace.explain(pool, user("alice"));
        assertThat(after.filtered()).extracting(Filtered::backend, Filtered::reasons).containsExactly(
                org.assertj.core.groups.Tuple.tuple("b", List.of(Reason.DRAINED)),
                org.assertj.core.groups.Tuple.tuple("d", List.of(Reason.DOWN)),
                org.assertj.core.groups.Tuple.tuple("e", List.of(Reason.BREAKER_OPEN)));
        assertThat(after.candidates()).extracting(DecisionTrace.Candidate::backend).containsExactly("a", "c", "f");
        assertThat(after.candidates().get(1).effectiveWeight()).isEqualTo(200);
    }

    @Test
    void aMemberCanBeFilteredForSeveralReasonsAtOnce() {
        Engine e = engineWith(StrategySpec.of("round-robin"), "a", "b");
        e.setWeight("b", 0);
        e.drain("b");
        DecisionTrace t = DecisionTrace.explain(e.pool(Engine.DEFAULT_POOL), SimpleRequest.get("10.0.0.1", "/"));
        assertThat(t.filtered()).containsExactly(new Filtered("b", List.of(Reason.DRAINED, Reason.WEIGHT_ZERO)));
        assertThat(t.hashKey()).isNull();
        assertThat(t.keyHash()).isNull();
        assertThat(t.placement()).isNull();
        assertThat(t.picked()).isEqualTo("a");
    }

    @Test
    void maglevAndIpHashShowTheirSlotAndWeightLinePosition() {
        Engine m = engineWith(StrategySpec.bare("maglev").with("key", "path").with("tableSize", 251), "a", "b", "c");
        Pool mp = m.pool(Engine.DEFAULT_POOL);
        DecisionTrace t = DecisionTrace.explain(mp, SimpleRequest.get("10.0.0.1", "/k/k7"));
        assertThat(t.key()).isEqualTo("/k/k7");
        assertThat(t.placement().kind()).isEqualTo("maglev");
        assertThat(t.placement().size()).isEqualTo(251);
        assertThat(t.placement().index()).isEqualTo(Long.remainderUnsigned(t.keyHash(), 251));
        assertThat(t.placement().owner()).isEqualTo(mp.snapshot().primary().keySpace().owner("/k/k7"));
        assertThat(t.picked()).isEqualTo(t.placement().owner());

        Engine ip = engineWith(StrategySpec.of("ip-hash"), "a", "b", "c");
        DecisionTrace u = DecisionTrace.explain(ip.pool(Engine.DEFAULT_POOL), SimpleRequest.get("192.0.2.7", "/"));
        assertThat(u.key()).isEqualTo("192.0.2.7");
        assertThat(u.placement().kind()).isEqualTo("weight-line");
        assertThat(u.placement().size()).isEqualTo(3);
        assertThat(u.picked()).isEqualTo(u.placement().owner());
        assertThat(u.summary()).contains("on the weight line belongs to " + u.picked());
    }

    @Test
    void powerOfTwoShowsItsTwoDrawsAndPicksTheLessLoadedOne() {
        Engine e = engineWith(StrategySpec.of("power-of-two"), "a", "b", "c", "d");
        Pool pool = e.pool(Engine.DEFAULT_POOL);
        List<Lease> busy = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            busy.add(pool.tryLease("a"));
        }
        RandomSource random = RandomSource.seeded(3);
        int sawA = 0;
        for (int i = 0; i < 40; i++) {
            DecisionTrace t = DecisionTrace.explain(pool, SimpleRequest.get("10.0.0.1", "/"), random);
            assertThat(t.draws()).hasSize(2).doesNotHaveDuplicates();
            assertThat(t.picked()).isIn(t.draws());
            if (t.draws().contains("a")) {
                sawA++;
                assertThat(t.picked()).isNotEqualTo("a"); // 3 in flight against 0
            }
            assertThat(t.summary()).contains("drew " + t.draws().get(0) + " and " + t.draws().get(1));
        }
        assertThat(sawA).isPositive();
        assertThat(pool.inFlight()).isEqualTo(3);
        assertThat(DecisionTrace.explain(pool, SimpleRequest.get("10.0.0.1", "/")).candidates())
                .filteredOn(c -> c.backend().equals("a")).extracting(DecisionTrace.Candidate::inFlight).containsExactly(3);
        busy.forEach(l -> l.release(Outcome.SUCCESS));
    }

    @Test
    void boundedLoadsPassOverAnOwnerAtTheCapAndSayWhy() {
        Engine e = engineWith(StrategySpec.bare("consistent-hash").with("key", "header:X-User").with("balanceFactor", 1.25), "a", "b", "c");
        Pool pool = e.pool(Engine.DEFAULT_POOL);
        String owner = pool.snapshot().primary().keySpace().owner("alice");
        DecisionTrace idle = DecisionTrace.explain(pool, user("alice"));
        assertThat(idle.boundedLoadCap()).isEqualTo(1); // ceil(1.25 x 1 / 3)
        assertThat(idle.picked()).isEqualTo(owner);

        // two requests in flight on the owner: cap = ceil(1.25 x 3 / 3) = 2, and the owner is at it
        Lease one = pool.tryLease(owner);
        Lease two = pool.tryLease(owner);
        DecisionTrace busy = DecisionTrace.explain(pool, user("alice"));
        assertThat(busy.boundedLoadCap()).isEqualTo(2);
        assertThat(busy.placement().owner()).isEqualTo(owner);
        assertThat(busy.picked()).isNotEqualTo(owner).isNotNull();
        assertThat(busy.summary()).contains("bounded loads: at most 2 in flight for " + owner)
                .contains("(" + owner + " was at the load cap or could not take it now)");
        one.release(Outcome.SUCCESS);
        two.release(Outcome.SUCCESS);

        Engine plain = engineWith(StrategySpec.of("consistent-hash"), "a", "b");
        assertThat(DecisionTrace.explain(plain.pool(Engine.DEFAULT_POOL), user("x")).boundedLoadCap()).isNull();
    }

    @Test
    void anEmptyPoolExplainsTheServiceUnavailable() {
        Engine e = engineWith(StrategySpec.of("least-requests"), "a");
        e.drain("a");
        DecisionTrace t = DecisionTrace.explain(e.pool(Engine.DEFAULT_POOL), SimpleRequest.get("10.0.0.1", "/"));
        assertThat(t.picked()).isNull();
        assertThat(t.candidates()).isEmpty();
        assertThat(t.summary()).isEqualTo("least-requests: filtered out: a (DRAINED); 0 candidates; no backend can take "
                + "the request (503).");
    }

    @Test
    void adaptiveScoresAndTheirStandInsAreInTheTrace() {
        Engine e = engineWith(StrategySpec.of(StrategySpec.ADAPTIVE), "a", "b", "c");
        Pool pool = e.pool(Engine.DEFAULT_POOL);
        var c = pool.snapshot().primaryCandidates();
        c.get(0).reportMetrics(new dev.fulcrum.engine.BackendMetrics(1.0, 10, 100, e.ticker().nanos()));
        c.get(1).reportMetrics(new dev.fulcrum.engine.BackendMetrics(0.0, 0, 0, e.ticker().nanos()));

        DecisionTrace t = DecisionTrace.explain(pool, user("alice"));

        // a scores 1 and b 0 of the fresh ones; c reported nothing and gets their average
        assertThat(t.scores()).containsExactly(new DecisionTrace.Scored("a", 1.0, null),
                new DecisionTrace.Scored("b", 0.0, null), new DecisionTrace.Scored("c", 0.5, "missing"));
        assertThat(t.fallbacks()).isEmpty();
        assertThat(t.summary()).contains("; scored a 1, b 0, c 0.5 (a stand-in: it reported no metrics)");
    }
}
