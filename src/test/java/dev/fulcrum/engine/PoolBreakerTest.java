package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.strategy.StrategySpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The breaker as the pool uses it: what gets picked in each state, and the events each transition tells. */
@DisplayName("Pool with circuit breakers")
class PoolBreakerTest {
    /** decide from 4 calls, open at 50% failures, 10 s open, 2 probes; slow = 1 s. */
    static final BreakerSpec BREAKER = new BreakerSpec(true, 10, 4, 50, 1000, 100, 10_000, 2);
    static final EngineSettings SETTINGS = new EngineSettings(0, EngineSettings.OutlierSpec.DISABLED, BREAKER, 2, 3);
    static final RequestContext REQ = SimpleRequest.get("10.0.0.1", "/");

    final ManualClock clock = new ManualClock();
    final List<EngineEvent> events = new ArrayList<>();
    Engine engine;
    Pool pool;

    @BeforeEach
    void given() {
        engine = Engine.manual(SETTINGS, clock, RandomSource.seeded(1));
        pool = engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.subscribe(events::add);
    }

    void add(String... ids) {
        for (String id : ids) {
            engine.addBackend("default", new BackendSpec(id, "http://127.0.0.1:9000", 1, null, false), false);
        }
    }

    /** Picks until {@code id} comes up, releasing the others with SUCCESS. */
    Lease pickOf(String id) {
        for (int i = 0; i < 50; i++) {
            Lease l = pool.pick(REQ);
            assertThat(l).as("a pick while looking for %s", id).isNotNull();
            if (l.backend().id().equals(id)) {
                return l;
            }
            l.release(Outcome.SUCCESS);
        }
        throw new AssertionError(id + " was never picked");
    }

    void failOn(String id, int times) {
        for (int i = 0; i < times; i++) {
            pickOf(id).release(Outcome.SERVER_ERROR);
        }
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

    List<String> breakerEvents() {
        return events.stream().filter(e -> e.type().equals("breaker"))
                .map(e -> e.backend() + ":" + e.from() + "->" + e.to()).toList();
    }

    CircuitBreaker.State breakerOf(String id) {
        return engine.backends().stream().filter(v -> v.id().equals(id)).findFirst().orElseThrow().breaker();
    }

    @Test
    void anOpenBackendIsNeverPicked() {
        add("a", "b");

        failOn("a", 4);

        assertThat(breakerOf("a")).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(picks(20)).containsOnly("b");
        assertThat(pool.snapshot().primaryCandidates().backends()).extracting(Backend::id).containsExactly("b");
        assertThat(breakerEvents()).containsExactly("a:CLOSED->OPEN");
    }

    @Test
    void anOpenBackendStaysOutUntilTheTickAfterOpenMs() {
        add("a", "b");
        failOn("a", 4);

        clock.advance(Duration.ofMillis(9_999));
        engine.tick();
        assertThat(breakerOf("a")).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(picks(6)).containsOnly("b");

        clock.advance(Duration.ofMillis(1));
        assertThat(picks(6)).as("before the tick").containsOnly("b");
        engine.tick();

        assertThat(breakerOf("a")).isEqualTo(CircuitBreaker.State.HALF_OPEN);
        assertThat(breakerEvents()).containsExactly("a:CLOSED->OPEN", "a:OPEN->HALF_OPEN");
    }

    @Test
    void halfOpenAdmitsOnlyTheProbesUntilTheyComeBack() {
        add("a", "b");
        failOn("a", 4);
        clock.advance(Duration.ofMillis(10_000));
        engine.tick();

        List<Lease> held = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            held.add(pool.pick(REQ));
        }

        assertThat(held).doesNotContainNull();
        assertThat(held.stream().filter(l -> l.backend().id().equals("a")).count())
                .as("halfOpenCalls probes, then only b").isEqualTo(2);
        held.forEach(l -> l.release(Outcome.SUCCESS));
        assertThat(breakerOf("a")).isEqualTo(CircuitBreaker.State.CLOSED);
        // back in the rotation, which goes on where it was (it does not start again at a)
        assertThat(String.join("", picks(4))).isIn("abab", "baba");
        assertThat(breakerEvents()).containsExactly("a:CLOSED->OPEN", "a:OPEN->HALF_OPEN", "a:HALF_OPEN->CLOSED");
    }

    @Test
    void aFailedProbeReopensTheBreakerAndTheBackendLeavesRotation() {
        add("a", "b");
        failOn("a", 4);
        clock.advance(Duration.ofMillis(10_000));
        engine.tick();

        pickOf("a").release(Outcome.TIMEOUT);

        assertThat(breakerOf("a")).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(picks(10)).containsOnly("b");
        assertThat(breakerEvents()).containsExactly("a:CLOSED->OPEN", "a:OPEN->HALF_OPEN", "a:HALF_OPEN->OPEN");
    }

    @Test
    void aProbeTheClientAbortedGoesBackToTheBreaker() {
        add("a");
        failOn("a", 4);
        clock.advance(Duration.ofMillis(10_000));
        engine.tick();
        Lease p1 = pool.pick(REQ);
        Lease p2 = pool.pick(REQ);
        assertThat(pool.pick(REQ)).as("both probes out").isNull();

        p1.release(Outcome.CLIENT_ABORT);

        Lease again = pool.pick(REQ);
        assertThat(again).isNotNull();
        assertThat(pool.pick(REQ)).isNull();
        p2.release(Outcome.SUCCESS);
        again.release(Outcome.SUCCESS);
        assertThat(breakerOf("a")).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(breakerEvents()).containsExactly("a:CLOSED->OPEN", "a:OPEN->HALF_OPEN", "a:HALF_OPEN->CLOSED");
    }

