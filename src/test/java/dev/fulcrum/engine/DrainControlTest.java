package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.strategy.StrategySpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Drain, remove and enable: the operator's way to take a backend out of rotation without dropping requests. */
@DisplayName("Drain, remove, enable")
class DrainControlTest {
    static final EngineSettings SETTINGS = new EngineSettings(0, EngineSettings.OutlierSpec.DISABLED,
            BreakerSpec.DEFAULT, 2, 3);
    static final RequestContext REQ = SimpleRequest.get("10.0.0.1", "/");

    final ManualClock clock = new ManualClock();
    final List<EngineEvent> events = new ArrayList<>();
    Engine engine;
    Pool pool;

    @BeforeEach
    void given() {
        engine = Engine.manual(SETTINGS, clock, RandomSource.seeded(1));
        pool = engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        for (String id : List.of("a", "b")) {
            engine.addBackend("default", new BackendSpec(id, "http://127.0.0.1:9000", 1, null, false), false);
        }
        engine.subscribe(events::add);
    }

    Lease pickOf(String id) {
        for (int i = 0; i < 10; i++) {
            Lease l = pool.pick(REQ);
            if (l.backend().id().equals(id)) {
                return l;
            }
            l.release(Outcome.SUCCESS);
        }
        throw new AssertionError(id + " was never picked");
    }

    BackendState stateOf(String id) {
        return engine.backends().stream().filter(v -> v.id().equals(id)).findFirst().orElseThrow().state();
    }

    List<String> picks(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Lease l = pool.pick(REQ);
            out.add(l == null ? null : l.backend().id());
            if (l != null) {
                l.release(Outcome.SUCCESS);
            }
        }
        return out;
    }

    List<String> described() {
        return events.stream().map(e -> e.type() + " " + e.backend() + " " + e.from() + "->" + e.to()).toList();
    }

    @Test
    void aBackendWithRequestsInFlightStaysDrainingUntilTheLastOneIsReleased() {
        Lease first = pickOf("a");
        Lease second = pickOf("a");

        engine.drain("a");
        assertThat(stateOf("a")).isEqualTo(BackendState.DRAINING);
        assertThat(picks(6)).containsOnly("b");

        first.release(Outcome.SUCCESS);
        assertThat(stateOf("a")).as("one still in flight").isEqualTo(BackendState.DRAINING);
        second.release(Outcome.SERVER_ERROR);

        assertThat(stateOf("a")).isEqualTo(BackendState.DRAINED);
        assertThat(described()).containsExactly("drain a UP->DRAINING", "drain a DRAINING->DRAINED");
    }

    @Test
    void aBackendWithNothingInFlightIsDrainedAtOnceAndStillTellsBothSteps() {
        engine.drain("a");

        assertThat(stateOf("a")).isEqualTo(BackendState.DRAINED);
        assertThat(described()).containsExactly("drain a UP->DRAINING", "drain a DRAINING->DRAINED");
    }

    @Test
    void drainingTwiceTellsNothingNew() {
        Lease held = pickOf("a");
        engine.drain("a");
        engine.drain("a");
        held.release(Outcome.SUCCESS);
        engine.drain("a");

        assertThat(described()).containsExactly("drain a UP->DRAINING", "drain a DRAINING->DRAINED");
    }

    @Test
    void aDrainingBackendRefusesASlotEvenToAPickFromAnOlderSnapshot() {
        Backend a = engine.backend("a");

        engine.drain("a");

        assertThat(a.tryAcquire()).isEqualTo(CircuitBreaker.REFUSED);
        assertThat(a.inFlight()).isZero();
    }

    @Test
    void theDrainCompletesOnTheTickEvenWhenNoReleaseSignalsIt() {
        Backend a = pickOf("a").backend();
        engine.drain("a");
        // a slot given back without going through the lease (as if the release signal were lost)
        a.releaseSlot();

        engine.tick();

        assertThat(stateOf("a")).isEqualTo(BackendState.DRAINED);
    }

    @Test
    void removeDrainsFirstAndThenRemovesTheBackend() {
        Lease held = pickOf("a");

        engine.remove("a");
        assertThat(stateOf("a")).isEqualTo(BackendState.DRAINING);
        assertThat(picks(4)).containsOnly("b");
        held.release(Outcome.SUCCESS);

        assertThat(engine.backends()).extracting(BackendView::id).containsExactly("b");
        assertThat(pool.snapshot().all()).extracting(BackendView::id).containsExactly("b");
        assertThat(described()).containsExactly("drain a UP->DRAINING", "drain a DRAINING->DRAINED",
                "membership a present->removed");
        assertThatThrownBy(() -> engine.enable("a")).isInstanceOfSatisfying(EngineException.class,
                e -> assertThat(e.status()).isEqualTo(404));
    }

    @Test
    void aRemovedIdCanBeAddedAgain() {
        engine.remove("a");

        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9100", 4, null, false), false);

        assertThat(engine.backends()).extracting(BackendView::id, BackendView::weight, BackendView::state)
                .contains(org.assertj.core.groups.Tuple.tuple("a", 4, BackendState.UP));
        assertThat(picks(4)).contains("a");
    }

    @Test
    void removingADrainedBackendRemovesItAtOnce() {
        engine.drain("a");

        engine.remove("a");

        assertThat(engine.backends()).extracting(BackendView::id).containsExactly("b");
    }

    @Test
    void enableBringsADrainedBackendBackIntoRotation() {
        engine.drain("a");

        engine.enable("a");

        assertThat(stateOf("a")).isEqualTo(BackendState.UP);
        assertThat(picks(4)).containsExactly("a", "b", "a", "b");
        assertThat(described()).containsExactly("drain a UP->DRAINING", "drain a DRAINING->DRAINED",
                "drain a DRAINED->UP");
    }

    @Test
    void enableCancelsAPendingRemoval() {
        Lease held = pickOf("a");
        engine.remove("a");

        engine.enable("a");
        held.release(Outcome.SUCCESS);

        assertThat(stateOf("a")).isEqualTo(BackendState.UP);
        assertThat(engine.backends()).hasSize(2);
    }

    @Test
    void enablingAnUpBackendChangesNothing() {
        engine.enable("a");

        assertThat(stateOf("a")).isEqualTo(BackendState.UP);
        assertThat(events).isEmpty();
    }

    @Test
    void aDrainingBackendAdmitsNoOneEvenBeforeTheStrategyIsRebuilt() {
        Backend a = engine.backend("a");
        assertThat(a.admitsAnother()).isTrue();

        engine.drain("a");

        assertThat(a.admitsAnother()).isFalse();
        engine.enable("a");
        assertThat(a.admitsAnother()).isTrue();
    }

    @Test
    void whenADrainCompletesTheLastRequestIsAlreadyInTheStatistics() {
        Lease held = pickOf("a");
        engine.drain("a");
        List<Long> totalsWhenDrained = new ArrayList<>();
        engine.subscribe(e -> {
            if ("DRAINED".equals(e.to())) {
                totalsWhenDrained.add(held.backend().stats().totalRequests());
            }
        });

        held.release(Outcome.SUCCESS);

        assertThat(totalsWhenDrained).containsExactly(1L);
    }
}
