package dev.fulcrum.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.routing.ClassCeiling;
import dev.fulcrum.engine.routing.RouteStrategy;
import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.strategy.Strategy;
import dev.fulcrum.engine.strategy.StrategyEnv;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A route's pick over its pool: under a class ceiling ({@code maxInFlightPerBackend}) and with its own strategy. */
@DisplayName("Route picks")
class RoutePickTest {
    static final EngineSettings SETTINGS = new EngineSettings(0, EngineSettings.OutlierSpec.DISABLED,
            BreakerSpec.DISABLED, 2, 3);
    /** ip-hash on one address keeps choosing the same backend while it may. */
    static final RequestContext SAME_CLIENT = SimpleRequest.get("10.0.0.1", "/");

    final ManualClock clock = new ManualClock();
    Engine engine;
    Pool pool;

    @BeforeEach
    void given() {
        engine = Engine.manual(SETTINGS, clock, RandomSource.seeded(1));
        pool = engine.addPool("default", StrategySpec.of(StrategySpec.IP_HASH));
        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
        engine.addBackend("default", new BackendSpec("b", "http://127.0.0.1:9002", 1, null, false), false);
    }

    Lease pick(ClassCeiling ceiling) {
        return pool.pick(SAME_CLIENT, null, clock.nanos(), null, ceiling);
    }

    Backend backend(String id) {
        for (int i = 0; i < pool.snapshot().primaryCandidates().size(); i++) {
            Backend b = pool.snapshot().primaryCandidates().get(i);
            if (b.id().equals(id)) {
                return b;
            }
        }
        throw new AssertionError(id);
    }

