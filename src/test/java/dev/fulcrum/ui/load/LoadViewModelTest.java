package dev.fulcrum.ui.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.ui.UiSession;
import java.util.List;
import java.util.Map;
import javafx.scene.chart.XYChart;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** The load history: one point a second, five minutes kept, nothing drawn while paused and nothing lost. */
@ExtendWith(ApplicationExtension.class)
class LoadViewModelTest {
    @Start
    void start(Stage stage) {
        // no window needed: the toolkit only has to be running for the chart data classes
    }

    static EngineState state(double rpsA, double rpsB) {
        return new EngineState("http://127.0.0.1:1", Map.of(), Map.of("default", new EngineState.PoolInfo(Map.of(), false, 0)),
                List.of(), List.of(backend("a", rpsA), backend("b", rpsB)));
    }

    static EngineState.BackendInfo backend(String id, double rps) {
        return backend(id, rps, 3);
    }

    static EngineState.BackendInfo backend(String id, double rps, int inFlight) {
        return new EngineState.BackendInfo(id, "default", "http://127.0.0.1:2", 1, 1, "UP", "UP", null, inFlight, 0, 0, rps,
                0.1, 5, 50, false, null, 0, 0);
    }

    @Test
    void keepsOnePointASecondForFiveMinutes(FxRobot robot) {
        robot.interact(() -> {
            // given a view-model (the session is never started: samples are fed by hand)
            LoadViewModel vm = new LoadViewModel(new UiSession(null, "test"));

            // when 4 samples a second arrive for 400 seconds
            for (long ms = 0; ms <= 400_000; ms += 250) {
                vm.sample(state(ms / 1000.0, 1), ms);
            }

            // then each backend has one point per second of the last 300 seconds, newest last
            XYChart.Series<Number, Number> a = vm.rps().get(0);
            assertThat(a.getName()).isEqualTo("a");
            assertThat(a.getData()).hasSize(LoadViewModel.WINDOW_SECONDS + 1);
            assertThat(a.getData().get(0).getXValue().doubleValue()).isEqualTo(100);
            assertThat(a.getData().get(a.getData().size() - 1).getYValue().doubleValue()).isEqualTo(400.0);
            assertThat(vm.nowProperty().get()).isEqualTo(400);
            assertThat(vm.inFlight().get(0).getData()).extracting(XYChart.Data::getXValue).containsExactly("a", "b");
            assertThat(vm.errors().get(0).getData().get(0).getYValue().doubleValue()).isEqualTo(10.0);
        });
    }

    @Test
    void whilePausedTheChartsStandStillAndCatchUpOnResume(FxRobot robot) {
        robot.interact(() -> {
            LoadViewModel vm = new LoadViewModel(new UiSession(null, "test"));
            vm.sample(state(1, 1), 0);
            vm.sample(state(2, 1), 1000);

            vm.pausedProperty().set(true);
            vm.sample(state(3, 1), 2000);
            vm.sample(state(4, 1), 3000);
            assertThat(vm.rps().get(0).getData()).hasSize(2);
            assertThat(vm.nowProperty().get()).isEqualTo(1);

            vm.pausedProperty().set(false);
            assertThat(vm.rps().get(0).getData()).extracting(d -> d.getYValue().doubleValue())
                    .containsExactly(1.0, 2.0, 3.0, 4.0);
            assertThat(vm.nowProperty().get()).isEqualTo(3);
        });
    }

    @Test
    void whileItsTabIsHiddenNothingIsDrawnAndShowingItCatchesUpWithTheLastFiveMinutes(FxRobot robot) {
        robot.interact(() -> {
            LoadViewModel vm = new LoadViewModel(new UiSession(null, "test"));
            vm.sample(state(1, 1), 0);
            vm.showingProperty().set(false);

            // an hour passes with another tab selected, and a requests in flight go from 3 to 8
            for (long ms = 1000; ms <= 3_600_000; ms += 250) {
                vm.sample(new EngineState("p", Map.of(), Map.of("default", new EngineState.PoolInfo(Map.of(), false, 0)),
                        List.of(), List.of(backend("a", ms / 1000.0, 8), backend("b", 1))), ms);
            }
            assertThat(vm.rps().get(0).getData()).hasSize(1);
            assertThat(vm.inFlight().get(0).getData().get(0).getYValue().intValue()).isEqualTo(3);

            vm.showingProperty().set(true);
            XYChart.Series<Number, Number> a = vm.rps().get(0);
            assertThat(a.getData()).hasSize(LoadViewModel.WINDOW_SECONDS + 1);
            assertThat(a.getData().get(a.getData().size() - 1).getYValue().doubleValue()).isEqualTo(3600.0);
            assertThat(vm.nowProperty().get()).isEqualTo(3600);
            assertThat(vm.inFlight().get(0).getData().get(0).getYValue().intValue()).isEqualTo(8);
        });
    }

    @Test
    void aBackendAddedLaterStartsAtZeroOnTheSameTimesSoTheStackedChartStaysAligned(FxRobot robot) {
        robot.interact(() -> {
            LoadViewModel vm = new LoadViewModel(new UiSession(null, "test"));
            EngineState onlyA = new EngineState("p", Map.of(), Map.of("default", new EngineState.PoolInfo(Map.of(), false, 0)),
                    List.of(), List.of(backend("a", 5)));
            vm.sample(onlyA, 0);
            vm.sample(onlyA, 1000);
            vm.sample(state(5, 7), 2000);

            XYChart.Series<Number, Number> b = vm.rps().get(1);
            assertThat(b.getName()).isEqualTo("b");
            assertThat(b.getData()).extracting(d -> d.getXValue().doubleValue()).containsExactly(0.0, 1.0, 2.0);
            assertThat(b.getData()).extracting(d -> d.getYValue().doubleValue()).containsExactly(0.0, 0.0, 7.0);

            // and one that appears within a second already sampled gets that second too (at zero)
            EngineState three = new EngineState("p", Map.of(), Map.of("default", new EngineState.PoolInfo(Map.of(), false, 0)),
                    List.of(), List.of(backend("a", 5), backend("b", 7), backend("c", 9)));
            vm.sample(three, 2500);
            assertThat(vm.rps().get(2).getData()).extracting(d -> d.getXValue().doubleValue())
                    .containsExactly(0.0, 1.0, 2.0);
            vm.sample(three, 3000);
            assertThat(vm.rps()).allSatisfy(series -> assertThat(series.getData())
                    .extracting(d -> d.getXValue().doubleValue()).containsExactly(0.0, 1.0, 2.0, 3.0));
        });
    }
}
