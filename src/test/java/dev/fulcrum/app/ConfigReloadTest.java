package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.engine.BackendView;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** A reload is all or nothing: the one step that can fail, binding a new demo backend's port, comes first. */
class ConfigReloadTest {
    private static final String CONFIG = """
            {"proxy": {"port": 0}, "admin": {"port": 0}, "healthCheck": {"enabled": false},
             "strategy": {"type": "round-robin"},
             "demoBackends": [ {"id": "d", "port": 0, "weight": 1} DEMOS ]}
            """;

    @Test
    void theClassExampleANewDemoBackendOnATakenPortChangesNothing() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             FulcrumApp app = FulcrumApp.start(ConfigLoader.parse(CONFIG.replace("DEMOS", "")), null)) {
            int port = taken.getLocalPort();
            String next = CONFIG.replace("DEMOS", ", {\"id\": \"f\", \"port\": 0, \"weight\": 4},"
                    + " {\"id\": \"e\", \"port\": " + port + ", \"weight\": 2}").replace("round-robin", "random");

            assertThat(app.applyConfig(next)).singleElement().asString()
                    .startsWith("demoBackends[2].port: demo backend e cannot listen on 127.0.0.1:" + port + " (")
                    .endsWith(") (got: " + port + ")");
            // f, started before e failed, is stopped again; d, the strategy and the engine are as they were
            assertThat(app.demos().all()).extracting(d -> d.id()).containsExactly("d");
            assertThat(app.engine().backends()).extracting(BackendView::id).containsExactly("d");
            assertThat(app.engine().pool("default").snapshot().spec().type()).isEqualTo("round-robin");
            assertThat(app.currentConfig().demoBackends()).hasSize(1);
        }
    }

    @Test
    void aNewDemoBackendOnAFreePortJoinsItsPoolAtThePortItListensOn() {
        try (FulcrumApp app = FulcrumApp.start(ConfigLoader.parse(CONFIG.replace("DEMOS", "")), null)) {
            assertThat(app.applyConfig(CONFIG.replace("DEMOS", ", {\"id\": \"e\", \"port\": 0, \"weight\": 2}")))
                    .isEmpty();

            int port = app.demos().get("e").port();
            assertThat(port).isPositive();
            assertThat(app.engine().backends()).filteredOn(v -> v.id().equals("e")).singleElement()
                    .satisfies(v -> assertThat(v.url()).isEqualTo("http://127.0.0.1:" + port));
        }
    }
}
