package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.strategy.PluginRegistrations;
import dev.fulcrum.testkit.RunningFulcrum;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plugin strategy that fails is replaced by its pool's fallback, and the proxy keeps answering (docs/PLUGINS.md,
 * "When a plugin fails"): one that throws from its pick, one slower than the pool's {@code pluginBudgetMs}. Real
 * plugin jars, loaded as {@code --plugins DIR} loads them, a whole Fulcrum and its demo backends, real requests.
 */
class PluginFallbackTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    @BeforeAll
    static void loadTwoBadPlugins() throws Exception {
        Path plugins = dir.resolve("plugins");
        PluginJars.pluginJar(plugins, "throws.jar", "test.throwing", "always-throws",
                "throw new IllegalStateException(\"no cost for \" + request.path());");
        // a plugin slow on purpose: every pick sleeps, far over a budget of 1 ms
        PluginJars.pluginJar(plugins, "slow.jar", "test.slow", "sleepy", """
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return cs.isEmpty() ? null : cs.get(0);""");
        PluginLoader.loadAndRegister(List.of(plugins), null);
    }

    @AfterAll
    static void forgetThem() {
        PluginRegistrations.forget(List.of("always-throws", "sleepy"));
    }

    private static final String CONFIG = """
            {"proxy": {"host": "127.0.0.1", "port": 0}, "admin": {"host": "127.0.0.1", "port": 0},
             "strategy": {"type": "always-throws"},
             "fallback": {"type": "smooth-weighted-round-robin"},
             "demoBackends": [{"id": "demo-a", "port": 0, "weight": 1, "latencyMs": 0},
                              {"id": "demo-b", "port": 0, "weight": 1, "latencyMs": 0}],
             "pools": {"slow": {"strategy": {"type": "sleepy"}, "pluginBudgetMs": 1,
                                "demoBackends": [{"id": "slow-a", "port": 0, "latencyMs": 0},
                                                 {"id": "slow-b", "port": 0, "latencyMs": 0}]}},
             "routes": [{"pathPrefix": "/slow", "pool": "slow"}],
             "healthCheck": {"enabled": false}, "retries": {"maxRetries": 0}}
            """;

    @Test
    void aPickThatThrowsIsServedByTheFallbackWithAnEventAndACounter() throws Exception {
        List<EngineEvent> events = new CopyOnWriteArrayList<>();
        try (RunningFulcrum f = RunningFulcrum.wholeApp(CONFIG).start()) {
            f.engine().subscribe(events::add);
            List<String> answered = PluginDocsTest.answeredBy(f, 20); // each asserts 200
            assertThat(answered).as("the fallback, smooth WRR over equal weights").containsOnly("demo-a", "demo-b")
                    .contains("demo-a", "demo-b");
            await().atMost(Duration.ofSeconds(10)).until(() -> events.stream()
                    .anyMatch(e -> e.type().equals("plugin-failed")));
            EngineEvent failed = events.stream().filter(e -> e.type().equals("plugin-failed")).findFirst().get();
            assertThat(failed.pool()).isEqualTo("default");
            assertThat(failed.from()).isEqualTo("always-throws");
            assertThat(failed.to()).isEqualTo("its pick threw IllegalStateException: no cost for /hello");
            assertThat(events.stream().filter(e -> e.type().equals("plugin-failed"))).as("told once").hasSize(1);

            JsonNode pool = JSON.readTree(f.get("/api/state").body()).path("pools").path("default");
            assertThat(pool.path("strategy").path("type").asText()).as("the configured strategy")
                    .isEqualTo("always-throws");
            assertThat(pool.path("pluginFailure").asText()).startsWith("its pick threw IllegalStateException");
            assertThat(pool.path("pluginFailures").asLong()).isEqualTo(1);
            assertThat(pool.path("fallback").path("type").asText()).isEqualTo("smooth-weighted-round-robin");
            assertThat(f.get("/metrics").body())
                    .contains("fulcrum_plugin_failures_total{pool=\"default\",strategy=\"always-throws\"} 1.0");

            // set again, the plugin is given another chance: it throws again, is counted again
            assertThat(f.call("PUT", "/api/strategy", "{\"type\": \"always-throws\"}").status()).isEqualTo(200);
            assertThat(f.proxied("/again").status()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(10)).until(() -> JSON.readTree(f.get("/api/state").body())
                    .path("pools").path("default").path("pluginFailures").asLong() == 2);
        }
    }

    @Test
    void picksOverTheBudgetOnAverageOverASecondHandThePoolToItsFallback() throws Exception {
        List<EngineEvent> events = new CopyOnWriteArrayList<>();
        try (RunningFulcrum f = RunningFulcrum.wholeApp(CONFIG).start()) {
            f.engine().subscribe(events::add);
            // sequential requests of 20 ms picks: after a second of them the window's average is far over 1 ms
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ZERO).until(() -> {
                assertThat(f.proxied("/slow/x").status()).isEqualTo(200);
                return events.stream().anyMatch(e -> e.type().equals("plugin-failed"));
            });
            EngineEvent failed = events.stream().filter(e -> e.type().equals("plugin-failed")).findFirst().get();
            assertThat(failed.pool()).isEqualTo("slow");
            assertThat(failed.from()).isEqualTo("sleepy");
            assertThat(failed.to()).matches("its picks took \\d+\\.\\d ms on average over \\d+ picks \\(pluginBudgetMs 1\\)");
            // the fallback (round robin by default) picks from now on: both backends answer, in turn
            await().atMost(Duration.ofSeconds(10)).until(() -> JSON.readTree(f.get("/api/state").body())
                    .path("pools").path("slow").path("pluginFailure").isTextual());
            List<String> after = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                RunningFulcrum.Answer r = f.proxied("/slow/y");
                assertThat(r.status()).isEqualTo(200);
                after.add(r.header("X-Fulcrum-Backend"));
            }
            assertThat(after).contains("slow-a", "slow-b");
            assertThat(f.get("/metrics").body())
                    .contains("fulcrum_plugin_failures_total{pool=\"slow\",strategy=\"sleepy\"} 1.0");
        }
    }
}
