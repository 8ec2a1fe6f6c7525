package dev.fulcrum.engine;

import dev.fulcrum.engine.routing.RouteMatch;
import dev.fulcrum.engine.routing.Split;
import dev.fulcrum.engine.routing.ValueMatcher;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.strategy.StrategySpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Longest matching path prefix on segment boundaries while every route is a path prefix alone; in the order written
 * once any route matches on more; everything else goes to the default pool.
 */
@DisplayName("Router")
class RouterTest {
    final Router router = new Router(List.of(
            new Router.Route("/api", "api", false),
            new Router.Route("/api/admin", "admin", true),
            new Router.Route("/static/", "static", false)));

    String poolFor(String path) {
        Router.Route r = router.match(path);
        return r == null ? "default" : r.pool();
    }

    @Test
    void theLongestMatchingPrefixWins() {
        assertThat(poolFor("/api/admin/users")).isEqualTo("admin");
        assertThat(poolFor("/api/users")).isEqualTo("api");
    }

    @Test
    void theOrderRoutesAreGivenInDoesNotMatter() {
        Router reversed = new Router(List.of(new Router.Route("/api/admin", "admin", true),
                new Router.Route("/api", "api", false)));

        assertThat(reversed.match("/api/admin/x").pool()).isEqualTo("admin");
        assertThat(reversed.routes()).extracting(Router.Route::pathPrefix).containsExactly("/api/admin", "/api");
    }

    @Test
    void aPrefixMatchesOnlyAtASegmentBoundary() {
        assertThat(poolFor("/api")).isEqualTo("api");
        assertThat(poolFor("/api/")).isEqualTo("api");
        assertThat(poolFor("/api/x")).isEqualTo("api");
        assertThat(poolFor("/api?page=2")).isEqualTo("api");
        assertThat(poolFor("/apix")).isEqualTo("default");
        assertThat(poolFor("/api/administrator")).as("not /api/admin").isEqualTo("api");
    }

    @Test
    void aPrefixEndingInASlashMatchesWhatFollowsIt() {
        assertThat(poolFor("/static/app.js")).isEqualTo("static");
        assertThat(poolFor("/static")).as("the prefix is /static/").isEqualTo("default");
    }

    @Test
    void noMatchGoesToTheDefaultPool() {
        assertThat(router.match("/other")).isNull();
        assertThat(router.match("/")).isNull();
        assertThat(router.match(null)).isNull();
        assertThat(Router.EMPTY.match("/api")).isNull();
    }

