package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.strategy.PluginDescriptor;
import dev.fulcrum.engine.strategy.PluginRegistrations;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/PLUGINS.md's example, compiled from the page as written: its Java blocks compiled against Fulcrum, put in a
 * jar with the services file the page shows, loaded from a plugin directory the way {@code --plugins DIR} loads it,
 * and sent real requests through a whole Fulcrum. If the page's code stops compiling or stops doing what the page
 * says, this fails. The plugin is taken out of the registry after, for the tests that run after it.
 */
class PluginDocsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static List<PluginDescriptor> loaded;

    @BeforeAll
    static void buildTheExampleFromThePage() throws Exception {
        String page = Files.readString(Path.of("docs/PLUGINS.md"));
        List<String> sources = PluginJars.blocks(page).stream().filter(b -> b.language().equals("java"))
                .map(PluginJars.Block::text).toList();
        Map<String, String> resources = new LinkedHashMap<>();
        PluginJars.blocks(page).stream().filter(b -> b.path().startsWith("META-INF/"))
                .forEach(b -> resources.put(b.path(), b.text()));
        assertThat(sources).as("the page's Java blocks").hasSize(2);
        assertThat(resources).as("the page's services file")
                .containsOnlyKeys("META-INF/services/dev.fulcrum.spi.StrategyProvider");
        PluginJars.jar(dir.resolve("plugins"), "cost-first.jar", sources, resources);
        loaded = PluginLoader.loadAndRegister(List.of(dir.resolve("plugins")), null);
    }

    @AfterAll
    static void forgetIt() {
        PluginRegistrations.forget(List.of("cost-first"));
    }

    @Test
    void thePageDescribesOneStrategyTheRegistryShowsBesideTheBuiltIns() {
        assertThat(loaded).extracting(PluginDescriptor::name).containsExactly("cost-first");
        assertThat(loaded.get(0).source()).endsWith("cost-first.jar");
        assertThat(StrategySpec.TYPES).contains("round-robin", "cost-first");
        assertThat(Strategies.descriptor("cost-first").title()).isEqualTo("cheapest first");
        assertThat(Strategies.descriptor("cost-first").options()).extracting(o -> o.name())
                .containsExactly("missingCost");
        // bounds come from the plugin's Option, in the words a built-in's setting gets
        assertThat(Strategies.validate(new StrategySpec("cost-first", Map.of("missingCost", -1.0))))
                .containsExactly("missingCost: must be between 0 and 1000000000 (got: -1)");
        assertThat(Strategies.validate(StrategySpec.bare("cost-firts")).get(0)).contains("cost-first");
    }

    @Test
    void thePagesConfigIsAValidConfigWithThePluginLoaded(@TempDir Path t) throws Exception {
        List<String> json = PluginJars.blocks(Files.readString(Path.of("docs/PLUGINS.md"))).stream()
                .filter(b -> b.language().equals("json")).map(PluginJars.Block::text).toList();
        assertThat(json).hasSize(1);
        JsonNode config = JSON.readTree(json.get(0));
        boolean labelsKnown = java.util.Arrays.stream(dev.fulcrum.config.BackendConfig.class.getRecordComponents())
                .anyMatch(c -> c.getName().equals("labels"));
        if (!labelsKnown) {
            // backends[i].labels is another change's; until it is in, the rest of the page's config is checked
            config.path("backends").forEach(b -> ((com.fasterxml.jackson.databind.node.ObjectNode) b).remove("labels"));
        }
        Path file = Files.writeString(t.resolve("cost.json"), JSON.writeValueAsString(config));
        assertThat(dev.fulcrum.config.ConfigLoader.check(file)).isEmpty();
        assertThat(dev.fulcrum.config.ConfigLoader.load(file).strategy().number("missingCost")).isEqualTo(100.0);
    }

    @Test
    void everyRequestGoesToTheCheapestAndTheNextCheapestTakesOverWhileItIsDrained() throws Exception {
        try (RecordingBackend a = new RecordingBackend("a"); RecordingBackend b = new RecordingBackend("b");
             RecordingBackend c = new RecordingBackend("c");
             RunningFulcrum f = RunningFulcrum.wholeApp("""
                     {"proxy": {"host": "127.0.0.1", "port": 0}, "admin": {"host": "127.0.0.1", "port": 0},
                      "strategy": {"type": "cost-first"},
                      "backends": [{"id": "placeholder", "url": "http://127.0.0.1:9"}],
                      "healthCheck": {"enabled": false}, "retries": {"maxRetries": 0}}
                     """).start()) {
            // labels through the engine's API (a config file's backends[i].labels is read the same way)
            Engine engine = f.engine();
            engine.remove("placeholder");
            engine.addBackend(Engine.DEFAULT_POOL, labelled("a", a, "0.5"), false);
            engine.addBackend(Engine.DEFAULT_POOL, labelled("b", b, "0.2"), false);
            engine.addBackend(Engine.DEFAULT_POOL, labelled("c", c, "0.3"), false);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> f.engine().backends().size() == 3);

            assertThat(answeredBy(f, 20)).as("all to the cheapest").containsOnly("b");
            assertThat(f.call("POST", "/api/backends/b/drain", null).status()).isEqualTo(202);
            assertThat(answeredBy(f, 20)).as("b drained: the next cheapest").containsOnly("c");
            assertThat(f.call("POST", "/api/backends/c/drain", null).status()).isEqualTo(202);
            assertThat(answeredBy(f, 10)).as("b and c drained").containsOnly("a");
            assertThat(f.call("POST", "/api/backends/b/enable", null).status()).isEqualTo(200);
            assertThat(answeredBy(f, 10)).as("b back: it takes its traffic back").containsOnly("b");

            JsonNode state = JSON.readTree(f.get("/api/state").body());
            assertThat(state.path("strategy").path("type").asText()).isEqualTo("cost-first");
            JsonNode pool = state.path("pools").path("default");
            assertThat(pool.path("strategy").path("type").asText()).isEqualTo("cost-first");
            assertThat(pool.path("fallback").path("type").asText()).isEqualTo("round-robin");
            assertThat(pool.path("pluginBudgetMs").asLong()).isEqualTo(5);
            assertThat(pool.path("pluginFailure").isNull()).isTrue();
            assertThat(pool.path("pluginFailures").asLong()).isZero();
            for (String format : List.of("nginx", "haproxy", "envoy")) {
                // no proxy has cost-first: each export says so and writes its nearest equivalent
                RunningFulcrum.Answer export = f.get("/api/config/export?format=" + format);
                assertThat(export.status()).as(format).isEqualTo(200);
                assertThat(export.body()).as(format).contains("cost-first");
            }
        }
    }

    @Test
    void aBackendWithoutACostComesLastUnlessMissingCostPricesIt() throws Exception {
        try (RecordingBackend a = new RecordingBackend("a"); RecordingBackend b = new RecordingBackend("b");
             RunningFulcrum f = RunningFulcrum.wholeApp("""
                     {"proxy": {"host": "127.0.0.1", "port": 0}, "admin": {"host": "127.0.0.1", "port": 0},
                      "strategy": {"type": "cost-first"},
                      "backends": [{"id": "placeholder", "url": "http://127.0.0.1:9"}],
                      "healthCheck": {"enabled": false}, "retries": {"maxRetries": 0}}
                     """).start()) {
            Engine engine = f.engine();
            engine.remove("placeholder");
            engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec("a", "http://127.0.0.1:" + a.port(), 1, null,
                    false, Map.of()), false);
            engine.addBackend(Engine.DEFAULT_POOL, labelled("b", b, "7"), false);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> f.engine().backends().size() == 2);
            assertThat(answeredBy(f, 5)).containsOnly("b");
            // through the admin API, as a config or the Strategy tab would set it
            assertThat(f.call("PUT", "/api/strategy", "{\"type\": \"cost-first\", \"missingCost\": 1}").status())
                    .isEqualTo(200);
            assertThat(answeredBy(f, 5)).containsOnly("a");
            assertThat(f.call("PUT", "/api/strategy", "{\"type\": \"cost-first\", \"missingCost\": -1}").body())
                    .contains("missingCost: must be between 0 and 1000000000 (got: -1)");
        }
    }

    private static BackendSpec labelled(String id, RecordingBackend r, String cost) {
        return new BackendSpec(id, "http://127.0.0.1:" + r.port(), 1, null, false, Map.of("cost", cost));
    }

    /** The backends that answered {@code n} sequential requests, in order. */
    static List<String> answeredBy(RunningFulcrum f, int n) {
        List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            RunningFulcrum.Answer r = f.proxied("/hello");
            assertThat(r.status()).isEqualTo(200);
            out.add(r.header("X-Fulcrum-Backend"));
        }
        return out;
    }
}
