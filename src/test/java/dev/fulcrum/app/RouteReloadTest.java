package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.engine.Router;
import dev.fulcrum.engine.routing.Split;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A saved config that changes a route's split applies in place; one that breaks a route is refused whole. */
class RouteReloadTest {
    private static final String CONFIG = """
            {"proxy": {"port": 0}, "admin": {"port": 0}, "healthCheck": {"enabled": false},
             "backends": [ {"id": "a", "url": "http://127.0.0.1:9001"} ],
             "pools": { "stable": { "backends": [ {"id": "s", "url": "http://127.0.0.1:9002"} ] }
                        CANARY },
             "routes": [ {"pathPrefix": "/shop", "split": [ {"pool": "stable", "weight": STABLE},
                                                           {"pool": "ARM", "weight": WEIGHT} ],
                          "stickyBy": "cookie:uid"} ]}
            """;
    private static final String CANARY =
            ", \"canary\": { \"backends\": [ {\"id\": \"c\", \"url\": \"http://127.0.0.1:9003\"} ] }";

    static String config(int stable, int canary, String arm, boolean canaryPool) {
        return CONFIG.replace("STABLE", String.valueOf(stable)).replace("WEIGHT", String.valueOf(canary))
                .replace("ARM", arm).replace("CANARY", canaryPool ? CANARY : "");
    }

    static String weights(FulcrumApp app) {
        return app.engine().router().route(0).split().describe();
    }

    @Test
    void aSavedFileThatChangesTheWeightsApplies() {
        try (FulcrumApp app = FulcrumApp.start(ConfigLoader.parse(config(95, 5, "canary", true)), null)) {
            assertThat(weights(app)).isEqualTo("stable=95 canary=5");

            assertThat(app.applyConfig(config(80, 20, "canary", true))).isEmpty();

            assertThat(weights(app)).isEqualTo("stable=80 canary=20");
            assertThat(app.currentConfig().routes().get(0).split().get(1).weight()).isEqualTo(20);
        }
    }

    @Test
    void aReloadThatLeavesTheRouteAloneKeepsItsLiveSplit() {
        try (FulcrumApp app = FulcrumApp.start(ConfigLoader.parse(config(95, 5, "canary", true)), null)) {
            app.engine().setSplit(0, List.of(new Split.Arm("stable", 50), new Split.Arm("canary", 50)));
            Router.Route before = app.engine().router().route(0);

            // another backend in the default pool; the route as it was
            assertThat(app.applyConfig(config(95, 5, "canary", true).replace("\"backends\": [ {\"id\": \"a\",",
                    "\"backends\": [ {\"id\": \"b\", \"url\": \"http://127.0.0.1:9005\"}, {\"id\": \"a\","))).isEmpty();

            assertThat(weights(app)).as("the admin API's weights, not the file's").isEqualTo("stable=50 canary=50");
            assertThat(app.engine().router().route(0).arms().stats()).containsExactly(before.arms().stats());
        }
    }

    @Test
    void anArmNamingAMissingPoolIsRefusedWholeAndTheRunningConfigStays() {
        try (FulcrumApp app = FulcrumApp.start(ConfigLoader.parse(config(95, 5, "canary", true)), null)) {
            Router running = app.engine().router();

            assertThat(app.applyConfig(config(80, 20, "canery", true))).containsExactly(
                    "routes[0].split[1].pool: no such pool, one of default, stable, canary (got: canery)");

            assertThat(app.engine().router()).isSameAs(running);
            assertThat(weights(app)).isEqualTo("stable=95 canary=5");
            assertThat(app.currentConfig().routes().get(0).split().get(0).weight()).isEqualTo(95);
        }
    }

    @Test
    void droppingAPoolARouteStillSendsToIsRefusedAndThePoolStays() {
        try (FulcrumApp app = FulcrumApp.start(ConfigLoader.parse(config(95, 5, "canary", true)), null)) {
            assertThat(app.applyConfig(config(95, 5, "canary", false))).containsExactly(
                    "routes[0].split[1].pool: no such pool, one of default, stable (got: canary)");

            assertThat(app.engine().pool("canary")).isNotNull();
            assertThat(app.engine().backends()).extracting(b -> b.id()).contains("c");
            assertThat(weights(app)).isEqualTo("stable=95 canary=5");
        }
    }

    @Test
    void aPoolARouteStopsSendingToIsRemovedWithTheRouteChanged() {
        try (FulcrumApp app = FulcrumApp.start(ConfigLoader.parse(config(95, 5, "canary", true)), null)) {
            String next = """
                    {"proxy": {"port": 0}, "admin": {"port": 0}, "healthCheck": {"enabled": false},
                     "backends": [ {"id": "a", "url": "http://127.0.0.1:9001"} ],
                     "pools": { "stable": { "backends": [ {"id": "s", "url": "http://127.0.0.1:9002"} ] } },
                     "routes": [ {"pathPrefix": "/shop", "pool": "stable"} ]}
                    """;
            assertThat(app.applyConfig(next)).as(next).isEmpty();

            assertThat(app.engine().pool("canary")).isNull();
            assertThat(app.engine().router().route(0).pool()).isEqualTo("stable");
            assertThat(app.engine().router().route(0).split()).isNull();
        }
    }
}
