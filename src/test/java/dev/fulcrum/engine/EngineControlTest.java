package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.strategy.StrategySpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The production engine: its own control thread, the periodic tick on the system clock. These tests wait on
 * real time only through Awaitility with a deadline, and only for things the tick does within one period.
 */
@DisplayName("Engine control thread")
class EngineControlTest {
    static final RequestContext REQ = SimpleRequest.get("10.0.0.1", "/");

    @Test
    void thePeriodicTickMovesAnOpenBreakerToHalfOpenWithoutAnyoneCallingIt() {
        BreakerSpec quick = new BreakerSpec(true, 10, 2, 50, 1000, 100, 1, 1);
        try (Engine engine = Engine.start(new EngineSettings(0, EngineSettings.OutlierSpec.DISABLED, quick, 2, 3))) {
            Pool pool = engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
            engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
            List<String> breakerEvents = java.util.Collections.synchronizedList(new ArrayList<>());
            engine.subscribe(e -> {
                if (e.type().equals("breaker")) {
                    breakerEvents.add(e.from() + "->" + e.to());
                }
            });

            pool.pick(REQ).release(Outcome.SERVER_ERROR);
            pool.pick(REQ).release(Outcome.SERVER_ERROR);

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(breakerEvents).containsExactly("CLOSED->OPEN", "OPEN->HALF_OPEN"));
            Lease probe = pool.pick(REQ);
            assertThat(probe).isNotNull();
            probe.release(Outcome.SUCCESS);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(breakerEvents).containsExactly("CLOSED->OPEN", "OPEN->HALF_OPEN", "HALF_OPEN->CLOSED"));
        }
    }

    @Test
    void commandsFromManyThreadsAreSerializedOnTheControlThread() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try (Engine engine = Engine.start(EngineSettings.DEFAULT)) {
            engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                done.add(callers.submit(() -> {
                    start.await();
                    for (int i = 0; i < 50; i++) {
                        String id = "t" + thread + "-" + i;
                        engine.addBackend("default", new BackendSpec(id, "http://127.0.0.1:9000", 1, null, false),
                                false);
                        engine.setWeight(id, 1 + i % 7);
                        if (i % 2 == 0) {
                            engine.remove(id);
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }

            assertThat(engine.backends()).hasSize(100);
            assertThat(engine.pool("default").snapshot().primaryCandidates().size()).isEqualTo(100);
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void aClosedEngineRefusesCommandsWithAClearError() {
        Engine engine = Engine.start(EngineSettings.DEFAULT);
        engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));

        engine.close();

        assertThatThrownBy(engine::backends).isInstanceOf(IllegalStateException.class)
                .hasMessage("engine is closed");
    }

    @Test
    void aManualEngineRunsControlWorkOnTheCaller() {
        Engine engine = Engine.manual(EngineSettings.DEFAULT, new ManualClock(), RandomSource.seeded(1));
        Thread caller = Thread.currentThread();

        Thread ran = engine.call(Thread::currentThread);

        assertThat(ran).isSameAs(caller);
    }
}
