package dev.fulcrum.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.engine.routing.ArmStats;
import dev.fulcrum.engine.routing.CanaryGuard;
import dev.fulcrum.engine.routing.RouteMatch;
import dev.fulcrum.engine.routing.Split;
import dev.fulcrum.engine.routing.StickyKey;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A route's live split through the engine: the admin API's calls (set, promote, roll back) with their events and
 * refusals, and the canary guard judged on the engine's tick as the manual clock moves second by second.
 */
@DisplayName("Route splits and guards")
class RouteSplitTest {
    static final long MS = 1_000_000L;

    final ManualClock clock = new ManualClock();
    final List<EngineEvent> events = new ArrayList<>();
    Engine engine;

    @BeforeEach
    void given() {
        engine = Engine.manual(EngineSettings.DEFAULT, clock, RandomSource.seeded(1));
        engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addPool("stable", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addPool("canary", StrategySpec.of(StrategySpec.ROUND_ROBIN));
    }

    static Split split(int stable, int canary) {
        return new Split(List.of(new Split.Arm("stable", stable), new Split.Arm("canary", canary)),
                StickyKey.parse("cookie:uid"));
    }

    static List<Split.Arm> arms(int stable, int canary) {
        return split(stable, canary).arms();
    }

    /** routes[0] a plain prefix, routes[1] the split with {@code guard}. */
    Router.Route route(CanaryGuard guard) {
        Router.Route plain = new Router.Route("/static", "default", false);
        Router.Route shop = new Router.Route(RouteMatch.prefix("/shop"), null, false, null, null, null,
                split(90, 10), null, guard);
        engine.setRouter(new Router(List.of(plain, shop)));
        engine.subscribe(events::add);
        return engine.router().route(1);
    }

    static String describe(EngineEvent e) {
        return e.type() + " route=" + e.route() + " pool=" + e.pool() + " " + e.from() + " -> " + e.to();
    }

    static void refused(Runnable call, int status, String message) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(EngineException.class,
                e -> assertThat(e.status()).isEqualTo(status)).hasMessage(message);
    }

    /** One second of traffic into each arm, then the clock moves a second and the engine ticks. */
    void second(Router.Route r, int stableOk, int stableErrors, long stableMs, int canaryOk, int canaryErrors,
                long canaryMs) {
        ArmStats[] stats = r.arms().stats();
        for (int i = 0; i < stableOk + stableErrors; i++) {
            stats[0].record(i < stableErrors ? 503 : 200, stableMs * MS);
        }
        for (int i = 0; i < canaryOk + canaryErrors; i++) {
            stats[1].record(i < canaryErrors ? 500 : 200, canaryMs * MS);
        }
        clock.advanceMillis(1000);
        engine.tick();
    }

    // ------------------------------------------------------------------ the admin API's calls

    @Test
    void setPromoteAndRollBackEachChangeTheLiveSplitAndSaySo() {
        Router.Route r = route(null);

        engine.setSplit(1, arms(80, 20));
        assertThat(r.split().describe()).isEqualTo("stable=80 canary=20");
        assertThat(r.configuredSplit().describe()).as("the config's stays").isEqualTo("stable=90 canary=10");
        engine.promote(1);
        assertThat(r.split().describe()).isEqualTo("stable=0 canary=100");
        engine.rollback(1);
        assertThat(r.split().describe()).isEqualTo("stable=100 canary=0");
        assertThat(r.split().stickyBy()).as("the sticky key stays").isEqualTo(StickyKey.parse("cookie:uid"));

        assertThat(events).extracting(RouteSplitTest::describe).containsExactly(
                "split route=1 pool=null stable=90 canary=10 -> stable=80 canary=20",
                "split route=1 pool=null stable=80 canary=20 -> stable=0 canary=100",
                "split route=1 pool=null stable=0 canary=100 -> stable=100 canary=0");
        assertThat(events).extracting(EngineEvent::at).containsOnly(ManualClock.WALL_START_MILLIS);
    }

    @Test
    void aNewSplitKeepsTheFiguresOfEachArm() {
        Router.Route r = route(null);
        ArmStats canary = r.arms().stats()[1];
        engine.setSplit(1, arms(50, 50));
        assertThat(r.arms().stats()[1]).isSameAs(canary);
    }

