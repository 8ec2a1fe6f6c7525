package dev.fulcrum.ui;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import java.time.Duration;
import java.util.List;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.controlsfx.control.ToggleSwitch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** The rest of the window against a real engine: shortcuts, strategy, events, demo faults, theme, title. */
@Timeout(60)
class WindowTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private RunningFulcrum fulcrum;
    private MainWindow window;
    private Stage stage;

    @BeforeEach
    void open() {
        fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.of(StrategySpec.ROUND_ROBIN), BreakerConfig.DEFAULT,
                List.of(demo("demo-a", 1, 0, 0), demo("demo-b", 2, 0, 0)))).start();
        window = fx.open(fulcrum);
        stage = fx.stage();
    }

    private void waitForRows(FxRobot robot) {
        fx.waitFor("#row-demo-a");
    }

    @Test
    void theTitleNamesTheEngineAndTheStatusBarItsProxy(FxRobot robot) {
        waitForRows(robot);
        assertThat(stage.getTitle()).isEqualTo("Fulcrum — embedded engine (test)");
        fx.untilAsserted(Duration.ofSeconds(5), () -> assertThat(
                robot.lookup("#statusBar").queryAs(org.controlsfx.control.StatusBar.class).getText())
                .contains(fulcrum.url()));
        assertThat(fx.text("#totalRps")).endsWith("req/s");
    }

    @Test
    void keyboardDrainsAndRemovesTheSelectedBackendAndCtrlZUndoesTheRemoval(FxRobot robot) {
        // given demo-a selected
        waitForRows(robot);
        robot.clickOn("#row-demo-a");

        // when D is pressed, it drains (no requests in flight: straight to DRAINED)
        robot.type(KeyCode.D);
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("demo-a").state().name().equals("DRAINED"));

        // and E enables it again
        robot.type(KeyCode.E);
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("demo-a").state().name().equals("UP"));

        // when Del is pressed, it is removed
        robot.clickOn("#row-demo-b");
        robot.type(KeyCode.DELETE);
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("demo-b") == null);
        fx.until(Duration.ofSeconds(5), () -> robot.lookup("#row-demo-b").tryQuery().isEmpty());

        // then Ctrl+Z brings it back with its URL and weight
        fx.until(Duration.ofSeconds(5), () -> window.session().undo().lastProperty().get() != null);
        robot.press(KeyCode.CONTROL, KeyCode.Z).release(KeyCode.Z, KeyCode.CONTROL);
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("demo-b") != null);
        assertThat(fulcrum.backend("demo-b").weight()).isEqualTo(2);
    }

    @Test
    void theStrategyViewAppliesAStrategyLiveAndShowsTheEnginesRefusal(FxRobot robot) {
        // given the Strategy tab
        waitForRows(robot);
        robot.interact(() -> window.controller().select("Strategy"));
        fx.until(Duration.ofSeconds(5), () ->
                "round-robin".equals(robot.lookup("#strategyType").queryAs(ComboBox.class).getValue()));

        // when maglev is chosen with a table size that is not prime
        @SuppressWarnings("unchecked")
        ComboBox<String> type = fx.lookup("#strategyType", ComboBox.class);
        robot.interact(() -> type.setValue("maglev"));
        assertThat(fx.text("#explanation")).startsWith("Google's Maglev");
        TextField size = fx.lookup("#tableSizeField", TextField.class);
        robot.interact(() -> size.setText("1000"));
        robot.clickOn("#applyStrategy");

        // then the engine's refusal is shown and nothing changed
        fx.untilAsserted(Duration.ofSeconds(5), () -> assertThat(
                robot.lookup("#strategyResult").queryAs(Label.class).getText()).contains("tableSize"));
        assertThat(fulcrum.engine().pool("default").snapshot().spec().type()).isEqualTo("round-robin");

        // when the size is prime, it applies
        robot.interact(() -> size.setText("65537"));
        robot.clickOn("#applyStrategy");
        await().atMost(Duration.ofSeconds(5)).until(() ->
                fulcrum.engine().pool("default").snapshot().spec().type().equals("maglev"));
    }

    @Test
    void theEventsViewListsEventsAndFiltersThem(FxRobot robot) {
        // given a weight change and a drain
        waitForRows(robot);
        fulcrum.engine().setWeight("demo-a", 7);
        fulcrum.engine().drain("demo-b");
        robot.interact(() -> window.controller().select("Events"));
        @SuppressWarnings("unchecked")
        TableView<dev.fulcrum.engine.EngineEvent> table = fx.lookup("#eventsTable", TableView.class);
        fx.until(Duration.ofSeconds(5), () -> table.getItems().stream().anyMatch(e -> "weight".equals(e.type()))
                && table.getItems().stream().anyMatch(e -> "drain".equals(e.type())));

        // when filtered by the text "demo-a"
        robot.clickOn("#eventFilter").write("demo-a");
        WaitForAsyncUtils.waitForFxEvents();

        // then only demo-a's events remain
        assertThat(fx.onFx(() -> List.copyOf(table.getItems()))).isNotEmpty()
                .allSatisfy(e -> assertThat(e.backend()).isEqualTo("demo-a"));
    }

    @Test
    void theDemoPanelTakesADemoBackendDown(FxRobot robot) {
        // given the demo tab (shown because the engine runs demo backends)
        await().atMost(Duration.ofSeconds(10)).until(() -> fx.anywhere(window, "#demoDown-demo-a", javafx.scene.Node.class) != null);
        robot.interact(() -> window.controller().select("Demo faults"));

        // when its down switch is flipped
        robot.interact(() -> robot.lookup("#demoDown-demo-a").queryAs(ToggleSwitch.class).setSelected(true));

        // then the demo backend is down
        await().atMost(Duration.ofSeconds(5)).until(() -> Boolean.TRUE.equals(fulcrum.app().demoState().get("demo-a").get("down")));
    }

    @Test
    void theDarkSwitchAddsTheDarkStylesheet(FxRobot robot) {
        waitForRows(robot);
        assertThat(fx.onFx(() -> List.copyOf(window.scene().getStylesheets()))).noneMatch(s -> s.endsWith("dark.css"));
        robot.interact(() -> window.controller().darkToggle().setSelected(true));
        assertThat(fx.onFx(() -> List.copyOf(window.scene().getStylesheets()))).anyMatch(s -> s.endsWith("dark.css"));
    }
}
