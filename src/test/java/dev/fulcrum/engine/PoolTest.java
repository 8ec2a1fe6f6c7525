package dev.fulcrum.engine;

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
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Which backends a pool hands out, and how the engine refuses bad commands. */
@DisplayName("Pool")
class PoolTest {
    static final EngineSettings SETTINGS = new EngineSettings(0, EngineSettings.OutlierSpec.DISABLED,
            BreakerSpec.DISABLED, 2, 3);
    static final RequestContext REQ = SimpleRequest.get("10.0.0.1", "/");

    final ManualClock clock = new ManualClock();
    Engine engine;
    Pool pool;

    @BeforeEach
    void given() {
        engine = Engine.manual(SETTINGS, clock, RandomSource.seeded(1));
        pool = engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
    }

    void add(String id, int weight) {
        add(new BackendSpec(id, "http://127.0.0.1:9000", weight, null, false));
    }

    void add(BackendSpec spec) {
        engine.addBackend("default", spec, false);
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

    void down(String id) {
        for (int i = 0; i < SETTINGS.fall(); i++) {
            engine.reportProbe(id, false);
        }
    }

    void up(String id) {
        for (int i = 0; i < SETTINGS.rise(); i++) {
            engine.reportProbe(id, true);
        }
    }

    // ------------------------------------------------------------------ what is picked

    @Test
    void anEmptyPoolPicksNothing() {
        assertThat(pool.pick(REQ)).isNull();
        assertThat(pool.snapshot().primaryCandidates().isEmpty()).isTrue();
    }

    @Test
    void upBackendsArePickedInTurn() {
        add("a", 1);
        add("b", 1);
        add("c", 1);

        assertThat(picks(6)).containsExactly("a", "b", "c", "a", "b", "c");
    }

    @Test
    void aBackendAtWeightZeroIsNeverPicked() {
        add("a", 0);
        add("b", 1);

        assertThat(picks(10)).containsOnly("b");
        assertThat(pool.snapshot().all()).extracting(BackendView::id).containsExactly("a", "b");
    }

    @Test
    void reweightingToZeroTakesEffectForTheNextRequest() {
        add("a", 1);
        add("b", 1);

        engine.setWeight("a", 0);

        assertThat(picks(10)).containsOnly("b");
        engine.setWeight("a", 3);
        assertThat(picks(10)).contains("a", "b");
    }

    @Test
    void onlyWeightZeroBackendsMeansNothingToPick() {
        add("a", 0);

        assertThat(pool.pick(REQ)).isNull();
    }

    @Test
    void aDownBackendIsNeverPicked() {
        add("a", 1);
        add("b", 1);

        down("a");

        assertThat(picks(10)).containsOnly("b");
    }

    @Test
    void drainingAndDrainedBackendsAreNeverPicked() {
        add("a", 1);
        add("b", 1);
        add("c", 1);
        Lease held = pickOf("a");

        engine.drain("a"); // DRAINING: one request still in flight
        engine.drain("c"); // DRAINED: nothing in flight

        assertThat(states()).containsExactly(BackendState.DRAINING, BackendState.UP, BackendState.DRAINED);
        assertThat(picks(10)).containsOnly("b");
        held.release(Outcome.SUCCESS);
        assertThat(picks(10)).containsOnly("b");
    }

    @Test
    void retriesGoToABackendNotTriedYet() {
        add("a", 1);
        add("b", 1);
        Backend a = pickOf("a").backend();

        for (int i = 0; i < 6; i++) {
            Lease l = pool.pick(REQ, Set.of(a));
            assertThat(l.backend().id()).isEqualTo("b");
            l.release(Outcome.SUCCESS);
        }
        assertThat(pool.pick(REQ, Set.of(a, pickOf("b").backend()))).isNull();
    }

    // ------------------------------------------------------------------ maxInFlight

    @Test
    void aBackendAtItsMaxInFlightIsSkippedUntilALeaseIsReleased() {
        add(new BackendSpec("a", "http://127.0.0.1:9001", 1, 1, false));
        add(new BackendSpec("b", "http://127.0.0.1:9002", 1, 2, false));

        Lease first = pool.pick(REQ);
        Lease second = pool.pick(REQ);
        Lease third = pool.pick(REQ);

        assertThat(List.of(first, second, third)).extracting(l -> l.backend().id()).containsExactly("a", "b", "b");
        assertThat(pool.pick(REQ)).as("every backend at its cap").isNull();
        assertThat(pool.inFlight()).isEqualTo(3);

        first.release(Outcome.SUCCESS);
        Lease fourth = pool.pick(REQ);
        assertThat(fourth.backend().id()).isEqualTo("a");
        assertThat(pool.pick(REQ)).isNull();
    }

    @Test
    void aCappedBackendShowsItsCapInItsView() {
        add(new BackendSpec("a", "http://127.0.0.1:9001", 1, 5, false));
        add("b", 1);

        assertThat(engine.backends()).extracting(BackendView::maxInFlight).containsExactly(5, null);
    }

    // ------------------------------------------------------------------ backups

    @Test
    void aBackupIsNotPickedWhileAPrimaryIsAvailable() {
        add("a", 1);
        add(new BackendSpec("z-backup", "http://127.0.0.1:9009", 1, null, true));

        assertThat(picks(10)).containsOnly("a");
    }

    @Test
    void aBackupTakesOverWhileNoPrimaryIsAvailableAndHandsBackAfter() {
        add("a", 1);
        add("b", 1);
        add(new BackendSpec("k", "http://127.0.0.1:9009", 1, null, true));

        down("a");
        engine.drain("b");
        assertThat(picks(5)).containsOnly("k");

        up("a");
        assertThat(picks(5)).containsOnly("a");
    }

    @Test
    void aStickyLeaseNamesABackupOnlyWhileNoPrimaryIsAvailable() {
        add("a", 1);
        add(new BackendSpec("k", "http://127.0.0.1:9009", 1, null, true));
        assertThat(pool.tryLease("k")).as("a primary is up: the cookie is not honoured").isNull();
        down("a");
        Lease onBackup = pool.tryLease("k");
        assertThat(onBackup).isNotNull();
        onBackup.release(Outcome.SUCCESS);
        up("a");
        assertThat(pool.tryLease("k")).as("the primary is back").isNull();
    }

    @Test
    void aBackupTakesOverWhenEveryPrimaryIsAtItsCap() {
        add(new BackendSpec("a", "http://127.0.0.1:9001", 1, 1, false));
        add(new BackendSpec("k", "http://127.0.0.1:9009", 1, null, true));

        Lease onA = pool.pick(REQ);

        assertThat(onA.backend().id()).isEqualTo("a");
        assertThat(picks(3)).containsOnly("k");
    }

    // ------------------------------------------------------------------ refused commands

    @Test
    void aDuplicateIdIsRefusedWith409EvenInAnotherPool() {
        add("a", 1);
        engine.addPool("api", StrategySpec.of(StrategySpec.ROUND_ROBIN));

        assertThatThrownBy(() -> add("a", 2)).isInstanceOfSatisfying(EngineException.class,
                e -> assertThat(e.status()).isEqualTo(409));
        assertThatThrownBy(() -> engine.addBackend("api", new BackendSpec("a", "http://127.0.0.1:1", 1, null, false),
                false)).isInstanceOfSatisfying(EngineException.class, e -> {
                    assertThat(e.status()).isEqualTo(409);
                    assertThat(e.getMessage()).isEqualTo("id: already exists (got: a)");
                });
        assertThat(engine.backends()).hasSize(1);
    }

    @Test
    void commandsOnAnUnknownIdAreRefusedWith404() {
        add("a", 1);

        for (Runnable r : List.<Runnable>of(() -> engine.setWeight("nope", 1), () -> engine.drain("nope"),
                () -> engine.remove("nope"), () -> engine.enable("nope"))) {
            assertThatThrownBy(r::run).isInstanceOfSatisfying(EngineException.class, e -> {
                assertThat(e.status()).isEqualTo(404);
                assertThat(e.getMessage()).isEqualTo("backend: no such id (got: nope)");
            });
        }
    }

    @Test
    void addingToAnUnknownPoolIsRefusedWith404() {
        assertThatThrownBy(() -> engine.addBackend("nope", new BackendSpec("a", "http://127.0.0.1:1", 1, null, false),
                false)).isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.status()).isEqualTo(404));
    }

    @Test
    void aWeightOutOfRangeIsRefusedWith400NamingFieldAndValue() {
        add("a", 1);

        assertThatThrownBy(() -> engine.setWeight("a", -3)).isInstanceOfSatisfying(EngineException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.getMessage()).isEqualTo("weight: must be between 0 and 1000 (got: -3)");
        });
        assertThatThrownBy(() -> engine.setWeight("a", 1001)).isInstanceOfSatisfying(EngineException.class,
                e -> assertThat(e.status()).isEqualTo(400));
        assertThatThrownBy(() -> add("b", 1001)).isInstanceOfSatisfying(EngineException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.getMessage()).isEqualTo("weight: must be between 0 and 1000 (got: 1001)");
        });
        assertThat(engine.backends()).extracting(BackendView::id, BackendView::weight)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", 1));
    }

    @Test
    void weightsAtTheEdgesOfTheRangeAreAccepted() {
        add("a", 0);
        add("b", 1000);

        engine.setWeight("a", 1000);
        engine.setWeight("b", 0);

        assertThat(engine.backends()).extracting(BackendView::weight).containsExactly(1000, 0);
    }

    @Test
    void anInvalidIdUrlOrCapIsRefusedWith400() {
        assertThatThrownBy(() -> add("has space", 1)).isInstanceOfSatisfying(EngineException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.getMessage()).startsWith("id: ");
        });
        assertThatThrownBy(() -> add(new BackendSpec("a", "not a url", 1, null, false)))
                .isInstanceOfSatisfying(EngineException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).isEqualTo(
                            "url: must be an absolute http://host:port URL (got: not a url)");
                });
        assertThatThrownBy(() -> add(new BackendSpec("a", "http://127.0.0.1:9000/app", 1, null, false)))
                .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.status()).isEqualTo(400));
        assertThatThrownBy(() -> add(new BackendSpec("a", "http://127.0.0.1:9000", 1, 0, false)))
                .isInstanceOfSatisfying(EngineException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).isEqualTo("maxInFlight: must be at least 1, or null for no cap (got: 0)");
                });
        assertThat(engine.backends()).isEmpty();
    }

    @Test
    void anUnknownStrategyIsRefusedAndLeavesThePoolAsItWas() {
        add("a", 1);
        add("b", 1);
        List<EngineEvent> events = new ArrayList<>();
        engine.subscribe(events::add);

        assertThatThrownBy(() -> engine.setStrategy("default", StrategySpec.of("no-such-strategy")))
                .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.status()).isEqualTo(400));

        assertThat(pool.snapshot().spec().type()).isEqualTo(StrategySpec.ROUND_ROBIN);
        engine.setWeight("a", 2); // a later rebuild still works
        assertThat(picks(4)).containsOnly("a", "b");
        assertThat(events).extracting(EngineEvent::type).containsExactly("weight");
    }

    @Test
    void aStrategyWithoutATypeIsRefusedWith400() {
        assertThatThrownBy(() -> engine.setStrategy("default", StrategySpec.bare(null))).isInstanceOfSatisfying(EngineException.class,
                        e -> assertThat(e.status()).isEqualTo(400));
    }

    Lease pickOf(String id) {
        for (int i = 0; i < 50; i++) {
            Lease l = pool.pick(REQ);
            if (l != null && l.backend().id().equals(id)) {
                return l;
            }
            if (l != null) {
                l.release(Outcome.SUCCESS);
            }
        }
        throw new AssertionError(id + " was never picked");
    }

    List<BackendState> states() {
        return engine.backends().stream().map(BackendView::state).toList();
    }

    @Test
    void poolsAndTheirBackendsAreListedInTheOrderThePoolsWereAdded() {
        for (String name : List.of("zeta", "alpha", "mid", "beta", "omega", "kappa", "delta", "gamma", "eta", "iota",
                "lambda")) {
            engine.addPool(name, StrategySpec.of(StrategySpec.ROUND_ROBIN));
            engine.addBackend(name, new BackendSpec(name + "-1", "http://127.0.0.1:9000", 1, null, false), false);
        }

        assertThat(engine.pools()).extracting(Pool::name).containsExactly("default", "zeta", "alpha", "mid", "beta",
                "omega", "kappa", "delta", "gamma", "eta", "iota", "lambda");
        assertThat(engine.backends()).extracting(BackendView::pool).containsExactly("zeta", "alpha", "mid", "beta",
                "omega", "kappa", "delta", "gamma", "eta", "iota", "lambda");
    }

    @Test
    void aPoolNeedsAFreshNonEmptyName() {
        assertThatThrownBy(() -> engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN)))
                .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.status()).isEqualTo(409));
        assertThatThrownBy(() -> engine.addPool(" ", StrategySpec.of(StrategySpec.ROUND_ROBIN)))
                .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.status()).isEqualTo(400));
        assertThatThrownBy(() -> engine.addPool(null, StrategySpec.of(StrategySpec.ROUND_ROBIN)))
                .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.status()).isEqualTo(400));
        assertThatThrownBy(() -> engine.addPool("x", StrategySpec.of("no-such-strategy")))
                .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.status()).isEqualTo(400));
        assertThat(engine.pools()).extracting(Pool::name).containsExactly("default");
    }
}