    @Test
    void everyRefusalNamesTheFieldAndTheValue() {
        route(null);
        refused(() -> engine.setSplit(7, arms(1, 1)), 404, "route: no such route (got: 7; there are 2)");
        refused(() -> engine.setSplit(-1, arms(1, 1)), 404, "route: no such route (got: -1; there are 2)");
        refused(() -> engine.setSplit(0, arms(1, 1)), 404, "route: routes[0] has no split");
        refused(() -> engine.promote(0), 404, "route: routes[0] has no split");
        refused(() -> engine.rollback(9), 404, "route: no such route (got: 9; there are 2)");
        refused(() -> engine.setSplit(1, List.of(new Split.Arm("stable", 1))), 400,
                "split: must list the route's 2 arms (stable=90 canary=10) (got: 1)");
        refused(() -> engine.setSplit(1, null), 400,
                "split: must list the route's 2 arms (stable=90 canary=10) (got: none)");
        refused(() -> engine.setSplit(1, List.of(new Split.Arm("stable", 1), new Split.Arm("shadow", 1))), 400,
                "split[1].pool: must be canary, the route's arm 1 (got: shadow)");
        refused(() -> engine.setSplit(1, List.of(new Split.Arm("canary", 1), new Split.Arm("stable", 1))), 400,
                "split[0].pool: must be stable, the route's arm 0 (got: canary)");
        refused(() -> engine.setSplit(1, arms(90, 2000)), 400,
                "split[1].weight: must be between 0 and 1000 (got: 2000)");
        refused(() -> engine.setSplit(1, arms(-1, 10)), 400,
                "split[0].weight: must be between 0 and 1000 (got: -1)");
        refused(() -> engine.setSplit(1, arms(0, 0)), 400,
                "split: at least one weight must be above 0 (got: all 0)");

        assertThat(events).as("a refused call changes nothing").isEmpty();
        assertThat(engine.router().route(1).split().describe()).isEqualTo("stable=90 canary=10");
    }

    // ------------------------------------------------------------------ the guard on the tick

    @Test
    void aCanaryWithTwentyPercentErrorsIsRolledBackAfterForMsAndTheEventsSayWhy() {
        Router.Route r = route(new CanaryGuard("canary", 0.05, null, 50, 5000));
        CanaryGuard guard = r.guard();
        engine.tick(); // the first roll-up: the seconds are counted from here

        second(r, 20, 0, 10, 16, 4, 10);
        assertThat(guard.status().state()).as("20 and 20 of 50").isEqualTo(CanaryGuard.TOO_FEW);
        assertThat(guard.status().reason()).isEqualTo("20 and 20 requests in the last minute, 50 needed in each");
        second(r, 20, 0, 10, 16, 4, 10);
        assertThat(guard.status().state()).isEqualTo(CanaryGuard.TOO_FEW);

        second(r, 20, 0, 10, 16, 4, 10); // 60 each: judged, and breaching from now
        assertThat(guard.status().state()).isEqualTo(CanaryGuard.BREACHING);
        long breachingSince = clock.wallMillis();
        assertThat(guard.status().sinceMillis()).isEqualTo(breachingSince);
        for (int s = 0; s < 4; s++) {
            second(r, 20, 0, 10, 16, 4, 10);
            assertThat(guard.status().state()).as("held %d s of 5", s + 1).isEqualTo(CanaryGuard.BREACHING);
            assertThat(r.split().describe()).isEqualTo("stable=90 canary=10");
        }
        assertThat(events).isEmpty();

        second(r, 20, 0, 10, 16, 4, 10); // held 5 s
        String reason = "canary error rate 0.200 above stable's 0.000 by more than errorRateAbove 0.05"
                + " for 5 s (160 and 160 requests)";
        assertThat(r.split().describe()).isEqualTo("stable=90 canary=0");
        assertThat(guard.status()).isEqualTo(new CanaryGuard.Status(CanaryGuard.ROLLED_BACK, clock.wallMillis(),
                reason));
        assertThat(events).extracting(RouteSplitTest::describe).containsExactly(
                "guard route=1 pool=canary stable=90 canary=10 -> " + reason,
                "split route=1 pool=null stable=90 canary=10 -> stable=90 canary=0");

        // the canary takes no users now: the guard stays rolled back, however its last minute looks
        for (int s = 0; s < 10; s++) {
            second(r, 20, 0, 10, 0, 0, 10);
        }
        assertThat(guard.status().state()).isEqualTo(CanaryGuard.ROLLED_BACK);
        assertThat(events).hasSize(2);

        // raising the canary again sets the guard watching afresh
        engine.setSplit(1, arms(95, 5));
        assertThat(guard.status()).isEqualTo(new CanaryGuard.Status(CanaryGuard.WATCHING, clock.wallMillis(), null));
        assertThat(events).extracting(RouteSplitTest::describe).last()
                .isEqualTo("split route=1 pool=null stable=90 canary=0 -> stable=95 canary=5");
    }

