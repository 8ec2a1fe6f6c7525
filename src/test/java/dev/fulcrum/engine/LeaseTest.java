package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.strategy.StrategySpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A lease holds one in-flight slot and gives it back exactly once, however the attempt ends. */
@DisplayName("Lease")
class LeaseTest {
    static final RequestContext REQ = SimpleRequest.get("10.0.0.1", "/");

    final ManualClock clock = new ManualClock();

    Pool manualPool(String... ids) {
        Engine engine = Engine.manual(EngineSettings.DEFAULT, clock, RandomSource.seeded(1));
        Pool pool = engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        for (String id : ids) {
            engine.addBackend("default", new BackendSpec(id, "http://127.0.0.1:9000", 1, null, false), false);
        }
        return pool;
    }

    @Test
    void releasingTwiceCountsOnce() {
        Pool pool = manualPool("a");
        Lease lease = pool.pick(REQ);
        assertThat(lease.backend().inFlight()).isEqualTo(1);

        lease.release(Outcome.SERVER_ERROR);
        lease.release(Outcome.SERVER_ERROR);
        lease.release(Outcome.SUCCESS);

        assertThat(lease.isReleased()).isTrue();
        assertThat(lease.backend().inFlight()).isZero();
        assertThat(pool.inFlight()).isZero();
        assertThat(lease.backend().stats().totalRequests()).isEqualTo(1);
        assertThat(lease.backend().stats().failures()).isEqualTo(1);
    }

    @Test
    void inFlightReturnsToZeroAfterAnyMixOfOutcomes() {
        Pool pool = manualPool("a", "b");
        List<Lease> leases = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            leases.add(pool.pick(REQ));
        }
        assertThat(pool.inFlight()).isEqualTo(10);
        assertThat(leases).extracting(l -> l.backend().inFlight()).containsOnly(5);

        Outcome[] outcomes = Outcome.values();
        for (int i = 0; i < leases.size(); i++) {
            leases.get(i).release(outcomes[i % outcomes.length]);
        }

