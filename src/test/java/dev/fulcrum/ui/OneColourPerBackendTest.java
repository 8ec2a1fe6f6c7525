package dev.fulcrum.ui;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javafx.scene.Group;
import javafx.scene.Node;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.paint.Paint;
import javafx.scene.shape.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * One colour per backend in every view (README, "See it move"), after the membership changed under the views: a backend
 * removed through the Ring tab's what-if and brought back with Undo is drawn in the same colour on the Live stage, in
 * the Ring's legend and in every line, area and legend entry of the Load charts.
 */
@Timeout(90)
class OneColourPerBackendTest {
    private static final List<String> IDS = List.of("demo-a", "demo-b", "demo-c");

    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    @Test
    void aBackendRemovedThroughTheRingAndUndoneKeepsItsColourInLiveRingAndLoad(FxRobot robot) {
        // given three backends on a ring, every view in the window has met them
        RunningFulcrum fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(
                StrategySpec.bare("consistent-hash").with("key", "path"), BreakerConfig.DEFAULT,
                List.of(demo("demo-a", 5, 0, 0), demo("demo-b", 3, 0, 0), demo("demo-c", 1, 0, 0)))).start();
        MainWindow window = fx.open(fulcrum);
        await().atMost(Duration.ofSeconds(10)).until(() -> loadSeries(window).containsAll(IDS));

        // when demo-b is removed with the Ring tab's what-if, applied, and the removal undone with Ctrl+Z
        robot.interact(() -> window.controller().select("Ring"));
        fx.waitFor("#whatIfBackend");
        robot.interact(() -> whatIfBackend(robot).setValue("demo-b"));
        robot.clickOn("#previewButton");
        fx.until(() -> !robot.lookup("#applyButton").queryAs(Button.class).isDisabled());
        robot.clickOn("#applyButton");
        await().atMost(Duration.ofSeconds(10)).until(() -> !loadSeries(window).contains("demo-b"));
        robot.press(KeyCode.CONTROL).type(KeyCode.Z).release(KeyCode.CONTROL);
        await().atMost(Duration.ofSeconds(10)).until(() -> loadSeries(window).containsAll(IDS));
        robot.interact(() -> window.controller().select("Load"));
        fx.waitFor("#p99Chart");
        robot.interact(() -> window.scene().getRoot().applyCss());

        // then each backend has one colour: its Live card's, its Ring legend's, and each Load chart's
        robot.interact(() -> window.controller().select("Live"));
        robot.interact(() -> window.scene().getRoot().applyCss());
        Map<String, String> live = new LinkedHashMap<>();
        for (String id : IDS) {
            live.put(id, fx.onFx(() -> web(robot.lookup("#live-swatch-" + id).queryAs(Region.class).getBackground()
                    .getFills().get(0).getFill())));
        }
        assertThat(Set.copyOf(live.values())).as("three different colours").hasSize(3);
        robot.interact(() -> window.controller().select("Ring"));
        fx.waitFor("#legend-demo-b");
        for (String id : IDS) {
            assertThat(fx.onFx(() -> robot.lookup("#legend-" + id).queryAs(Label.class).getUserData()))
                    .as("ring legend of " + id).isEqualTo(live.get(id));
        }
        robot.interact(() -> window.controller().select("Load"));
        robot.interact(() -> window.scene().getRoot().applyCss());
        for (String chartId : List.of("#rpsChart", "#p99Chart", "#errorChart")) {
            XYChart<?, ?> chart = fx.lookup(chartId, XYChart.class);
            // each series' name and line colour, then each legend entry's text and symbol colour, read on the FX thread
            List<Map.Entry<String, String>> lines = fx.onFx(() -> {
                List<Map.Entry<String, String>> out = new ArrayList<>();
                for (XYChart.Series<?, ?> s : chart.getData()) {
                    out.add(Map.entry(s.getName(), web(lineOf(s.getNode()))));
                }
                return out;
            });
            for (Map.Entry<String, String> line : lines) {
                assertThat(line.getValue()).as(chartId + " line of " + line.getKey())
                        .isEqualTo(live.get(line.getKey()));
            }
            List<Map.Entry<String, String>> legend = fx.onFx(() -> {
                List<Map.Entry<String, String>> out = new ArrayList<>();
                for (Node item : chart.lookupAll(".chart-legend-item")) {
                    Label l = (Label) item;
                    Region symbol = (Region) l.getGraphic();
                    out.add(Map.entry(l.getText(), web(symbol.getBackground().getFills().get(0).getFill())));
                }
                return out;
            });
            for (Map.Entry<String, String> entry : legend) {
                assertThat(entry.getValue())
                        .as(chartId + " legend of " + entry.getKey()).isEqualTo(live.get(entry.getKey()));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static ComboBox<String> whatIfBackend(FxRobot robot) {
        return robot.lookup("#whatIfBackend").queryAs(ComboBox.class);
    }

    /** The backends the Load tab's p99 chart has a series for. */
    private List<String> loadSeries(MainWindow window) {
        return fx.onFx(() -> ((XYChart<?, ?>) WindowHarness.anywhere(window, "#p99Chart")).getData().stream()
                .map(s -> s.getName()).toList());
    }

    /** The stroke a series is drawn with: a line chart's path, or an area chart's outline (its group's second path). */
    private static Paint lineOf(Node seriesNode) {
        Node line = seriesNode instanceof Group g ? g.getChildren().get(1) : seriesNode;
        return ((Shape) line).getStroke();
    }

    private static String web(Paint p) {
        return Palette.web((Color) p);
    }
}
