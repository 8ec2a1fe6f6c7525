package dev.fulcrum.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The events the window and {@code /api/events} see: one per change, in order, with from and to. */
@DisplayName("Engine events")
class EngineEventTest {
    static final RequestContext REQ = SimpleRequest.get("10.0.0.1", "/");
    static final BreakerSpec BREAKER = new BreakerSpec(true, 10, 2, 50, 1000, 100, 5_000, 1);

    final FakeTicker clock = new FakeTicker();
    final List<EngineEvent> events = new ArrayList<>();

    static String describe(EngineEvent e) {
        return e.type() + " " + e.pool() + "/" + e.backend() + " " + e.from() + "->" + e.to();
    }

    @Test
    void aScriptedSequencePublishesItsEventsInOrderWithFromAndTo() {
        Engine engine = Engine.manual(new EngineSettings(0, EngineSettings.OutlierSpec.DISABLED, BREAKER, 2, 3),
                clock, RandomSource.seeded(1));
        Pool pool = engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.subscribe(events::add);

        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
        clock.advance(Duration.ofMillis(10));
        engine.addBackend("default", new BackendSpec("b", "http://127.0.0.1:9002", 1, null, false), false);
        engine.setWeight("a", 5);
        Lease onA = pool.pick(REQ);
        assertThat(onA.backend().id()).isEqualTo("a");
        engine.drain("a");
        clock.advance(Duration.ofMillis(10));
        pool.pick(REQ).release(Outcome.SERVER_ERROR);
        pool.pick(REQ).release(Outcome.SERVER_ERROR); // b: 2 of 2 failed
        onA.release(Outcome.SUCCESS);
        clock.advance(Duration.ofMillis(5_000));
        engine.tick();
        engine.setStrategy("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));

        assertThat(events).extracting(EngineEventTest::describe).containsExactly(
                "membership default/a null->added",
                "membership default/b null->added",
                "weight default/a 1->5",
                "drain default/a UP->DRAINING",
                "breaker default/b CLOSED->OPEN",
                "drain default/a DRAINING->DRAINED",
                "breaker default/b OPEN->HALF_OPEN",
                "strategy default/null round-robin->round-robin");
        assertThat(events).extracting(EngineEvent::at).isSorted();
        assertThat(events.get(0).at()).isEqualTo(FakeTicker.WALL_START_MILLIS);
        assertThat(events.get(1).at()).isEqualTo(FakeTicker.WALL_START_MILLIS + 10);
        assertThat(events.get(7).at()).isEqualTo(FakeTicker.WALL_START_MILLIS + 5_020);
    }

    @Test
    void aReweightToTheSameValueStillTellsIt() {
        Engine engine = Engine.manual(EngineSettings.DEFAULT, clock, RandomSource.seeded(1));
        engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 3, null, false), false);
        engine.subscribe(events::add);

        engine.setWeight("a", 3);

        assertThat(events).extracting(EngineEventTest::describe).containsExactly("weight default/a 3->3");
    }

    @Test
    void aFailingListenerDoesNotStopTheOthersOrTheEngine() {
        Engine engine = Engine.manual(EngineSettings.DEFAULT, clock, RandomSource.seeded(1));
        engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.subscribe(e -> {
            throw new IllegalStateException("broken listener");
        });
        engine.subscribe(events::add);

        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);

        assertThat(events).hasSize(1);
        assertThat(engine.backends()).hasSize(1);
    }

    @Test
    void anUnsubscribedListenerHearsNothingMore() {
        Engine engine = Engine.manual(EngineSettings.DEFAULT, clock, RandomSource.seeded(1));
        engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.subscribe(events::add);
        engine.unsubscribe(events::add); // a different method reference: still subscribed
        java.util.function.Consumer<EngineEvent> l = events::add;
        engine.subscribe(l);
        engine.unsubscribe(l);

        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);

        assertThat(events).hasSize(1);
    }

    @Test
    void aListenerOnAStartedEngineMayQueryTheEngineWithoutDeadlockingTheControlThread() throws Exception {
        try (Engine engine = Engine.start(EngineSettings.DEFAULT)) {
            engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
            CompletableFuture<Integer> seenFromListener = new CompletableFuture<>();
            engine.subscribe(e -> seenFromListener.complete(engine.backends().size()));

            engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);

            assertThat(seenFromListener.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(engine.backends()).hasSize(1);
        }
    }

    @Test
    void finishingARequestAfterTheEngineClosedDoesNotThrow() {
        Engine engine = Engine.start(new EngineSettings(0, new EngineSettings.OutlierSpec(true, 1, 1000, 100),
                BREAKER, 2, 3));
        Pool pool = engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
        Lease first = pool.pick(REQ);
        Lease second = pool.pick(REQ);
        engine.drain("a");

        engine.close();
        first.release(Outcome.SERVER_ERROR);  // would eject and open the breaker: work for the control thread
        second.release(Outcome.SERVER_ERROR); // the last one out of a draining backend

        assertThat(first.backend().inFlight()).isZero();
        assertThat(pool.inFlight()).isZero();
    }
}
