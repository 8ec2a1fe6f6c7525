package dev.fulcrum.ui.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.MainWindow;
import dev.fulcrum.ui.WindowHarness;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** With "follow newest" ticked the Events table shows its newest row, however many arrive and in what bursts. */
@Timeout(90)
class EventsViewTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private RunningFulcrum fulcrum;
    private MainWindow window;

    @Test
    void followingNewestKeepsTheNewestRowInSightBurstAfterBurst(FxRobot robot) {
        // given the window on the Events tab, "follow newest" ticked
        fulcrum = RunningFulcrum.demoApp();
        window = fx.open(fulcrum);
        fx.onFx(() -> window.controller().select("Events"));
        @SuppressWarnings("unchecked")
        TableView<Object> table = fx.lookup("#eventsTable", TableView.class);
        Label count = fx.lookup("#eventCount", Label.class);

        for (int burst = 1; burst <= 3; burst++) {
            // when a burst of weight changes arrives (more rows than the table shows)
            for (int i = 0; i < 25; i++) {
                fulcrum.engine().setWeight("demo-a", 1 + (burst * 25 + i) % 50);
            }
            int expected = burst * 25;
            fx.until(() -> table.getItems().size() >= expected);
            WaitForAsyncUtils.waitForFxEvents();
            robot.interact(() -> { });
            WaitForAsyncUtils.waitForFxEvents();

            // then the newest row is laid out wholly inside the table's viewport
            int last = fx.onFx(() -> table.getItems().size()) - 1;
            assertThat(fx.onFx(count::getText)).startsWith((last + 1) + " of ");
            assertThat(fx.onFx(() -> rowVisible(table, last)))
                    .as("row %d of %d in sight after burst %d", last, last + 1, burst).isTrue();
        }
    }

    private static boolean rowVisible(TableView<?> table, int index) {
        Node flow = table.lookup(".virtual-flow");
        Node clip = table.lookup(".clipped-container");
        Bounds view = (clip != null ? clip : flow).localToScene((clip != null ? clip : flow).getLayoutBounds());
        for (Node n : table.lookupAll(".table-row-cell")) {
            if (n instanceof TableRow<?> r && r.getIndex() == index && r.isVisible() && r.getItem() != null) {
                Bounds b = r.localToScene(r.getLayoutBounds());
                return b.getMinY() >= view.getMinY() - 0.5 && b.getMaxY() <= view.getMaxY() + 0.5;
            }
        }
        return false;
    }
}
