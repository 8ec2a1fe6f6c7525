package dev.fulcrum.ui.backends;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.MainWindow;
import dev.fulcrum.ui.WindowHarness;
import java.time.Duration;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** A row's actions say what they did: a drained row says so in words, a removal leaves no button armed. */
@Timeout(60)
class BackendsRowTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private RunningFulcrum fulcrum;
    private MainWindow window;

    @BeforeEach
    void open() {
        fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.of(StrategySpec.ROUND_ROBIN),
                BreakerConfig.DEFAULT, List.of(demo("demo-a", 1, 0, 0), demo("demo-b", 1, 0, 0),
                        demo("demo-c", 1, 0, 0)))).start();
        window = fx.open(fulcrum);
    }

    @Test
    void aDrainedRowSaysDrainedInPlaceOfAFullBar(FxRobot robot) {
        robot.clickOn(fx.waitFor("#drain-demo-a"));
        await().atMost(Duration.ofSeconds(10)).until(() -> "DRAINED".equals(fulcrum.backend("demo-a").state().name()));
        fx.untilAsserted(Duration.ofSeconds(5), () -> {
            ProgressBar bar = robot.lookup("#drainProgress-demo-a").queryAs(ProgressBar.class);
            Label left = robot.lookup("#drainLeft-demo-a").queryAs(Label.class);
            assertThat(bar.getProgress()).isEqualTo(1.0);
            assertThat(bar.isVisible()).as("a full bar with no words").isFalse();
            assertThat(left.isVisible()).isTrue();
            assertThat(left.getText()).isEqualTo("drained");
        });
    }

    @Test
    void afterRemoveFocusIsNotOnTheNextRowsRemoveButtonAndUndoIsOffered(FxRobot robot) {
        robot.clickOn(fx.waitFor("#remove-demo-a"));
        await().atMost(Duration.ofSeconds(10)).until(() -> fulcrum.backend("demo-a") == null);
        fx.until(Duration.ofSeconds(5), () -> robot.lookup("#row-demo-a").tryQuery().isEmpty());
        WaitForAsyncUtils.waitForFxEvents();

        Node focused = fx.onFx(() -> robot.targetWindow(window.scene().getWindow()).lookup("#backendsTable").query()
                .getScene().getFocusOwner());
        boolean onARemoveButton = fx.onFx(() -> focused instanceof Button b && b.getId() != null
                && b.getId().startsWith("remove-"));
        assertThat(onARemoveButton).as("focus after removing: %s", focused).isFalse();
        assertThat(fx.onFx(() -> robot.lookup("#undoButton").queryAs(Button.class).isDisabled())).isFalse();

        // a second Space (or Enter) now removes nothing
        robot.type(javafx.scene.input.KeyCode.SPACE);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fulcrum.backend("demo-b")).isNotNull();
        assertThat(fulcrum.backend("demo-c")).isNotNull();
    }

    @Test
    void aNarrowIdColumnCutsIdsInTheMiddleAndTellsTheWholeIdInATooltip(FxRobot robot) {
        fx.waitFor("#row-demo-a");
        javafx.scene.control.TableCell<?, ?> cell = fx.onFx(() -> robot.lookup("#row-demo-a").lookup(".table-cell")
                .match(n -> n instanceof javafx.scene.control.TableCell<?, ?> c && "demo-a".equals(c.getText()))
                .query());
        assertThat(fx.onFx(cell::getTextOverrun)).isEqualTo(javafx.scene.control.OverrunStyle.CENTER_ELLIPSIS);
        assertThat(fx.onFx(cell::getTooltip)).isNotNull();
        assertThat(fx.onFx(() -> cell.getTooltip().getText())).isEqualTo("demo-a");
    }
}
