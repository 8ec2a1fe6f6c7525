package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/state}'s {@code configSource} (docs/REFERENCE.md §4) as a real admin listener serves it, read by the
 * remote and the in-process client into {@link EngineState.ConfigSourceInfo}; absent for a config file.
 */
class ConfigSourceStateTest {
    private final AtomicReference<Map<String, Object>> source = new AtomicReference<>();
    private Engine engine;
    private AdminServer admin;
    private AdminRuntime runtime;

    @BeforeEach
    void start() {
        engine = Engine.start(EngineSettings.DEFAULT);
        runtime = new EngineOnlyRuntime(engine) {
            @Override
            public Map<String, Object> configSource() {
                return source.get();
            }
        };
        admin = new AdminServer(runtime, "127.0.0.1", 0, null).start();
    }

    @AfterEach
    void stop() {
        admin.close();
        engine.close();
    }

    private List<EngineState> readBothWays() {
        try (HttpEngineClient remote = new HttpEngineClient(URI.create("http://127.0.0.1:" + admin.port()), null)) {
            return List.of(remote.state(), new InProcessEngineClient(runtime).state());
        }
    }

    @Test
    void aConfigFromEtcdIsDescribedWithItsRejectedRevision() {
        Map<String, Object> rejected = new LinkedHashMap<>();
        rejected.put("revision", 42L);
        rejected.put("at", 1_764_000_000_500L);
        rejected.put("problems", List.of("backends[0].weight: must be between 0 and 1000 (got: -1)"));
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", "etcd");
        s.put("url", "etcd://127.0.0.1:2379/fulcrum/prod");
        s.put("key", "/fulcrum/prod/config");
        s.put("instance", "host-a");
        s.put("state", "unreachable");
        s.put("since", 1_764_000_000_000L);
        s.put("revision", 41L);
        s.put("rejected", rejected);
        source.set(s);

        for (EngineState state : readBothWays()) {
            EngineState.ConfigSourceInfo c = state.configSource();
            assertThat(c).isEqualTo(new EngineState.ConfigSourceInfo("etcd", "etcd://127.0.0.1:2379/fulcrum/prod",
                    "/fulcrum/prod/config", "host-a", "unreachable", 1_764_000_000_000L, 41L,
                    new EngineState.Rejected(42L, 1_764_000_000_500L,
                            List.of("backends[0].weight: must be between 0 and 1000 (got: -1)"))));
            assertThat(c.reachable()).isFalse();
        }
    }

    @Test
    void aConfigFileHasNoConfigSource() {
        for (EngineState state : readBothWays()) {
            assertThat(state.configSource()).isNull();
            assertThat(state.proxy()).isEqualTo("http://127.0.0.1:8080");
        }
    }
}
