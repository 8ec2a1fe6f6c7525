package dev.fulcrum.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.strategy.Eligibility;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.time.ManualClock;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Pool#pick} with no decision asked for (the proxy with {@code proxy.logDecisions} off) allocates what a pick
 * always did, its {@link Lease}, and nothing for the decision; with one asked for, the pool tells it the candidates
 * and the backend picked.
 */
class PickDecisionCostTest {
    private Engine engine;

    @AfterEach
    void close() {
        if (engine != null) {
            engine.close();
        }
    }

    private Pool pool(String type) {
        engine = Engine.manual(EngineSettings.DEFAULT, new ManualClock(), RandomSource.seeded(3));
        engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(type));
        for (String id : List.of("a", "b", "c")) {
            engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec(id, "http://127.0.0.1:1", 1, null, false), false);
        }
        return engine.pool(Engine.DEFAULT_POOL);
    }

    /** What the pool told it, in order. */
    private static final class Told implements PickLog {
        final List<String> heard = new ArrayList<>();

        @Override
        public void considering(String strategy, Candidates candidates, Eligibility eligible, boolean backup) {
            heard.add(strategy + " " + candidates.backends().stream().map(Backend::id).toList());
        }

        @Override
        public void picked(Backend backend) {
            heard.add("picked " + (backend == null ? null : backend.id()));
        }

        @Override
        public void score(Backend backend, double score, String fallback) {
            heard.add("score " + backend.id());
        }

        @Override
        public void draw(double value) {
            heard.add("draw");
        }

        @Override
        public void fallback(String reason) {
            heard.add("fallback " + reason);
        }
    }

    @Test
    void aPickWithNoDecisionAskedForAllocatesOnlyItsLease() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        for (String type : List.of(StrategySpec.WEIGHTED_RANDOM, StrategySpec.POWER_OF_TWO, StrategySpec.ADAPTIVE,
                StrategySpec.RANDOM, StrategySpec.ROUND_ROBIN)) {
            Pool pool = pool(type);
            SimpleRequest request = SimpleRequest.get("127.0.0.1", "/");
            int n = 20_000;
            Lease[] held = new Lease[n];
            long[] picks = new long[3];
            long[] leases = new long[3];
            for (int round = 0; round < 3; round++) { // the first rounds warm the JIT up
                long before = mx.getThreadAllocatedBytes(tid);
                for (int i = 0; i < n; i++) {
                    held[i] = pool.pick(request);
                }
                picks[round] = mx.getThreadAllocatedBytes(tid) - before;
                release(held);
                before = mx.getThreadAllocatedBytes(tid);
                for (int i = 0; i < n; i++) {
                    held[i] = pool.tryLease("a"); // a lease and nothing else: the yardstick
                }
                leases[round] = mx.getThreadAllocatedBytes(tid) - before;
                release(held);
            }
            // a pick's own cost is its lease: 20,000 picks allocating even 8 bytes more each would be 160 kB more
            assertThat(picks[2]).as(type + ": bytes of 20,000 picks against 20,000 bare leases (%d)", leases[2])
                    .isLessThan(leases[2] + 16_384);
            engine.close();
            engine = null;
        }
    }

    private static void release(Lease[] held) {
        for (int i = 0; i < held.length; i++) {
            held[i].release(Outcome.SUCCESS);
            held[i] = null;
        }
    }

    @Test
    void aPickWithADecisionAskedForTellsItTheCandidatesTheDrawAndThePick() {
        Pool pool = pool(StrategySpec.WEIGHTED_RANDOM);
        Told told = new Told();
        SimpleRequest plain = SimpleRequest.get("127.0.0.1", "/");
        dev.fulcrum.engine.strategy.RequestContext asked = new dev.fulcrum.engine.strategy.LoggedRequest(plain, told);

        Lease l = pool.pick(asked);

        assertThat(told.heard).containsExactly("weighted-random [a, b, c]", "draw", "picked " + l.backend().id());
        l.release(Outcome.SUCCESS);
    }
}
