package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.testkit.ProcessOutput;
import dev.fulcrum.testkit.RecordingBackend;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --plugins DIR} and {@code $XDG_CONFIG_HOME/fulcrum/plugins/} on the real command line: {@code dev.fulcrum.Main}
 * in its own JVM (so the plugins it registers stay in it), with docs/PLUGINS.md's example built from the page. A start
 * whose plugins clash stops with exit 2 and one line naming the jars, headless and for the window alike.
 */
class PluginCommandLineTest {
    private static final Pattern READY = Pattern.compile("fulcrum ready proxy=(http://127\\.0\\.0\\.1:\\d+) admin=(\\S+)");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    /** docs/PLUGINS.md's cost-first, as a jar (not in a plugin directory: each test copies it where it wants it). */
    static Path costFirst;

    @BeforeAll
    static void buildTheExample() throws Exception {
        String page = Files.readString(Path.of("docs/PLUGINS.md"));
        List<String> sources = PluginJars.blocks(page).stream().filter(b -> b.language().equals("java"))
                .map(PluginJars.Block::text).toList();
        Map<String, String> resources = new LinkedHashMap<>();
        PluginJars.blocks(page).stream().filter(b -> b.path().startsWith("META-INF/"))
                .forEach(b -> resources.put(b.path(), b.text()));
        costFirst = PluginJars.jar(dir.resolve("built"), "cost-first.jar", sources, resources);
    }

    /** Starts {@code dev.fulcrum.Main args} with {@code XDG_CONFIG_HOME} at {@code xdg}. */
    private static Process main(Path xdg, Path stderr, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "-Djava.awt.headless=true", "dev.fulcrum.Main"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(stderr.toFile());
        pb.environment().put("XDG_CONFIG_HOME", xdg.toString());
        return pb.start();
    }

    /** Runs to its end: exit code and standard error. */
    private static Map.Entry<Integer, String> run(Path xdg, String... args) throws Exception {
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        Process p = main(xdg, err, args);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("exits").isTrue();
        return Map.entry(p.exitValue(), Files.readString(err));
    }

    private static Path config(Path file, String json) throws Exception {
        return PluginJars.write(file, json);
    }

    @Test
    void headlessWithPluginsFromTheFlagAndTheConfigFolderServesWithThem(@TempDir Path t) throws Exception {
        Path plugins = Files.createDirectories(t.resolve("plugins"));
        Files.copy(costFirst, plugins.resolve("cost-first.jar"));
        Path xdg = t.resolve("xdg");
        // a second plugin in the user's config folder: always the last candidate by id
        PluginJars.pluginJar(xdg.resolve("fulcrum/plugins"), "last.jar", "test.last", "last-by-id",
                "return cs.isEmpty() ? null : cs.get(cs.size() - 1);");
        try (RecordingBackend a = new RecordingBackend("a"); RecordingBackend b = new RecordingBackend("b");
             RecordingBackend c = new RecordingBackend("c")) {
            Path cfg = config(t.resolve("fulcrum.json"), """
                    {"strategy": {"type": "cost-first"},
                     "backends": [{"id": "b", "url": "%s"}, {"id": "a", "url": "%s"}],
                     "pools": {"other": {"strategy": {"type": "last-by-id"}, "fallback": {"type": "random"},
                                         "pluginBudgetMs": 50,
                                         "backends": [{"id": "c", "url": "%s"}]}},
                     "routes": [{"pathPrefix": "/other", "pool": "other"}],
                     "healthCheck": {"enabled": false}}
                    """.formatted(b.url(), a.url(), c.url()));
            Path err = t.resolve("stderr.txt");
            Process p = main(xdg, err, "--headless", "--plugins", plugins.toString(), "--config", cfg.toString(),
                    "--proxy-port", "0", "--admin-port", "0");
            try {
                String line = ProcessOutput.firstLine(p, Duration.ofSeconds(120));
                Matcher m = READY.matcher(line == null ? "" : line);
                assertThat(m.matches()).as("ready line (got: %s; stderr: %s)", line, Files.readString(err)).isTrue();
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
                for (int i = 0; i < 6; i++) {
                    // no backend has a cost label: all tie, and ties go by id
                    assertThat(get(http, m.group(1) + "/x").headers().firstValue("X-Fulcrum-Backend")).hasValue("a");
                }
                assertThat(get(http, m.group(1) + "/other/y").headers().firstValue("X-Fulcrum-Backend"))
                        .hasValue("c");
                JsonNode state = JSON.readTree(get(http, m.group(2) + "/api/state").body());
                assertThat(state.path("strategy").path("type").asText()).isEqualTo("cost-first");
                JsonNode other = state.path("pools").path("other");
                assertThat(other.path("strategy").path("type").asText()).isEqualTo("last-by-id");
                assertThat(other.path("fallback").path("type").asText()).isEqualTo("random");
                assertThat(other.path("pluginBudgetMs").asLong()).isEqualTo(50);
                JsonNode config = JSON.readTree(get(http, m.group(2) + "/api/config").body());
                assertThat(config.path("pools").path("other").path("fallback").path("type").asText())
                        .as("the running config round-trips the fallback").isEqualTo("random");
                assertThat(Files.readString(err)).contains("plugins: strategy cost-first from " + plugins
                        .resolve("cost-first.jar").toAbsolutePath().normalize());
            } finally {
                p.destroy();
                p.waitFor(60, TimeUnit.SECONDS);
                p.destroyForcibly();
            }
        }
    }

