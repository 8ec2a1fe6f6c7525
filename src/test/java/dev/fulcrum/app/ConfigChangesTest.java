package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.app.ConfigChanges.Running;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.time.ManualClock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The diff of a running Fulcrum and a new config, with no server: the steps in their order, and the refusals. */
class ConfigChangesTest {
    private Engine engine;

    @AfterEach
    void close() {
        if (engine != null) {
            engine.close();
        }
    }

    /** What runs when {@code json} was started: its pools and backends in a manual engine, nothing discovered. */
    private Running running(String json, Set<String> discovered) {
        FulcrumConfig c = ConfigLoader.parse(json);
        engine = Engine.manual(c.toEngineSettings(), new ManualClock(), RandomSource.seeded(1));
        for (Map.Entry<String, PoolConfig> e : c.allPools().entrySet()) {
            engine.addPool(e.getKey(), e.getValue().strategy());
            for (BackendSpec s : e.getValue().backendSpecs()) {
                engine.addBackend(e.getKey(), s, false);
            }
        }
        Map<String, StrategySpec> strategies = new HashMap<>();
        for (Pool p : engine.pools()) {
            strategies.put(p.name(), p.snapshot().spec());
        }
        return new Running(c, engine.backends(), strategies, Map.of(), discovered, "127.0.0.1");
    }

    private static List<String> steps(Running now, String json) {
        return ConfigChanges.steps(now, ConfigLoader.parse(json)).stream().map(Object::toString).toList();
    }

    @Test
    void theClassExample() {
        Running now = running("""
                {"strategy": {"type": "round-robin"},
                 "backends": [{"id": "a", "url": "http://127.0.0.1:9001", "weight": 1},
                              {"id": "b", "url": "http://127.0.0.1:9002", "weight": 2}]}
                """, Set.of());

        assertThat(steps(now, """
                {"strategy": {"type": "least-requests"},
                 "backends": [{"id": "b", "url": "http://127.0.0.1:9002", "weight": 5},
                              {"id": "c", "url": "http://127.0.0.1:9003"}]}
                """)).containsExactly("remove a", "strategy default least-requests", "keep b", "weight b 2->5",
                "add default/c");
    }

    @Test
    void newLabelsAreALabelsStepInPlaceNotAMove() {
        Running now = running("""
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9001", "labels": {"zone": "a"}},
                              {"id": "b", "url": "http://127.0.0.1:9002", "labels": {"zone": "b"}}],
                 "demoBackends": [{"id": "d", "port": 9101}]}
                """, Set.of());

        assertThat(steps(now, """
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9001", "labels": {"zone": "a"}},
                              {"id": "b", "url": "http://127.0.0.1:9002", "labels": {"zone": "c", "cost": "0.2"}}],
                 "demoBackends": [{"id": "d", "port": 9101, "labels": {"tier": "spot"}}]}
                """)).containsExactly("demo d 5ms 0.0", "keep a", "keep b", "labels b {cost=0.2, zone=c}", "keep d",
                "labels d {tier=spot}");
        assertThat(steps(now, """
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9001"},
                              {"id": "b", "url": "http://127.0.0.1:9002", "labels": {"zone": "b"}}],
                 "demoBackends": [{"id": "d", "port": 9101}]}
                """)).containsExactly("demo d 5ms 0.0", "keep a", "labels a {}", "keep b", "keep d");
    }

    @Test
    void theSameConfigAgainKeepsEveryBackendAndSetsNoWeight() {
        String json = """
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9001", "weight": 3}],
                 "pools": {"api": {"backends": [{"id": "x", "url": "http://127.0.0.1:9010"}]}}}
                """;
        Running now = running(json, Set.of());

        assertThat(steps(now, json)).containsExactly("keep a", "keep x");
    }

