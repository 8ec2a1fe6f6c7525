package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.time.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Labels in the window against a real engine (docs/REFERENCE.md §2.1): the Backends tab's Labels column, the Live
 * card's labels line, the Add dialog's labels field with the config's messages, and an attached window reading them
 * from {@code GET /api/state}.
 */
@Timeout(60)
class BackendLabelsWindowTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private RunningFulcrum fulcrum;

    @BeforeEach
    void start() {
        fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.of(StrategySpec.ROUND_ROBIN),
                BreakerConfig.DEFAULT, List.of(new DemoBackendConfig("demo-a", 0, 1, 0, 0.0,
                                Map.of("zone", "a", "cost", "0.2")),
                        new DemoBackendConfig("demo-b", 0, 1, 0, 0.0)))).start();
    }

    /** The Backends table's cell showing {@code text}, once one does (within ten seconds). */
    private TableCell<?, ?> cellShowing(FxRobot robot, String text) {
        return fx.waitFor(() -> robot.lookup(".table-cell").queryAllAs(TableCell.class).stream()
                .filter(c -> text.equals(c.getText()) && c.isVisible()).findFirst().orElse(null));
    }

    @Test
    void theBackendsTableHasALabelsColumnAndTheLiveCardALabelsLine(FxRobot robot) {
        MainWindow window = fx.open(fulcrum);

        TableCell<?, ?> cell = cellShowing(robot, "cost=0.2 zone=a");
        assertThat(fx.onFx(() -> cell.getTableColumn().getText())).isEqualTo("Labels");
        assertThat(fx.onFx(() -> cell.getTableColumn().isVisible())).isTrue();
        assertThat(fx.onFx(() -> cell.getTooltip().getText())).isEqualTo("cost=0.2 zone=a");

        fx.onFx(() -> window.controller().select("Live"));
        Label line = (Label) fx.waitFor("#live-labels-demo-a");
        await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(() -> line.isVisible()));
        assertThat(fx.onFx(line::getText)).isEqualTo("cost=0.2 zone=a");
        assertThat(fx.onFx(() -> robot.lookup("#live-labels-demo-b").queryAs(Label.class).isVisible())).isFalse();
    }

    @Test
    void aPoolWithoutLabelsHasNoLabelsColumn(FxRobot robot) {
        fulcrum.close();
        fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.of(StrategySpec.ROUND_ROBIN),
                BreakerConfig.DEFAULT, List.of(RunningFulcrum.demo("demo-a", 1, 0, 0)))).start();
        MainWindow window = fx.open(fulcrum);
        fx.waitFor("#weight-demo-a");

        assertThat(fx.onFx(() -> window.controller().backends().viewModel().anyLabelsProperty().get())).isFalse();
        assertThat(fx.onFx(() -> robot.lookup(".column-header").queryAll().stream()
                .filter(h -> h.isVisible() && h.lookup(".label") instanceof Label l && "Labels".equals(l.getText()))
                .toList())).isEmpty();
    }

    @Test
    void theAddDialogTakesLabelsAndRefusesABadOneInTheConfigsWords(FxRobot robot) {
        fx.open(fulcrum);
        fx.waitFor("#weight-demo-a");
        robot.press(KeyCode.CONTROL, KeyCode.N).release(KeyCode.N, KeyCode.CONTROL);
        fx.waitFor("#addId");
        replace(robot, "#addId", "api-3");
        replace(robot, "#addUrl", "http://127.0.0.1:9");

        // a label name the config refuses: named, and Add disabled
        replace(robot, "#addLabels", "Zone=b");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx.text("#addProblems"))
                .isEqualTo("labels.Zone: must match [a-z][a-z0-9_]{0,31} (got: Zone)");
        assertThat(fx.onFx(() -> robot.lookup("#addConfirm").queryAs(Button.class).isDisabled())).isTrue();

        // fixed, Add adds the backend with its labels
        replace(robot, "#addLabels", "zone=b, cost=0.7");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx.text("#addProblems")).isEmpty();
        robot.clickOn("#addConfirm");
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("api-3") != null);
        assertThat(fulcrum.backend("api-3").labels()).isEqualTo(Map.of("zone", "b", "cost", "0.7"));
        cellShowing(robot, "cost=0.7 zone=b");
    }

    @Test
    void anAttachedWindowShowsTheLabelsTheAdminApiGives(FxRobot robot) {
        fx.closeAfter(fulcrum);
        MainWindow window = fx.attach(fulcrum.adminUrl(), Ticker.system());
        fx.onFx(() -> window.controller().select("Backends"));

        cellShowing(robot, "cost=0.2 zone=a");
        assertThat(fx.onFx(() -> window.session().state().backend("demo-a").labels()))
                .isEqualTo(Map.of("zone", "a", "cost", "0.2"));
    }

    /** Types {@code text} over whatever the field holds, as a user would (select all, type). */
    private static void replace(FxRobot robot, String query, String text) {
        robot.clickOn(query).press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL).write(text);
    }
}