    private static HttpResponse<String> get(HttpClient http, String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void twoPluginsWithOneNameStopTheStartNamingBothJarsHeadlessAndForTheWindow(@TempDir Path t) throws Exception {
        Path plugins = Files.createDirectories(t.resolve("plugins"));
        Path x = Files.copy(costFirst, plugins.resolve("x.jar"));
        Path y = Files.copy(costFirst, plugins.resolve("y.jar"));
        Path cfg = config(t.resolve("fulcrum.json"), """
                {"strategy": {"type": "round-robin"}, "backends": [{"id": "a", "url": "http://127.0.0.1:9"}]}
                """);
        String expected = "plugins: two strategies are called cost-first (in " + x + " and " + y + ")";
        Map.Entry<Integer, String> headless = run(t.resolve("xdg"), "--headless", "--plugins", plugins.toString(),
                "--config", cfg.toString());
        assertThat(headless.getKey()).isEqualTo(2);
        assertThat(headless.getValue().lines()).contains(expected);
        // the window: the same check, before any window opens
        Map.Entry<Integer, String> window = run(t.resolve("xdg"), "--plugins", plugins.toString(), "--config",
                cfg.toString());
        assertThat(window.getKey()).isEqualTo(2);
        assertThat(window.getValue().lines()).contains(expected);
    }

    @Test
    void aPluginWithABuiltInsNameStopsTheStart(@TempDir Path t) throws Exception {
        Path xdg = t.resolve("xdg");
        Path jar = PluginJars.pluginJar(xdg.resolve("fulcrum/plugins"), "rr.jar", "test.rr", "round-robin",
                "return null;");
        Map.Entry<Integer, String> r = run(xdg, "--headless", "--config", config(t.resolve("f.json"), """
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9"}]}
                """).toString());
        assertThat(r.getKey()).isEqualTo(2);
        assertThat(r.getValue().lines()).contains("plugins: " + jar.toAbsolutePath().normalize()
                + " provides round-robin, which is a built-in strategy");
    }

    @Test
    void checkConfigKnowsThePluginsStrategiesAndListsThemWhenATypeIsUnknown(@TempDir Path t) throws Exception {
        Path plugins = Files.createDirectories(t.resolve("plugins"));
        Files.copy(costFirst, plugins.resolve("cost-first.jar"));
        Path good = config(t.resolve("good.json"), """
                {"strategy": {"type": "cost-first", "missingCost": 3},
                 "backends": [{"id": "a", "url": "http://127.0.0.1:9"}]}
                """);
        Map.Entry<Integer, String> ok = run(t.resolve("xdg"), "--plugins", plugins.toString(), "--check-config",
                good.toString());
        assertThat(ok.getKey()).as(ok.getValue()).isZero();
        Path bad = config(t.resolve("bad.json"), """
                {"strategy": {"type": "cost-firts"},
                 "fallback": {"type": "cost-first"}, "pluginBudgetMs": 0,
                 "backends": [{"id": "a", "url": "http://127.0.0.1:9"}]}
                """);
        Map.Entry<Integer, String> refused = run(t.resolve("xdg"), "--plugins", plugins.toString(),
                "--check-config", bad.toString());
        assertThat(refused.getKey()).isEqualTo(2);
        assertThat(refused.getValue().lines())
                .anyMatch(l -> l.startsWith("config error: strategy.type: unknown strategy, one of round-robin,")
                        && l.endsWith(", cost-first (got: cost-firts)"))
                .anyMatch(l -> l.startsWith("config error: fallback.type: must be a built-in strategy, not a"
                        + " plugin's, one of round-robin,") && l.endsWith("(got: cost-first)"))
                .contains("config error: pluginBudgetMs: must be between 1 and 1000 (got: 0)");
        Map.Entry<Integer, String> noDir = run(t.resolve("xdg"), "--plugins", t.resolve("nowhere").toString(),
                "--check-config", good.toString());
        assertThat(noDir.getKey()).isEqualTo(2);
        assertThat(noDir.getValue().lines()).contains("plugins: --plugins " + t.resolve("nowhere")
                + ": no such directory");
    }
}