    @Test
    void aChangedFallbackOrPluginBudgetIsSetOnItsPoolAndANewPoolGetsItsOwn() {
        Running now = running("""
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9001"}]}
                """, Set.of());

        assertThat(steps(now, """
                {"fallback": {"type": "random"}, "pluginBudgetMs": 20,
                 "backends": [{"id": "a", "url": "http://127.0.0.1:9001"}],
                 "pools": {"api": {"pluginBudgetMs": 9, "backends": [{"id": "x", "url": "http://127.0.0.1:9010"}]},
                           "web": {"backends": [{"id": "w", "url": "http://127.0.0.1:9011"}]}}}
                """)).containsExactly("fallback default random 20ms", "keep a", "add pool api smooth-weighted-round-robin",
                "fallback api round-robin 9ms", "add api/x",
                "add pool web smooth-weighted-round-robin", "add web/w");
    }

    @Test
    void aBackendMovingToANewPoolIsMovedAfterThePoolIsAddedAndADroppedPoolGoesLast() {
        Running now = running("""
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9001"}],
                 "pools": {"old": {"backends": [{"id": "b", "url": "http://127.0.0.1:9002"}]}}}
                """, Set.of());

        assertThat(steps(now, """
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9001", "backup": true}],
                 "pools": {"api": {"strategy": {"type": "random"},
                                   "backends": [{"id": "b", "url": "http://127.0.0.1:9002"}]}}}
                """)).containsExactly("move default/a", "add pool api random", "move api/b", "remove pool old");
    }

    @Test
    void aDiscoveredBackendIsNeitherRemovedNorListable() {
        Running now = running("""
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9001"},
                              {"id": "found", "url": "http://127.0.0.1:9009"}]}
                """, Set.of("found"));
        String next = """
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9001"}]}
                """;

        assertThat(steps(now, next)).containsExactly("keep a");
        assertThat(ConfigChanges.refusals(now, ConfigLoader.parse("""
                {"backends": [{"id": "found", "url": "http://127.0.0.1:9009"}]}
                """))).containsExactly("backends[0].id: already taken by a discovered backend (got: found)");
    }

    @Test
    void restartOnlyFieldsAreRefusedOneProblemPerFieldAndASecretIsNeverEchoed() {
        Running now = running("""
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9001"}],
                 "stickySession": {"enabled": true, "secret": "0123456789abcdef-one"}}
                """, Set.of());

        assertThat(ConfigChanges.refusals(now, ConfigLoader.parse("""
                {"proxy": {"port": 8090, "maxHeaderBytes": 4096},
                 "backends": [{"id": "a", "url": "http://127.0.0.1:9011"}],
                 "stickySession": {"enabled": true, "secret": "0123456789abcdef-two"}}
                """))).containsExactly(
                "proxy.port: takes effect at a restart; the running process keeps 8080 (got: 8090)",
                "proxy.maxHeaderBytes: takes effect at a restart; the running process keeps 8192 (got: 4096)",
                "stickySession.secret: takes effect at a restart; the running process keeps its own (got: another secret)",
                "backends[0].url: a running backend keeps its URL; remove it and add it under a new id "
                        + "(got: http://127.0.0.1:9011)");
    }

    @Test
    void logDecisionsIsNoRestartFieldButTheProxysOthersStillAre() {
        Running now = running("""
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9001"}]}
                """, Set.of());

        assertThat(ConfigChanges.refusals(now, ConfigLoader.parse("""
                {"proxy": {"logDecisions": true},
                 "backends": [{"id": "a", "url": "http://127.0.0.1:9001"}]}
                """))).isEmpty();
        assertThat(ConfigChanges.refusals(now, ConfigLoader.parse("""
                {"proxy": {"logDecisions": true, "ioThreads": 3},
                 "backends": [{"id": "a", "url": "http://127.0.0.1:9001"}]}
                """))).containsExactly(
                "proxy.ioThreads: takes effect at a restart; the running process keeps 0 (got: 3)");
    }

    @Test
    void logDecisionsIsABooleanOffByDefault() {
        assertThat(ConfigLoader.parse("""
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9001"}]}
                """).proxy().logDecisions()).isFalse();
        assertThatThrownBy(() -> ConfigLoader.parse("""
                {"proxy": {"logDecisions": "yes"}, "backends": [{"id": "a", "url": "http://127.0.0.1:9001"}]}
                """)).hasMessageContaining("proxy.logDecisions: must be true or false (got: \"yes\")");
    }
}
