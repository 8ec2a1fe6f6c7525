package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.EngineEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Edits of a running backend's entry in the config: each is applied as said, or not said to be applied. */
class LiveConfigEditsTest {
    private static String config(String aUrl, String backendExtra) {
        return """
                {"proxy": {"port": 0}, "admin": {"port": 0}, "healthCheck": {"enabled": false},
                 "backends": [ {"id": "a", "url": "URL"EXTRA},
                               {"id": "b", "url": "http://127.0.0.1:9002"} ]}
                """.replace("URL", aUrl).replace("EXTRA", backendExtra);
    }

    private static BackendView view(FulcrumApp app, String id) {
        return app.engine().backends().stream().filter(v -> v.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void maxInFlightAndBackupEditsOfARunningBackendAreApplied(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("cfg.json");
        Files.writeString(file, config("http://127.0.0.1:9001", ""));
        try (FulcrumApp app = FulcrumApp.start(ConfigLoader.load(file), file)) {
            List<EngineEvent> events = new CopyOnWriteArrayList<>();
            app.engine().subscribe(events::add);
            // the same config again changes nothing and says nothing of a
            assertThat(app.applyConfig(config("http://127.0.0.1:9001", ""))).isEmpty();
            assertThat(events).noneMatch(e -> "a".equals(e.backend()));

            // answered "applied" only when the engine has the cap and the backup flag
            assertThat(app.applyConfig(config("http://127.0.0.1:9001", ", \"maxInFlight\": 1, \"backup\": true"))).isEmpty();
            assertThat(view(app, "a").maxInFlight()).isEqualTo(1);
            assertThat(view(app, "a").backup()).isTrue();
            // a new address is refused (it names the field), not half applied
            assertThat(app.applyConfig(config("http://127.0.0.1:9011", ""))).singleElement().asString()
                    .startsWith("backends[0].url: a running backend keeps its URL");
        }
    }
}