    @Test
    void aFixedCanaryRaisedAgainIsJudgedOnItsNewRequestsOnly() {
        Router.Route r = route(new CanaryGuard("canary", 0.05, null, 50, 5000));
        engine.tick();
        for (int s = 0; s < 8; s++) {
            second(r, 20, 0, 10, 16, 4, 10);
        }
        assertThat(r.guard().status().state()).isEqualTo(CanaryGuard.ROLLED_BACK);
        ArmStats rolledBack = r.arms().stats()[1];

        engine.setSplit(1, arms(90, 10)); // a fixed canary, raised within the minute of its bad seconds
        assertThat(r.arms().stats()[1]).as("the canary's figures start afresh").isNotSameAs(rolledBack);
        assertThat(r.arms().stats()[1].figures().requests()).isZero();
        events.clear();
        for (int s = 0; s < 60; s++) {
            second(r, 20, 0, 10, 20, 0, 10);
        }
        assertThat(r.guard().status().state()).isEqualTo(CanaryGuard.WATCHING);
        assertThat(r.split().describe()).isEqualTo("stable=90 canary=10");
        assertThat(events).isEmpty();
    }

    @Test
    void changingTheWeightsOfAWatchedCanaryKeepsItsFigures() {
        Router.Route r = route(new CanaryGuard("canary", 0.05, null, 50, 5000));
        ArmStats canary = r.arms().stats()[1];
        engine.setSplit(1, arms(80, 20));
        assertThat(r.arms().stats()[1]).isSameAs(canary);
        assertThat(r.guard().status().state()).isEqualTo(CanaryGuard.WATCHING);
    }

    @Test
    void aCanaryWhoseP99IsFourTimesTheBaselinesIsRolledBackNamingBothFigures() {
        Router.Route r = route(new CanaryGuard("canary", null, 0.5, 50, 3000));
        engine.tick();
        for (int s = 0; s < 3; s++) {
            second(r, 20, 0, 10, 20, 0, 40);
        }
        assertThat(r.guard().status().state()).isEqualTo(CanaryGuard.BREACHING);
        second(r, 20, 0, 10, 20, 0, 40);
        second(r, 20, 0, 10, 20, 0, 40);
        assertThat(r.split().describe()).isEqualTo("stable=90 canary=10");
        second(r, 20, 0, 10, 20, 0, 40); // held 3 s

        ArmStats.Figures base = r.arms().stats()[0].figures();
        ArmStats.Figures canary = r.arms().stats()[1].figures();
        assertThat(base.p99Ms()).isBetween(9.9, 10.2); // two significant digits of microseconds
        assertThat(canary.p99Ms()).isBetween(39.9, 40.4);
        String reason = String.format(Locale.ROOT, "canary p99 %.1f ms above stable's %.1f ms by more than "
                + "p99AboveBaselineBy 0.5 for 3 s (120 and 120 requests)", canary.p99Ms(), base.p99Ms());
        assertThat(r.split().describe()).isEqualTo("stable=90 canary=0");
        assertThat(events).extracting(RouteSplitTest::describe).containsExactly(
                "guard route=1 pool=canary stable=90 canary=10 -> " + reason,
                "split route=1 pool=null stable=90 canary=10 -> stable=90 canary=0");
    }

