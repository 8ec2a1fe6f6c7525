package dev.fulcrum.ui.load;

import dev.fulcrum.ui.UiSession;
import javafx.fxml.FXML;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.StackedAreaChart;
import javafx.scene.control.ToggleButton;
import javafx.util.StringConverter;

/** Thin: wires {@code fxml/load.fxml}'s charts to {@link LoadViewModel}. */
public final class LoadController {
    private final LoadViewModel vm;

    @FXML private StackedAreaChart<Number, Number> rpsChart;
    @FXML private LineChart<Number, Number> p99Chart;
    @FXML private BarChart<String, Number> inFlightChart;
    @FXML private LineChart<Number, Number> errorChart;
    @FXML private ToggleButton pauseButton;

    public LoadController(UiSession session) {
        this.vm = new LoadViewModel(session);
    }

    public LoadViewModel viewModel() {
        return vm;
    }

    @FXML
    private void initialize() {
        rpsChart.setData(vm.rps());
        p99Chart.setData(vm.p99());
        errorChart.setData(vm.errors());
        inFlightChart.setData(vm.inFlight());
        for (var chart : java.util.List.of(rpsChart, p99Chart, errorChart)) {
            chart.setAnimated(false);
            NumberAxis x = (NumberAxis) chart.getXAxis();
            x.setAutoRanging(false);
            x.setTickUnit(60);
            x.setTickLabelFormatter(new StringConverter<>() {
                @Override
                public String toString(Number n) {
                    long ago = Math.round(vm.nowProperty().get() - n.doubleValue());
                    return ago == 0 ? "now" : "-" + (ago / 60 > 0 && ago % 60 == 0 ? ago / 60 + "m" : ago + "s");
                }

                @Override
                public Number fromString(String s) {
                    return 0;
                }
            });
            x.lowerBoundProperty().bind(vm.nowProperty().subtract(LoadViewModel.WINDOW_SECONDS));
            x.upperBoundProperty().bind(vm.nowProperty());
        }
        p99Chart.setCreateSymbols(false);
        errorChart.setCreateSymbols(false);
        rpsChart.setCreateSymbols(false);
        inFlightChart.setAnimated(false);
        inFlightChart.setLegendVisible(false);
        vm.pausedProperty().bind(pauseButton.selectedProperty());
        pauseButton.textProperty().bind(pauseButton.selectedProperty().map(p -> p ? "Resume" : "Pause"));
    }
}