    @Test
    void theEngineRoutesToTheMatchingPoolOrTheDefault() {
        Engine engine = Engine.manual(EngineSettings.DEFAULT, new ManualClock(), RandomSource.seeded(1));
        Pool def = engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.ROUND_ROBIN));
        Pool api = engine.addPool("api", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.setRouter(new Router(List.of(new Router.Route("/api", "api", false))));

        assertThat(engine.route("/api/v1")).isSameAs(api);
        assertThat(engine.route("/apiv1")).isSameAs(def);
        assertThat(engine.route("/")).isSameAs(def);

        engine.setRouter(null);
        assertThat(engine.route("/api/v1")).as("no routes any more").isSameAs(def);
    }

    // ------------------------------------------------------------------ routes that match on more than the path

    static Router.Route header(String prefix, String name, String value, String pool) {
        return new Router.Route(new RouteMatch(prefix, null, Set.of(),
                List.of(new RouteMatch.Named(name, ValueMatcher.exact(value))), List.of(), List.of()),
                pool, false, null, null, null, null, null, null);
    }

    static SimpleRequest get(String path, Map<String, String> headers) {
        return new SimpleRequest("10.0.0.1", "GET", path, headers, Map.of(), Map.of());
    }

    static String poolFor(Router router, String path, Map<String, String> headers) {
        Router.Route r = router.match(get(path, headers), path);
        return r == null ? "default" : r.pool();
    }

    @Test
    void onceAnyRouteMatchesOnMoreThanItsPrefixRoutesAreTriedInTheOrderWritten() {
        Router ordered = new Router(List.of(
                new Router.Route("/api", "api", false),
                header("/api/admin", "X-Canary", "1", "canary"),
                new Router.Route("/api/admin", "admin", false)));

        assertThat(ordered.routes()).as("tried as written").containsExactlyElementsOf(ordered.written());
        assertThat(poolFor(ordered, "/api/admin/x", Map.of("X-Canary", "1"))).as("the first written matches")
                .isEqualTo("api");
        assertThat(poolFor(ordered, "/other", Map.of())).isEqualTo("default");

        Router canaryFirst = new Router(List.of(
                header("/api", "X-Canary", "1", "canary"),
                new Router.Route("/api", "api", false),
                new Router.Route("/api/admin", "admin", false)));
        assertThat(poolFor(canaryFirst, "/api/cart", Map.of("x-canary", "1"))).isEqualTo("canary");
        assertThat(poolFor(canaryFirst, "/api/cart", Map.of())).isEqualTo("api");
        assertThat(poolFor(canaryFirst, "/api/admin/x", Map.of())).as("no longest prefix any more: /api comes first")
                .isEqualTo("api");
    }

    @Test
    void prefixRoutesAloneKeepTheLongestPrefixRuleOverARequestToo() {
        assertThat(poolFor(router, "/api/admin/users", Map.of())).isEqualTo("admin");
        assertThat(poolFor(router, "/api/users", Map.of())).isEqualTo("api");
        assertThat(poolFor(router, "/apix", Map.of())).isEqualTo("default");
        assertThat(router.written()).extracting(Router.Route::pathPrefix)
                .containsExactly("/api", "/api/admin", "/static/");
    }

    @Test
    void matchingAPathAlonePassesByTheRoutesThatNeedTheRequest() {
        Router mixed = new Router(List.of(
                header("/api", "X-Canary", "1", "canary"),
                new Router.Route("/api", "api", false)));

        assertThat(mixed.match("/api/x").pool()).isEqualTo("api");
        assertThat(mixed.match("/other")).isNull();
    }

    @Test
    void aRouteWithoutAPathPrefixMatchesEveryPath() {
        Router catchAll = new Router(List.of(
                header(null, "X-Batch", "1", "batch"),
                new Router.Route("/api", "api", false)));

        assertThat(poolFor(catchAll, "/anything", Map.of("X-Batch", "1"))).isEqualTo("batch");
        assertThat(poolFor(catchAll, "/api/x", Map.of("X-Batch", "1"))).isEqualTo("batch");
        assertThat(poolFor(catchAll, "/api/x", Map.of())).isEqualTo("api");
    }

    @Test
    void eachRouteKnowsItsPlaceAsWrittenAndThePoolsItSendsTo() {
        Router.Route split = new Router.Route(RouteMatch.prefix("/shop"), null, false, null, null, null,
                new Split(List.of(new Split.Arm("stable", 95), new Split.Arm("canary", 5)), null), null, null);
        Router r = new Router(List.of(new Router.Route("/a", "api", false), split));

        assertThat(r.routes()).as("longest prefix first").extracting(Router.Route::pathPrefix)
                .containsExactly("/shop", "/a");
        assertThat(r.route(1)).isSameAs(split);
        assertThat(split.index()).isEqualTo(1);
        assertThat(r.route(0).index()).isZero();
        assertThat(r.route(2)).isNull();
        assertThat(r.route(-1)).isNull();
        assertThat(split.pools()).containsExactly("stable", "canary");
        assertThat(r.route(0).pools()).containsExactly("api");
        assertThat(split).hasToString("routes[1] /shop -> stable=95 canary=5");
    }

    @Test
    void aNewRouterIsSetOnTheControlThreadAfterWhatItIsDoing() throws Exception {
        // the control thread alone changes a live split (the admin API's calls, a guard's rollback): a new router
        // takes the live state over there, after the work in hand, or a rollback of the same second would be lost
        try (Engine engine = Engine.start(EngineSettings.DEFAULT)) {
            java.util.concurrent.CountDownLatch busy = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CompletableFuture<Void> control = java.util.concurrent.CompletableFuture.runAsync(
                    () -> engine.run(() -> {
                        busy.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }));
            busy.await();
            Router next = new Router(List.of(new Router.Route("/api", "api", false)));
            Thread setter = new Thread(() -> engine.setRouter(next), "setter");
            setter.start();
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> setter.getState() == Thread.State.TIMED_WAITING
                            || setter.getState() == Thread.State.WAITING
                            || setter.getState() == Thread.State.TERMINATED);

            assertThat(engine.router()).as("not set while the control thread is busy").isSameAs(Router.EMPTY);
            release.countDown();
            setter.join(10_000);
            control.get();
            assertThat(engine.router()).isSameAs(next);
        }
    }
}