    @Test
    void aHealthyCanaryIsNeverRolledBack() {
        Router.Route r = route(new CanaryGuard("canary", 0.05, 0.5, 50, 1000));
        engine.tick();
        for (int s = 0; s < 180; s++) {
            // both arms at 5% errors, the canary a little slower (12 ms against 10: under 1.5 times)
            second(r, 19, 1, 10, 19, 1, 12);
        }
        assertThat(r.guard().status().state()).isEqualTo(CanaryGuard.WATCHING);
        assertThat(r.split().describe()).isEqualTo("stable=90 canary=10");
        assertThat(events).isEmpty();
    }

    @Test
    void aPromotedCanaryHasNoBaselineToBeJudgedAgainst() {
        Router.Route r = route(new CanaryGuard("canary", 0.05, null, 50, 1000));
        engine.tick();
        engine.promote(1);
        for (int s = 0; s < 10; s++) {
            second(r, 0, 0, 10, 10, 10, 10);
        }
        assertThat(r.guard().status().state()).isEqualTo(CanaryGuard.TOO_FEW);
        assertThat(r.split().describe()).isEqualTo("stable=0 canary=100");
    }

    @Test
    void theArmsFiguresCoverTheLastMinute() {
        Router.Route r = route(null);
        engine.tick();
        for (int s = 0; s < 90; s++) {
            second(r, 9, 1, 10, 0, 0, 10);
        }
        ArmStats.Figures f = r.arms().stats()[0].figures();
        assertThat(f.requests()).isEqualTo(600);
        assertThat(f.errors()).isEqualTo(60);
        assertThat(f.errorRate()).isEqualTo(0.1);
        assertThat(f.total()).isEqualTo(900);
        assertThat(f.rps()).isEqualTo(10.0);
        assertThat(r.arms().stats()[1].figures().requests()).isZero();
    }

    // ------------------------------------------------------------------ a new router and the live state

    Router.Route defined(int stable, int canary, double mirrorPercent) {
        return new Router.Route(RouteMatch.prefix("/shop"), null, false, "vip",
                StrategySpec.of(StrategySpec.LEAST_REQUESTS), 4, split(stable, canary),
                new dev.fulcrum.engine.routing.Mirror("default", mirrorPercent, 1024),
                new CanaryGuard("canary", 0.05, null, 50, 5000));
    }

    @Test
    void anEqualRouteOfTheNextRouterCarriesTheLiveStateOver() {
        engine.setRouter(new Router(List.of(defined(90, 10, 10))));
        Router.Route before = engine.router().route(0);
        engine.setSplit(0, arms(70, 30));
        before.arms().stats()[1].record(200, MS);
        before.mirror().answered(200);
        engine.tick();

        engine.setRouter(new Router(List.of(new Router.Route("/static", "default", false), defined(90, 10, 10))));
        Router.Route after = engine.router().route(1);

        assertThat(after).isNotSameAs(before).isEqualTo(before);
        assertThat(after.index()).isEqualTo(1);
        assertThat(after.split().describe()).as("the live split, not the config's").isEqualTo("stable=70 canary=30");
        assertThat(after.arms().stats()).containsExactly(before.arms().stats());
        assertThat(after.mirror()).isSameAs(before.mirror());
        assertThat(after.mirror().counts().sent()).isEqualTo(1);
        assertThat(after.guard()).isSameAs(before.guard());
        assertThat(after.ceiling()).isSameAs(before.ceiling());
        assertThat(after.strategy()).isSameAs(before.strategy());
    }

    @Test
    void aChangedRouteStartsAfreshFromItsConfig() {
        engine.setRouter(new Router(List.of(defined(90, 10, 10))));
        Router.Route before = engine.router().route(0);
        engine.setSplit(0, arms(70, 30));

        engine.setRouter(new Router(List.of(defined(80, 20, 10))));
        Router.Route weights = engine.router().route(0);
        assertThat(weights.split().describe()).as("the saved file's weights apply").isEqualTo("stable=80 canary=20");
        assertThat(weights.arms().stats()[0]).isNotSameAs(before.arms().stats()[0]);
        assertThat(weights.guard()).isNotSameAs(before.guard());

        engine.setRouter(new Router(List.of(defined(80, 20, 50))));
        Router.Route mirror = engine.router().route(0);
        assertThat(mirror.mirror()).isNotSameAs(weights.mirror());
        assertThat(mirror.mirror().percent()).isEqualTo(50);
        assertThat(mirror.ceiling()).isNotSameAs(weights.ceiling());
    }
}
