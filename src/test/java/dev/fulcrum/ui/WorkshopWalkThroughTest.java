package dev.fulcrum.ui;

import static dev.fulcrum.ui.UiTestSupport.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.app.FulcrumApp;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.HealthCheckConfig;
import dev.fulcrum.config.OutlierConfig;
import dev.fulcrum.config.RetryConfig;
import dev.fulcrum.engine.StrategySpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** What a trainer ran into walking through a workshop in the window (session 16's review). */
@ExtendWith(ApplicationExtension.class)
@Timeout(90)
class WorkshopWalkThroughTest {
    private Stage stage;
    private FulcrumApp app;
    private MainWindow window;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void stop() {
        if (window != null) {
            window.session().close();
        }
        if (app != null) {
            app.close();
        }
    }

    private void open(FxRobot robot, StrategySpec strategy) {
        FulcrumConfig c = FulcrumConfig.of(strategy, List.of(),
                List.of(demo("demo-a", 5, 0, 0), demo("demo-b", 3, 0, 0), demo("demo-c", 1, 0, 0)))
                .withProxyPort(0).withAdminPort(0);
        c = new FulcrumConfig(c.proxy(), c.admin(), c.strategy(), c.backends(), c.demoBackends(),
                new HealthCheckConfig(false, "/health", 2000, 1000, 200, 2, 3),
                new OutlierConfig(false, 5, 30_000, 50), BreakerConfig.DEFAULT, new RetryConfig(0, false), c.timeouts(),
                c.slowStartMs(), c.stickySession(), c.pools(), c.routes());
        app = FulcrumApp.start(c, null);
        robot.interact(() -> window = UiTestSupport.open(stage, app));
        await().atMost(Duration.ofSeconds(10)).until(() -> robot.lookup("#weight-demo-a").tryQuery().isPresent());
    }

    @Test
    void aLookedUpKeyIsShownAgainWhenTheStrategyGoesBackToAHashingOne(FxRobot robot) {
        // given the Ring tab on a consistent-hash pool with /k1 looked up
        open(robot, StrategySpec.of(StrategySpec.CONSISTENT_HASH));
        robot.interact(() -> window.controller().select("Ring"));
        TextField key = robot.lookup("#ringKey").queryAs(TextField.class);
        Label result = robot.lookup("#lookupLabel").queryAs(Label.class);
        robot.interact(() -> key.setText("/k1"));
        await().atMost(Duration.ofSeconds(5)).until(() -> result.getText().startsWith("hash "));
        InProcessEngineClient c = new InProcessEngineClient(app);

        // when the trainer switches to round robin and then to maglev to compare
        c.setStrategy("default", Map.of("type", "round-robin"));
        Label noRing = robot.lookup("#noRingLabel").queryAs(Label.class);
        await().atMost(Duration.ofSeconds(5)).until(() -> noRing.getText() != null && noRing.getText().contains("round-robin"));
        c.setStrategy("default", Map.of("type", "maglev", "key", "path"));
        await().atMost(Duration.ofSeconds(5)).until(() -> noRing.getText() == null || noRing.getText().isEmpty()
                || !noRing.isVisible());
        WaitForAsyncUtils.sleep(2, java.util.concurrent.TimeUnit.SECONDS);

        // then the key's owner in the Maglev table is shown (it reads "…" until the key is retyped)
        assertThat(result.getText()).as("lookup result for /k1 after switching back to a hashing strategy")
                .startsWith("hash ");
    }

    @Test
    void backendsTableCutsNoFigureAt1024x700(FxRobot robot) {
        // given the Backends tab with traffic measured, in a 1024 x 700 window (a projector's resolution)
        open(robot, StrategySpec.of(StrategySpec.ROUND_ROBIN));
        robot.interact(() -> {
            stage.setWidth(1024);
            stage.setHeight(700);
        });
        for (int i = 0; i < 30; i++) {
            UiTestSupport.get(app, "/k/" + i);
        }
        WaitForAsyncUtils.sleep(2500, java.util.concurrent.TimeUnit.MILLISECONDS);
        WaitForAsyncUtils.waitForFxEvents();

        // then no cell of the table shows its text cut with an ellipsis (URL, p50 / p99, header "In flight")
        java.util.List<String> cut = new java.util.ArrayList<>();
        robot.interact(() -> {
            for (javafx.scene.Node n : robot.lookup("#backendsTable").query().lookupAll(".text")) {
                if (n instanceof javafx.scene.text.Text t && n.getParent() instanceof javafx.scene.control.Labeled l
                        && l.isVisible() && l.getText() != null && !l.getText().equals(t.getText())) {
                    cut.add(l.getText() + " -> " + t.getText());
                }
            }
        });
        assertThat(cut).as("texts cut in the Backends table at 1024 x 700").isEmpty();
    }

    @Test
    void theAddDialogOpensWithoutProblemsAndNamesThemOnceTyped(FxRobot robot) {
        // given the Backends tab
        open(robot, StrategySpec.of(StrategySpec.ROUND_ROBIN));

        // when Ctrl+N opens the add dialog
        robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.N)
                .release(javafx.scene.input.KeyCode.N, javafx.scene.input.KeyCode.CONTROL);
        await().atMost(Duration.ofSeconds(5)).until(() -> robot.lookup("#addId").tryQuery().isPresent());
        WaitForAsyncUtils.waitForFxEvents();

        // then it does not open in red, but Add waits for an id
        assertThat(robot.lookup("#addProblems").queryAs(Label.class).getText()).isEmpty();
        assertThat(robot.lookup("#addConfirm").queryAs(javafx.scene.control.Button.class).isDisabled()).isTrue();

        // and a typed id that is taken is named at once
        robot.clickOn("#addId").write("demo-a");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(robot.lookup("#addProblems").queryAs(Label.class).getText()).isEqualTo("id: already exists (got: demo-a)");
        robot.press(javafx.scene.input.KeyCode.ESCAPE).release(javafx.scene.input.KeyCode.ESCAPE);
    }

    @Test
    void choosingMaglevAfterRoundRobinOffersThePoolsLastKey(FxRobot robot) {
        // given a pool hashed by path, then switched to round robin
        open(robot, StrategySpec.of(StrategySpec.CONSISTENT_HASH));
        InProcessEngineClient c = new InProcessEngineClient(app);
        c.setStrategy("default", Map.of("type", "consistent-hash", "key", "path"));
        robot.interact(() -> window.controller().select("Strategy"));
        @SuppressWarnings("unchecked")
        javafx.scene.control.ComboBox<String> key = robot.lookup("#keyField").queryAs(javafx.scene.control.ComboBox.class);
        await().atMost(Duration.ofSeconds(5)).until(() -> "path".equals(key.getValue()));
        c.setStrategy("default", Map.of("type", "round-robin"));
        @SuppressWarnings("unchecked")
        javafx.scene.control.ComboBox<String> type = robot.lookup("#strategyType").queryAs(javafx.scene.control.ComboBox.class);
        await().atMost(Duration.ofSeconds(5)).until(() -> "round-robin".equals(type.getValue()));

        // when the trainer chooses maglev
        robot.interact(() -> type.setValue(StrategySpec.MAGLEV));

        // then the key offered is still path (ip would send the generator's traffic, from one address, to one backend)
        // and no "Applied to pool default: {type=round-robin}" is left beside the new choice
        assertThat(key.getValue()).isEqualTo("path");
        assertThat(robot.lookup("#strategyResult").queryAs(Label.class).getText()).isEmpty();
    }
}
