package dev.fulcrum.ui.workshop;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.sim.StrategyFigures;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.Views;
import dev.fulcrum.ui.WindowHarness;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import javafx.scene.Scene;
import javafx.scene.chart.BarChart;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Side by side over a recording in the window (docs/REFERENCE.md §6): opening a small nginx log shows a row per
 * strategy and the charts; a result.json opens the same rows; a long comparison is cancelled and the window stays
 * usable.
 */
@Timeout(90)
class SideBySideRecordingTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    @TempDir
    Path dir;

    private WorkshopTabs.Workshop workshop;

    @BeforeEach
    void open(FxRobot robot) {
        RunningFulcrum fulcrum = fx.closeAfter(RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(
                StrategySpec.of(StrategySpec.ROUND_ROBIN), new BreakerConfig(false, 10, 5, 50, 2000, 100, 5000, 1),
                List.of(demo("demo-a", 1, 0, 0), demo("demo-b", 1, 0, 0), demo("demo-c", 1, 0, 0)))).start());
        UiSession session = fx.closeAfter(new UiSession(new InProcessEngineClient(fulcrum.app()),
                "embedded engine (test)"));
        fx.onFx(() -> {
            workshop = fx.closeAfter(WorkshopTabs.create(session, WorkshopContext.embedded(fulcrum.app(), r -> { })));
            TabPane tabs = new TabPane();
            tabs.getTabs().addAll(workshop.tabs());
            tabs.getSelectionModel().select(tabs.getTabs().stream()
                    .filter(t -> "workshopSideBySideTab".equals(t.getId())).findFirst().orElseThrow());
            Scene scene = new Scene(tabs, 1280, 800);
            scene.getStylesheets().add(Views.stylesheet("fulcrum"));
            fx.stage().setScene(scene);
            fx.stage().show();
            session.start();
        });
        robot.interact(() -> robot.lookup("#sbsBackends").queryAs(TextField.class)
                .setText("a:1:10, b:1:10, slow:1:10"));
    }

    /** {@code n} requests in $msec format, 5 ms apart, 20 ms each, over 40 paths. */
    Path log(String name, int n) throws Exception {
        Path p = dir.resolve(name);
        try (BufferedWriter w = Files.newBufferedWriter(p, StandardCharsets.UTF_8)) {
            for (int i = 0; i < n; i++) {
                w.write(String.format(Locale.ROOT, "%.3f 10.0.0.%d \"GET /item/%d HTTP/1.1\" 200 0.020%n",
                        1_764_918_000.020 + i * 0.005, i % 9, i % 40));
            }
        }
        return p;
    }

    static final String FORMAT = "$msec $remote_addr \"$request\" $status $request_time";

    @Test
    @SuppressWarnings("unchecked")
    void openingARecordingShowsARowPerStrategyAndItsCharts(FxRobot robot) throws Exception {
        // given a small log and two strategies, slow at a fifth of the others' speed
        Path log = log("small.log", 600);
        robot.interact(() -> {
            robot.lookup("#sbsCompareStrategies").queryAs(TextField.class)
                    .setText("round-robin,least-requests,consistent-hash:key=path");
            robot.lookup("#sbsLogFormat").queryAs(TextField.class).setText(FORMAT);
            ((javafx.scene.control.ComboBox<String>) robot.lookup("#sbsSlowBackend").query()).setValue("slow");
            robot.lookup("#sbsSlowFactor").queryAs(javafx.scene.control.Spinner.class).getValueFactory().setValue(5.0);
        });

        // when it is opened
        robot.interact(() -> workshop.sideBySide().openRecording(log));
        fx.until(Duration.ofSeconds(30), () -> workshop.sideBySide().comparisonProperty().get() != null
                && !workshop.sideBySide().runningProperty().get());
        WaitForAsyncUtils.waitForFxEvents();

        // then a row per strategy, round robin's thirds and its p99 on the slow backend, and three charts
        TableView<StrategyFigures> table = fx.lookup("#sbsCompareTable", TableView.class);
        assertThat(fx.onFx(() -> table.isVisible() && !robot.lookup("#sbsTable").query().isVisible())).isTrue();
        assertThat(fx.onFx(() -> table.getItems().stream().map(StrategyFigures::name).toList()))
                .containsExactly("round-robin", "least-requests", "consistent-hash");
        StrategyFigures rr = fx.onFx(() -> table.getItems().get(0));
        assertThat(rr.requestsPerBackend()).containsEntry("slow", 200L);
        assertThat(rr.p99Ms()).isGreaterThan(99).isLessThan(101);
        assertThat(fx.onFx(() -> table.getItems().get(2)).keysMoved()).containsOnlyKeys("a", "b", "slow");
        assertThat(workshop.sideBySide().messageProperty().get())
                .isEqualTo("small.log (nginx): 600 requests");
        assertThat(fx.onFx(() -> robot.lookup("#sbsLoadChart").queryAs(BarChart.class).getData().size())).isEqualTo(3);
        assertThat(fx.onFx(() -> robot.lookup("#sbsP99Chart").queryAs(BarChart.class).getData().size())).isEqualTo(3);
        assertThat(fx.onFx(() -> robot.lookup("#sbsCvChart").queryAs(BarChart.class).isVisible())).isTrue();

        // and its result.json opens the same rows
        Path json = dir.resolve("result.json");
        Files.writeString(json, workshop.sideBySide().comparisonProperty().get().toJson());
        robot.interact(() -> workshop.sideBySide().openResult(json));
        assertThat(fx.onFx(() -> table.getItems().stream().map(StrategyFigures::name).toList()))
                .containsExactly("round-robin", "least-requests", "consistent-hash");
        assertThat(workshop.sideBySide().messageProperty().get())
                .isEqualTo("result.json: small.log (nginx), 600 requests");
    }

    @Test
    void aLongComparisonIsCancelledAndTheWindowStaysUsable(FxRobot robot) throws Exception {
        Path log = log("long.log", 200_000);
        robot.interact(() -> robot.lookup("#sbsLogFormat").queryAs(TextField.class).setText(FORMAT));
        robot.interact(() -> workshop.sideBySide().openRecording(log));
        assertThat(workshop.sideBySide().runningProperty().get()).isTrue();
        robot.clickOn("#sbsCancel");
        fx.until(Duration.ofSeconds(30), () -> !workshop.sideBySide().runningProperty().get());
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(workshop.sideBySide().messageProperty().get()).isEqualTo("cancelled");
        assertThat(workshop.sideBySide().comparisonProperty().get()).isNull();
        // a bad strategy list is said, not thrown
        robot.interact(() -> robot.lookup("#sbsCompareStrategies").queryAs(TextField.class).setText("round-robbin"));
        robot.interact(() -> workshop.sideBySide().openRecording(log));
        assertThat(workshop.sideBySide().messageProperty().get())
                .startsWith("--strategies: unknown strategy round-robbin");
    }
}
