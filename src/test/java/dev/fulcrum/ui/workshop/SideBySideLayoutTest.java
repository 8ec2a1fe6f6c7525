package dev.fulcrum.ui.workshop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.engine.sim.StrategyResult;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.MainWindow;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.WindowHarness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.CategoryAxis;
import javafx.scene.control.Button;
import javafx.scene.control.Tab;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.text.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * Side by side in the real window at a projector's 1280 x 720, after a run of every strategy (ten and the naive
 * weighted round robin): each result row on screen at once, and each strategy named under its bars in both charts, no
 * name over another.
 */
@Timeout(90)
class SideBySideLayoutTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    @Test
    @SuppressWarnings("unchecked")
    void atOneThousandTwoHundredAndEightyBySevenHundredAndTwentyEveryResultAndEveryStrategysNameShows(FxRobot robot) {
        RunningFulcrum fulcrum = fx.closeAfter(RunningFulcrum.demoApp());
        MainWindow window = fx.show(new UiSession(new InProcessEngineClient(fulcrum.app()), "embedded engine (test)"),
                WorkshopContext.embedded(fulcrum.app(), resource -> { }), null);
        robot.interact(() -> {
            fx.stage().setWidth(1280);
            fx.stage().setHeight(720);
            Tab sbs = window.controller().tabs().getTabs().stream()
                    .filter(t -> "workshopSideBySideTab".equals(t.getId())).findFirst().orElseThrow();
            window.controller().tabs().getSelectionModel().select(sbs);
        });
        robot.clickOn("#sbsRun");
        TableView<StrategyResult> table = fx.lookup("#sbsTable", TableView.class);
        await().atMost(Duration.ofSeconds(60)).until(() -> fx.onFx(() -> table.getItems().size() == 11
                && !robot.lookup("#sbsRun").queryAs(Button.class).isDisabled()));
        robot.interact(() -> {
            fx.stage().getScene().getRoot().applyCss();
            fx.stage().getScene().getRoot().layout();
        });

        // every row is on screen: inside the table and inside the window, none cut by either
        List<String> shown = fx.onFx(() -> {
            Bounds window720 = fx.stage().getScene().getRoot().localToScene(fx.stage().getScene().getRoot()
                    .getLayoutBounds());
            Bounds inTable = table.localToScene(table.getLayoutBounds());
            List<String> rows = new ArrayList<>();
            for (Node n : table.lookupAll(".table-row-cell")) {
                if (n instanceof TableRow<?> row && row.getItem() instanceof StrategyResult r && row.isVisible()) {
                    Bounds b = row.localToScene(row.getLayoutBounds());
                    if (b.getMinY() >= inTable.getMinY() && b.getMaxY() <= inTable.getMaxY() + 0.5
                            && b.getMaxY() <= window720.getMaxY() && visibleInScrollers(row, b)) {
                        rows.add(r.strategy());
                    }
                }
            }
            return rows;
        });
        assertThat(shown).as("result rows fully on screen").hasSize(11).contains("fastest-response");

        // every strategy is named under its bars, in each chart, and no name overlaps the next
        for (String chartId : List.of("#sbsLoadChart", "#sbsP99Chart")) {
            BarChart<String, Number> chart = fx.lookup(chartId, BarChart.class);
            List<Bounds> labels = fx.onFx(() -> {
                CategoryAxis axis = (CategoryAxis) chart.getXAxis();
                List<Bounds> out = new ArrayList<>();
                for (var tick : axis.getTickMarks()) {
                    for (Node n : axis.getChildrenUnmodifiable()) {
                        if (n instanceof Text t && String.valueOf(tick.getValue()).equals(t.getText()) && tick.isTextVisible()
                                && t.isVisible()) {
                            out.add(t.getBoundsInParent());
                        }
                    }
                }
                return out;
            });
            assertThat(labels).as(chartId + " strategy names shown").hasSize(11);
            for (int i = 0; i < labels.size(); i++) {
                for (int j = i + 1; j < labels.size(); j++) {
                    assertThat(labels.get(i).intersects(labels.get(j))).as(chartId + " names " + i + " and " + j + " overlap")
                            .isFalse();
                }
            }
        }
    }

    /** Whether {@code b} (scene bounds of {@code n}) lies inside the viewport of every scroll pane around {@code n}. */
    private static boolean visibleInScrollers(Node n, Bounds b) {
        for (Node p = n.getParent(); p != null; p = p.getParent()) {
            if (p instanceof javafx.scene.control.ScrollPane sp && sp.getContent() != null) {
                Node viewport = sp.getContent().getParent();
                Bounds v = viewport.localToScene(viewport.getLayoutBounds());
                if (b.getMinY() < v.getMinY() - 0.5 || b.getMaxY() > v.getMaxY() + 0.5) {
                    return false;
                }
            }
        }
        return true;
    }
}