    @Test
    void aRouteNeverHoldsMoreThanItsCeilingOnOneBackendThoughTheStrategyKeepsChoosingIt() {
        String favourite = pick(null).backend().id(); // the hash's choice for this client; that lease is the pool's
        ClassCeiling ceiling = new ClassCeiling(2);
        List<String> picked = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Lease l = pick(ceiling);
            picked.add(l.backend().id());
            assertThat(ceiling.inFlight(backend("a"))).isLessThanOrEqualTo(2);
            assertThat(ceiling.inFlight(backend("b"))).isLessThanOrEqualTo(2);
        }
        String other = favourite.equals("a") ? "b" : "a";
        assertThat(picked).containsExactly(favourite, favourite, other, other);
        assertThat(pick(ceiling)).as("every backend at the ceiling: no pick").isNull();
        assertThat(pool.inFlight()).as("the pool's own lease and the route's four").isEqualTo(5);
    }

    @Test
    void aReleaseGivesThePlaceBackExactlyOnce() {
        ClassCeiling ceiling = new ClassCeiling(1);
        Lease first = pick(ceiling);
        Lease second = pick(ceiling);
        Backend b = first.backend();
        assertThat(pick(ceiling)).isNull();

        first.release(Outcome.SUCCESS);
        first.release(Outcome.SUCCESS); // a second completion path
        assertThat(ceiling.inFlight(b)).isZero();
        Lease again = pick(ceiling);
        assertThat(again.backend()).isSameAs(b);
        assertThat(ceiling.inFlight(b)).isEqualTo(1);
        assertThat(pick(ceiling)).as("the double release gave back one place, not two").isNull();

        second.release(Outcome.SERVER_ERROR);
        again.release(Outcome.CLIENT_ABORT);
        assertThat(ceiling.inFlight(backend("a")) + ceiling.inFlight(backend("b"))).isZero();
        assertThat(pool.inFlight()).isZero();
    }

    @Test
    void aShedIsToldFromAnEmptyPoolByTheCeilingAndCounted() {
        ClassCeiling ceiling = new ClassCeiling(1);
        pick(ceiling);
        pick(ceiling);
        assertThat(pick(ceiling)).isNull();
        Candidates c = pool.snapshot().primaryCandidates();
        boolean anyBelow = false;
        for (int i = 0; i < c.size(); i++) {
            anyBelow |= ceiling.admits(c.get(i));
        }
        assertThat(anyBelow).as("a shed: every backend is up and at the route's ceiling").isFalse();
        assertThat(ceiling.shedCount()).isZero();
        ceiling.shed();
        ceiling.shed();
        assertThat(ceiling.shedCount()).isEqualTo(2);
    }

    @Test
    void theCeilingIsTheRoutesOwnAndOtherTrafficIsNotHeldToIt() {
        ClassCeiling batch = new ClassCeiling(1);
        pick(batch);
        pick(batch);
        assertThat(pick(batch)).isNull();
        assertThat(pick(null)).as("the pool's own picks are not the batch route's").isNotNull();
        assertThat(pick(new ClassCeiling(1))).as("another route's ceiling counts apart").isNotNull();
    }

    @Test
    void aBackendsOwnCapStillHoldsUnderACeiling() {
        engine.removePool("default");
        pool = engine.addPool("capped", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addBackend("capped", new BackendSpec("c", "http://127.0.0.1:9003", 1, 1, false), false);
        ClassCeiling ceiling = new ClassCeiling(5);
        Lease l = pick(ceiling);
        assertThat(l.backend().id()).isEqualTo("c");
        assertThat(pick(ceiling)).as("maxInFlight 1 on c").isNull();
        assertThat(ceiling.inFlight(l.backend())).as("a refused slot gives its place back").isEqualTo(1);
    }

    @Test
    void aStickyLeaseIsHeldToTheCeilingToo() {
        ClassCeiling ceiling = new ClassCeiling(1);
        Lease first = pool.tryLease("a", ceiling);
        assertThat(first.backend().id()).isEqualTo("a");
        assertThat(pool.tryLease("a", ceiling)).as("a cookie for a, at the route's ceiling on a").isNull();
        assertThat(pool.tryLease("a", null)).as("no ceiling: the cookie holds").isNotNull();
        assertThat(ceiling.inFlight(backend("a"))).isEqualTo(1);

        first.release(Outcome.SUCCESS);
        first.release(Outcome.SUCCESS);
        assertThat(ceiling.inFlight(backend("a"))).isZero();
        assertThat(pool.tryLease("a", ceiling)).isNotNull();
    }

    @Test
    void aStickyLeaseToABackendAtItsOwnCapTakesNoPlace() {
        engine.removePool("default");
        pool = engine.addPool("capped", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addBackend("capped", new BackendSpec("c", "http://127.0.0.1:9003", 1, 1, false), false);
        ClassCeiling ceiling = new ClassCeiling(5);
        Lease held = pool.tryLease("c", null);
        assertThat(pool.tryLease("c", ceiling)).as("maxInFlight 1 on c").isNull();
        assertThat(ceiling.inFlight(held.backend())).isZero();
    }

    // ------------------------------------------------------------------ a route's own strategy

    @Test
    void aRoutesStrategyPicksOverThePoolsBackendsAndKeepsItsStateBetweenPicks() {
        RouteStrategy rr = new RouteStrategy(StrategySpec.of(StrategySpec.ROUND_ROBIN));
        List<String> picked = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Lease l = pool.pick(SAME_CLIENT, null, clock.nanos(), rr, null);
            picked.add(l.backend().id());
            l.release(Outcome.SUCCESS);
        }
        // the pool's ip-hash would give one backend four times; the route's round robin alternates, so it was not
        // rebuilt (and restarted) per pick
        assertThat(picked).containsExactly("a", "b", "a", "b");
        assertThat(pool.pick(SAME_CLIENT).backend().id()).as("the pool's own strategy is untouched")
                .isEqualTo(pool.pick(SAME_CLIENT).backend().id());
    }

    @Test
    void aRoutesStrategyIsRebuiltOnlyWhenThePoolsCandidatesChange() {
        RouteStrategy rs = new RouteStrategy(StrategySpec.of(StrategySpec.ROUND_ROBIN));
        StrategyEnv env = StrategyEnv.of(clock, RandomSource.seeded(1));
        Candidates before = pool.snapshot().primaryCandidates();
        Strategy first = rs.over(before, env);
        assertThat(rs.over(before, env)).isSameAs(first);
        assertThat(rs.over(pool.snapshot().primaryCandidates(), env)).as("no change published").isSameAs(first);

        engine.addBackend("default", new BackendSpec("c", "http://127.0.0.1:9003", 1, null, false), false);
        Candidates after = pool.snapshot().primaryCandidates();
        assertThat(after).isNotSameAs(before);
        Strategy rebuilt = rs.over(after, env);
        assertThat(rebuilt).isNotSameAs(first);
        assertThat(rs.over(after, env)).isSameAs(rebuilt);
    }

    @Test
    void aRoutesStrategyFollowsTheBackendsThePoolPublishes() {
        RouteStrategy rr = new RouteStrategy(StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addBackend("default", new BackendSpec("c", "http://127.0.0.1:9003", 1, null, false), false);
        List<String> picked = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Lease l = pool.pick(SAME_CLIENT, null, clock.nanos(), rr, null);
            picked.add(l.backend().id());
            l.release(Outcome.SUCCESS);
        }
        assertThat(picked).containsExactlyInAnyOrder("a", "a", "b", "b", "c", "c");
    }
}
