package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.engine.strategy.PluginRegistrations;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.MainWindow;
import dev.fulcrum.ui.WindowHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;

/**
 * The Strategy tab lists a plugin's strategy like a built-in: by its title, with its sentence and its settings'
 * fields, and applies it (docs/PLUGINS.md's cost-first, built from the page, on a real engine).
 */
@Timeout(90)
class PluginStrategyTabTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    @TempDir
    static Path dir;

    @BeforeAll
    static void loadTheExample() throws Exception {
        String page = Files.readString(Path.of("docs/PLUGINS.md"));
        List<String> sources = PluginJars.blocks(page).stream().filter(b -> b.language().equals("java"))
                .map(PluginJars.Block::text).toList();
        Map<String, String> resources = new LinkedHashMap<>();
        PluginJars.blocks(page).stream().filter(b -> b.path().startsWith("META-INF/"))
                .forEach(b -> resources.put(b.path(), b.text()));
        PluginJars.jar(dir.resolve("plugins"), "cost-first.jar", sources, resources);
        PluginLoader.loadAndRegister(List.of(dir.resolve("plugins")), null);
    }

    @AfterAll
    static void forgetIt() {
        PluginRegistrations.forget(List.of("cost-first"));
    }

    @Test
    void thePluginsStrategyIsListedWithItsSentenceAndSettingAndApplies(FxRobot robot) {
        try (RunningFulcrum fulcrum = RunningFulcrum.demoApp()) {
            MainWindow window = fx.open(fulcrum);
            // given the Strategy tab
            robot.interact(() -> window.controller().select("Strategy"));
            @SuppressWarnings("unchecked")
            ComboBox<String> type = robot.lookup("#strategyType").queryAs(ComboBox.class);
            fx.until(() -> "round-robin".equals(type.getValue()));
            assertThat(type.getItems()).endsWith("cost-first");
            assertThat(type.getConverter().toString("cost-first")).isEqualTo("cheapest first  (cost-first)");

            // when cost-first is chosen, its sentence and its one setting show
            robot.interact(() -> type.setValue("cost-first"));
            assertThat(robot.lookup("#explanation").queryAs(Label.class).getText())
                    .startsWith("Every request to the available backend with the lowest label cost");
            TextField missing = robot.lookup("#missingCostField").queryAs(TextField.class);
            assertThat(missing.getParent().isVisible() && !missing.isDisabled()).isTrue();
            assertThat(robot.lookup("#virtualNodesField").queryAs(TextField.class).getParent().isVisible())
                    .as("a built-in's setting it does not take").isFalse();

            // then it applies, with the setting typed
            robot.interact(() -> missing.setText("2"));
            robot.clickOn("#applyStrategy");
            await().atMost(Duration.ofSeconds(10)).until(() -> "cost-first".equals(
                    fulcrum.engine().pool("default").snapshot().spec().type()));
            assertThat(fulcrum.engine().pool("default").snapshot().spec().number("missingCost")).isEqualTo(2.0);
        }
    }
}