        assertThat(pool.inFlight()).isZero();
        assertThat(leases).extracting(l -> l.backend().inFlight()).containsOnly(0);
        long failures = leases.stream().map(Lease::backend).distinct().mapToLong(b -> b.stats().failures()).sum();
        assertThat(failures).as("SERVER_ERROR, CONNECT_FAILURE, TIMEOUT twice each").isEqualTo(6);
    }

    @Test
    void aLeaseKnowsItsBackendPoolAndStart() {
        Pool pool = manualPool("a");
        clock.advance(Duration.ofMillis(5));

        Lease lease = pool.pick(REQ);

        assertThat(lease.backend().id()).isEqualTo("a");
        assertThat(lease.pool()).isSameAs(pool);
        assertThat(lease.startNanos()).isEqualTo(clock.nanos());
        assertThat(lease.isReleased()).isFalse();
    }

    /**
     * Several request threads pick and release (some leases twice, some from another thread, every outcome,
     * with retries) while the control thread drains and enables a backend and breakers and ejections come
     * and go on their own. Afterwards every counter is back to 0 and every acquired lease was counted once.
     */
    @Test
    void concurrentPicksAndReleasesLeaveEveryCounterAtZero() throws Exception {
        BreakerSpec fastBreaker = new BreakerSpec(true, 10, 5, 50, 60_000, 100, 1, 2);
        EngineSettings settings = new EngineSettings(0, new EngineSettings.OutlierSpec(true, 3, 1, 50), fastBreaker,
                2, 3);
        int threads = 4;
        int leasesPerThread = 20_000;
        int maxAttempts = 2_000_000; // bounded even if the pool stayed closed

        ExecutorService workers = Executors.newFixedThreadPool(threads + 1);
        try (Engine engine = Engine.start(settings)) {
            Pool pool = engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
            engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, 2, false), false);
            engine.addBackend("default", new BackendSpec("b", "http://127.0.0.1:9002", 3, null, false), false);
            engine.addBackend("default", new BackendSpec("c", "http://127.0.0.1:9003", 2, 5, false), false);
            engine.addBackend("default", new BackendSpec("k", "http://127.0.0.1:9009", 1, null, true), false);
            ConcurrentLinkedQueue<Lease> handedOver = new ConcurrentLinkedQueue<>();
            AtomicLong acquired = new AtomicLong();
            CountDownLatch start = new CountDownLatch(1);
            CountDownLatch requestThreadsDone = new CountDownLatch(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long seed = t;
                done.add(workers.submit(() -> {
                    SplittableRandom r = new SplittableRandom(seed);
                    Outcome[] outcomes = Outcome.values();
                    // mostly successes so breakers and ejections come and go instead of closing the pool
                    java.util.function.Supplier<Outcome> outcome = () -> r.nextInt(100) < 88 ? Outcome.SUCCESS
                            : outcomes[r.nextInt(outcomes.length)];
                    start.await();
                    List<Lease> mine = new ArrayList<>();
                    int myLeases = 0;
                    for (int i = 0; i < maxAttempts && myLeases < leasesPerThread; i++) {
                        // requests in flight finish whether or not new ones find a backend
                        Lease other = handedOver.poll();
                        if (other != null) {
                            other.release(outcome.get());
                        }
                        if (mine.size() > 3 || !mine.isEmpty() && r.nextInt(4) == 0) {
                            for (Lease m : mine) {
                                Outcome o = outcome.get();
                                m.release(o);
                                if (r.nextInt(5) == 0) {
                                    m.release(o); // a second completion path fires too
                                }
                            }
                            mine.clear();
                        }
                        Set<Backend> tried = new HashSet<>();
                        Lease l = pool.pick(REQ, tried);
                        for (int retry = 0; l != null && retry < 2 && r.nextInt(20) == 0; retry++) {
                            tried.add(l.backend());
                            l.release(Outcome.CONNECT_FAILURE);
                            acquired.incrementAndGet();
                            l = pool.pick(REQ, tried);
                        }
                        if (l == null) {
                            continue;
                        }
                        acquired.incrementAndGet();
                        myLeases++;
                        switch (r.nextInt(3)) {
                            case 0 -> mine.add(l);           // finish it later on this thread
                            case 1 -> handedOver.add(l);     // another thread finishes it
                            default -> l.release(outcome.get());
                        }
                    }
                    mine.forEach(m -> m.release(Outcome.SUCCESS));
                    requestThreadsDone.countDown();
                    return null;
                }));
            }
            done.add(workers.submit(() -> {
                start.await();
                // the operator's commands, plus extra ticks so 1 ms breaker and ejection deadlines pass often
                for (int i = 0; i < 100_000 && requestThreadsDone.getCount() > 0; i++) {
                    if (i % 10 == 0) {
                        engine.drain("c");
                        engine.enable("c");
                        engine.setWeight("b", 1 + i % 5);
                    }
                    engine.tick();
                }
                return null;
            }));
            start.countDown();
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
            for (Lease l; (l = handedOver.poll()) != null; ) {
                l.release(Outcome.SUCCESS);
            }

            List<Backend> backends = engine.allBackends();
            assertThat(backends).extracting(Backend::inFlight).containsOnly(0);
            assertThat(pool.inFlight()).isZero();
            assertThat(backends.stream().mapToLong(b -> b.stats().totalRequests()).sum())
                    .as("every acquired lease counted exactly once").isEqualTo(acquired.get());
            assertThat(acquired.get()).as("every thread got its leases: the pool never wedged")
                    .isGreaterThanOrEqualTo((long) threads * leasesPerThread);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(engine.backends())
                    .extracting(BackendView::activeRequests).containsOnly(0));
        } finally {
            workers.shutdownNow();
        }
    }

    @Test
    void releasingWithoutAnOutcomeIsRefusedAndTheLeaseCanStillBeReleased() {
        Pool pool = manualPool("a");
        Lease lease = pool.pick(REQ);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> lease.release(null))
                .isInstanceOf(NullPointerException.class).hasMessage("outcome");

        assertThat(lease.isReleased()).isFalse();
        lease.release(Outcome.SUCCESS);
        assertThat(lease.backend().inFlight()).isZero();
    }
}