    @Test
    void aRequestAdmittedWhileClosedThatFinishesInHalfOpenIsNotAProbe() {
        add("a");
        Lease slowRequest = pool.pick(REQ);
        failOn("a", 4);
        clock.advance(Duration.ofMillis(10_000));
        engine.tick();

        slowRequest.release(Outcome.SUCCESS);

        assertThat(breakerOf("a")).isEqualTo(CircuitBreaker.State.HALF_OPEN);
        assertThat(pool.pick(REQ)).isNotNull();
        assertThat(pool.pick(REQ)).isNotNull();
        assertThat(pool.pick(REQ)).as("still exactly two probes").isNull();
    }

    @Test
    void slowResponsesOpenTheBreakerByTheSlowCallRate() {
        engine.setSettings(SETTINGS.withBreaker(new BreakerSpec(true, 10, 4, 50, 1000, 50, 10_000, 2)));
        add("a");
        for (int i = 0; i < 4; i++) {
            Lease l = pool.pick(REQ);
            clock.advance(Duration.ofMillis(i % 2 == 0 ? 1000 : 10));
            l.release(Outcome.SUCCESS);
        }

        assertThat(breakerOf("a")).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(pool.pick(REQ)).isNull();
    }

    @Test
    void clientAbortsNeverOpenTheBreaker() {
        add("a");

        for (int i = 0; i < 20; i++) {
            pool.pick(REQ).release(Outcome.CLIENT_ABORT);
        }

        assertThat(breakerOf("a")).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(breakerEvents()).isEmpty();
    }

    @Test
    void enablingAnOpenBackendClosesItsBreakerWithOneEvent() {
        add("a", "b");
        failOn("a", 4);

        engine.enable("a");

        assertThat(breakerOf("a")).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(picks(4)).containsExactlyInAnyOrder("a", "b", "a", "b");
        assertThat(breakerEvents()).containsExactly("a:CLOSED->OPEN", "a:OPEN->CLOSED");
    }

    @Test
    void disablingBreakersClosesAnOpenOneWithOneEventAndKeepsItClosed() {
        add("a", "b");
        failOn("a", 4);

        engine.setSettings(SETTINGS.withBreaker(BreakerSpec.DISABLED));
        failOn("a", 20);

        assertThat(breakerOf("a")).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(picks(4)).containsExactlyInAnyOrder("a", "b", "a", "b");
        assertThat(breakerEvents()).containsExactly("a:CLOSED->OPEN", "a:OPEN->CLOSED");
    }

    @Test
    void shorteningOnlyOpenMsKeepsAnOpenBreakerAndEndsItsWaitAtOnce() {
        add("a", "b");
        failOn("a", 4);
        clock.advance(Duration.ofMillis(3_000));
        engine.tick();
        assertThat(breakerOf("a")).as("3 s into a 10 s wait").isEqualTo(CircuitBreaker.State.OPEN);

        engine.setSettings(SETTINGS.withBreaker(BREAKER.withOpenMs(1_500)));
        assertThat(breakerOf("a")).as("kept, not a fresh CLOSED breaker").isEqualTo(CircuitBreaker.State.OPEN);
        engine.tick();

        assertThat(breakerOf("a")).as("opened 3 s ago, 1.5 s is over").isEqualTo(CircuitBreaker.State.HALF_OPEN);
        assertThat(breakerEvents()).containsExactly("a:CLOSED->OPEN", "a:OPEN->HALF_OPEN");
    }

    @Test
    void lengtheningOnlyOpenMsMakesTheWaitUnderWayLonger() {
        add("a", "b");
        failOn("a", 4);
        engine.setSettings(SETTINGS.withBreaker(BREAKER.withOpenMs(60_000)));
        clock.advance(Duration.ofMillis(30_000));
        engine.tick();
        assertThat(breakerOf("a")).isEqualTo(CircuitBreaker.State.OPEN);
        clock.advance(Duration.ofMillis(30_000));
        engine.tick();
        assertThat(breakerOf("a")).isEqualTo(CircuitBreaker.State.HALF_OPEN);
    }

    @Test
    void newBreakerSettingsApplyToBackendsAlreadyInThePool() {
        add("a", "b");
        Lease before1 = pickOf("a");
        Lease before2 = pickOf("a");

        engine.setSettings(SETTINGS.withBreaker(new BreakerSpec(true, 10, 2, 50, 1000, 100, 10_000, 2)));
        before1.release(Outcome.SERVER_ERROR);
        before2.release(Outcome.SERVER_ERROR);
        assertThat(breakerOf("a")).as("admitted under the old breaker: reported to it").isEqualTo(
                CircuitBreaker.State.CLOSED);
        failOn("a", 2);

        assertThat(breakerOf("a")).as("2 calls are now enough").isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(breakerEvents()).containsExactly("a:CLOSED->OPEN");
    }

    @Test
    void theSameSettingsAgainLeaveTheBreakersAlone() {
        add("a", "b");
        failOn("a", 4);

        engine.setSettings(SETTINGS);

        assertThat(breakerOf("a")).isEqualTo(CircuitBreaker.State.OPEN);
    }
}
