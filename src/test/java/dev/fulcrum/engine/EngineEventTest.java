package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.strategy.StrategySpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
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

    final ManualClock clock = new ManualClock();
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
        assertThat(events.get(0).at()).isEqualTo(ManualClock.WALL_START_MILLIS);
        assertThat(events.get(1).at()).isEqualTo(ManualClock.WALL_START_MILLIS + 10);
        assertThat(events.get(7).at()).isEqualTo(ManualClock.WALL_START_MILLIS + 5_020);
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

    @Test
    void aListenerToldOfAChangeSeesItInThePoolsSnapshot() {
        Engine engine = Engine.manual(EngineSettings.DEFAULT, clock, RandomSource.seeded(1));
        Pool pool = engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        List<String> seen = new ArrayList<>();
        engine.subscribe(e -> seen.add(e.type() + " " + e.to() + " " + candidates(pool)));

        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
        engine.setWeight("a", 2);
        engine.drain("a");

        assertThat(seen).containsExactly("membership added [a=100]", "weight 2 [a=200]", "drain DRAINING []",
                "drain DRAINED []");
    }

    @Test
    void aListenerMayIssueACommandFromInsideAnEvent() {
        Engine engine = Engine.manual(EngineSettings.DEFAULT, clock, RandomSource.seeded(1));
        engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
        engine.addBackend("default", new BackendSpec("b", "http://127.0.0.1:9002", 1, null, false), false);
        engine.subscribe(events::add);
        engine.subscribe(e -> {
            if ("DRAINED".equals(e.to()) && "a".equals(e.backend())) {
                engine.remove("b"); // an operator script reacting to a drain
            }
        });

        engine.drain("a");

        assertThat(engine.backends()).extracting(BackendView::id).containsExactly("a");
        assertThat(events).extracting(EngineEventTest::describe).containsExactly(
                "drain default/a UP->DRAINING", "drain default/a DRAINING->DRAINED",
                "drain default/b UP->DRAINING", "drain default/b DRAINING->DRAINED",
                "membership default/b present->removed");
    }

    @Test
    void breakerTransitionsThatArriveOutOfOrderAreToldInTheOrderTheyHappened() {
        Engine engine = Engine.manual(EngineSettings.DEFAULT, clock, RandomSource.seeded(1));
        engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
        CircuitBreaker breaker = engine.backend("a").breaker();
        engine.subscribe(events::add);
        CircuitBreaker.State closed = CircuitBreaker.State.CLOSED;
        CircuitBreaker.State open = CircuitBreaker.State.OPEN;
        CircuitBreaker.State half = CircuitBreaker.State.HALF_OPEN;

        engine.onBreakerTransition(breaker, half, closed, 3);
        engine.onBreakerTransition(breaker, open, half, 2);
        assertThat(events).as("waiting for the first").isEmpty();
        engine.onBreakerTransition(breaker, closed, open, 1);
        engine.onBreakerTransition(breaker, closed, open, 1); // told twice: once only

        assertThat(events).extracting(EngineEventTest::describe).containsExactly(
                "breaker default/a CLOSED->OPEN", "breaker default/a OPEN->HALF_OPEN",
                "breaker default/a HALF_OPEN->CLOSED");
    }

    @Test
    void breakerTransitionsWaitingForOneThatNeverComesAreToldInOrderAfterSixteen() {
        Engine engine = Engine.manual(EngineSettings.DEFAULT, clock, RandomSource.seeded(1));
        engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
        CircuitBreaker breaker = engine.backend("a").breaker();
        engine.subscribe(events::add);
        CircuitBreaker.State[] cycle = {CircuitBreaker.State.CLOSED, CircuitBreaker.State.OPEN,
                CircuitBreaker.State.HALF_OPEN};

        for (int seq = 17; seq >= 2; seq--) { // 16 transitions, newest first, the first one lost
            engine.onBreakerTransition(breaker, cycle[(seq - 1) % 3], cycle[seq % 3], seq);
        }

        assertThat(events).hasSize(16);
        assertThat(events.get(0).from()).isEqualTo(cycle[1].name());
        for (int i = 1; i < events.size(); i++) {
            assertThat(events.get(i).from()).as("a chain").isEqualTo(events.get(i - 1).to());
        }
    }

    /** The snapshot's candidates as id=scaled weight. */
    static List<String> candidates(Pool pool) {
        Candidates c = pool.snapshot().primaryCandidates();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < c.size(); i++) {
            out.add(c.get(i).id() + "=" + c.weight(i));
        }
        return out;
    }
}
