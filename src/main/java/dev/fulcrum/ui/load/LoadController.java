package dev.fulcrum.ui.load;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.Palette;
import dev.fulcrum.ui.UiSession;
import java.util.List;
import java.util.Map;
import javafx.scene.chart.XYChart;
import javafx.scene.paint.Color;
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
    private final UiSession session;

    @FXML private StackedAreaChart<Number, Number> rpsChart;
    @FXML private LineChart<Number, Number> p99Chart;
    @FXML private BarChart<String, Number> inFlightChart;
    @FXML private LineChart<Number, Number> errorChart;
    @FXML private ToggleButton pauseButton;
    @FXML private javafx.scene.control.Label inFlightNone;

    public LoadController(UiSession session) {
        this.vm = new LoadViewModel(session);
        this.session = session;
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
                    return ago == 0 ? Texts.t("load.axis.now") : ago / 60 > 0 && ago % 60 == 0
                            ? Texts.t("load.axis.minutes", Long.toString(ago / 60))
                            : Texts.t("load.axis.seconds", Long.toString(ago));
                }

                @Override
                public Number fromString(String s) {
                    return 0;
                }
            });
            x.lowerBoundProperty().bind(vm.nowProperty().subtract(LoadViewModel.WINDOW_SECONDS));
            x.upperBoundProperty().bind(vm.nowProperty());
            // x = 0 is only the second the window started sampling: a line there would look like an event
            chart.setVerticalZeroLineVisible(false);
        }
        NumberAxis errorAxis = (NumberAxis) errorChart.getYAxis();
        errorAxis.setAutoRanging(false);
        errorAxis.setLowerBound(0);
        NumberAxis inFlightAxis = (NumberAxis) inFlightChart.getYAxis();
        inFlightAxis.setAutoRanging(false);
        inFlightAxis.setLowerBound(0);
        inFlightAxis.setTickLabelFormatter(new NumberAxis.DefaultFormatter(inFlightAxis) {
            @Override
            public String toString(Number n) {
                return n.doubleValue() == Math.rint(n.doubleValue()) ? Long.toString(n.longValue()) : "";
            }
        });
        scaleAxes();
        vm.errorAxisTopProperty().addListener((o, a, top) -> scaleAxes());
        vm.inFlightAxisTopProperty().addListener((o, a, top) -> scaleAxes());
        vm.inFlightNoneProperty().addListener((o, a, none) -> scaleAxes());
        p99Chart.setCreateSymbols(false);
        errorChart.setCreateSymbols(false);
        rpsChart.setCreateSymbols(false);
        inFlightChart.setAnimated(false);
        inFlightChart.setLegendVisible(false);
        session.stateProperty().addListener((o, a, st) -> {
            if (vm.showingProperty().get()) {
                colour();
            }
        });
        vm.showingProperty().addListener((o, a, now) -> colour());
        // after the charts' own listeners (added by setData above), so a new series' nodes and legend entry exist
        for (var series : List.of(vm.rps(), vm.p99(), vm.errors())) {
            series.addListener((javafx.collections.ListChangeListener<XYChart.Series<Number, Number>>) c -> colour());
        }
        vm.pausedProperty().bind(pauseButton.selectedProperty());
        pauseButton.textProperty().bind(pauseButton.selectedProperty().map(p -> p ? Texts.t("load.resume") : Texts.t("load.pause")));
    }

    /**
     * The axes as the view model scales them to the points and bars shown: the error rate up to 100% at most, the
     * in-flight counts in whole requests, with a note when there are none.
     */
    private void scaleAxes() {
        NumberAxis errorAxis = (NumberAxis) errorChart.getYAxis();
        double top = vm.errorAxisTopProperty().get();
        if (errorAxis.getUpperBound() != top) {
            errorAxis.setUpperBound(top);
            errorAxis.setTickUnit(top / 5);
        }
        NumberAxis inFlightAxis = (NumberAxis) inFlightChart.getYAxis();
        int upper = vm.inFlightAxisTopProperty().get();
        if (inFlightAxis.getUpperBound() != upper) {
            inFlightAxis.setUpperBound(upper);
            inFlightAxis.setTickUnit(Math.max(1, Math.round(upper / 5.0)));
        }
        inFlightNone.setVisible(vm.inFlightNoneProperty().get());
    }

    /**
     * The backends' colours from {@link Palette}, as every view has them: each series by its backend's id (lines, areas
     * and legend together, see {@link Palette#paint}), each in-flight bar by its category. Charts whose series change
     * are painted at once, whether shown or not (it happens when a backend joins or leaves); the bars, which the chart
     * may make anew with a sample, when the tab is shown.
     */
    private void colour() {
        Map<String, Color> pool = Palette.forPool(session.state(), session.pool());
        for (XYChart<Number, Number> chart : List.of(rpsChart, p99Chart, errorChart)) {
            Palette.paint(chart, id -> pool.containsKey(id) ? pool.get(id) : Palette.of(id));
        }
        if (!vm.showingProperty().get()) {
            return; // a hidden tab's bars are coloured when it is selected
        }
        for (XYChart.Series<String, Number> s : inFlightChart.getData()) {
            for (XYChart.Data<String, Number> d : s.getData()) {
                Color c = pool.get(d.getXValue());
                if (d.getNode() != null && c != null) {
                    String style = "-fx-bar-fill: " + Palette.web(c) + ";";
                    if (!style.equals(d.getNode().getStyle())) {
                        d.getNode().setStyle(style);
                    }
                }
            }
        }
    }
}
