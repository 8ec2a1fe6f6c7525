package dev.fulcrum.engine;

import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.StrategySpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Longest matching path prefix on segment boundaries; everything else goes to the default pool. */
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
}
