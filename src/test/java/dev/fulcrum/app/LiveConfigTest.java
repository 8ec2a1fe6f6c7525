package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.DiscoveryConfig;
import dev.fulcrum.config.FulcrumConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What GET /api/config answers and a save writes: the config applied, with the live edits, and nothing lost. */
class LiveConfigTest {
    @Test
    void everyPoolKeepsItsDiscoverySources(@TempDir Path dir) throws Exception {
        Path members = dir.resolve("api.json");
        Files.writeString(members, "[]");
        String json = """
                {"proxy": {"port": 0}, "admin": {"port": 0}, "healthCheck": {"enabled": false},
                 "backends": [ {"id": "a", "url": "http://127.0.0.1:9001"} ],
                 "discovery": [ {"type": "file", "path": "FILE", "refreshMs": 60000} ],
                 "pools": {"api": {"backends": [ {"id": "api-1", "url": "http://127.0.0.1:9002"} ],
                                   "discovery": [ {"type": "file", "path": "FILE", "refreshMs": 60000} ]}},
                 "routes": [ {"pathPrefix": "/api", "pool": "api"} ]}
                """.replace("FILE", members.toString());
        try (FulcrumApp app = FulcrumApp.start(ConfigLoader.parse(json), null)) {
            FulcrumConfig live = app.liveConfig();

            assertThat(live.defaultPool().discovery()).extracting(DiscoveryConfig::path)
                    .containsExactly(members.toString());
            assertThat(live.pools().get("api").discovery()).extracting(DiscoveryConfig::path)
                    .containsExactly(members.toString());
        }
    }
}
