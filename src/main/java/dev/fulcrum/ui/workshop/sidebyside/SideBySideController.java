package dev.fulcrum.ui.workshop.sidebyside;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.engine.sim.KeyDistribution;
import dev.fulcrum.engine.sim.SideBySide;
import dev.fulcrum.engine.sim.SideBySideReport;
import dev.fulcrum.engine.sim.SimBackend;
import dev.fulcrum.engine.sim.SimRequest;
import dev.fulcrum.engine.sim.SimTrace;
import dev.fulcrum.engine.sim.StrategyFigures;
import dev.fulcrum.engine.sim.StrategyResult;
import dev.fulcrum.engine.sim.ReplayBackend;
import dev.fulcrum.replay.Comparison;
import dev.fulcrum.replay.ComparisonResult;
import dev.fulcrum.replay.Recording;
import dev.fulcrum.replay.Recordings;
import dev.fulcrum.replay.StrategyList;
import dev.fulcrum.ui.Palette;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.workshop.WorkshopContext;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.fxml.FXML;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Spinner;
import javafx.scene.control.SpinnerValueFactory;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.FlowPane;
import javafx.stage.FileChooser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Side by side: one seeded trace (generated, or a recording replayed into it) through several strategies at
 * once in the simulator ({@link SideBySide}: real engine pools, a simulated clock, no sockets), with one
 * backend optionally slowed down. Shows, per strategy, the load per backend, max/avg, p50/p99, the longest
 * run of one backend and the keys moved when a backend leaves, as a table and two charts (load per backend
 * per strategy; p99 per strategy), and exports the table as CSV.
 *
 * <p>A run takes up to a few seconds, so it runs on its own worker thread with a progress bar and can be
 * cancelled (the simulator checks for interruption every 1,000 requests).
 *
 * <p>"Open a recording…" compares the strategies of the field beside it (as {@code --strategies} takes them) over a
 * HAR, nginx log or Fulcrum access log ({@link Comparison}, docs/REFERENCE.md §6) on the form's backends (the slow
 * backend at {@code 1/factor} of the speed), on the same worker, the progress bar showing the share of the file read;
 * "Open result…" shows a {@code result.json} of {@code --compare}. Either shows its own table (share per backend,
 * max/mean, cv, p50/p99/p999, keys moved) and charts: share per backend, the three percentiles, and cv.
 */
public final class SideBySideController implements AutoCloseable {
    /** Assumed latency of a backend the engine has no measure for yet. */
    static final double DEFAULT_LATENCY_MS = 10;
    private static final Logger LOG = LoggerFactory.getLogger(SideBySideController.class);
    /** The backend boxes' "no backend" choice, in the window's language (no backend id is written so). */
    private final String none = Texts.t("sidebyside.none");

    private final UiSession session;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fulcrum-side-by-side");
        t.setDaemon(true);
        return t;
    });
    private final ReadOnlyObjectWrapper<SideBySideReport> report = new ReadOnlyObjectWrapper<>(this, "report");
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(this, "running");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper(this, "message", "");
    private final ReadOnlyObjectWrapper<ComparisonResult> comparison = new ReadOnlyObjectWrapper<>(this,
            "comparison");
    private final Map<String, CheckBox> strategyBoxes = new LinkedHashMap<>();
    private Future<?> job;
    private List<SimRequest> recordedTrace;
    private boolean backendsEdited;
    private boolean settingBackends;

    @FXML private TextField sbsBackends;
    @FXML private ComboBox<String> sbsSlowBackend;
    @FXML private Spinner<Double> sbsSlowFactor;
    @FXML private ComboBox<String> sbsRemove;
    @FXML private Spinner<Integer> sbsRequests;
    @FXML private Spinner<Double> sbsRate;
    @FXML private Spinner<Integer> sbsKeys;
    @FXML private TextField sbsSeed;
    @FXML private FlowPane sbsStrategies;
    @FXML private CheckBox sbsNaive;
    @FXML private Label sbsTraceSource;
    @FXML private Button sbsUseGenerated;
    @FXML private Button sbsRun;
    @FXML private Button sbsCancel;
    @FXML private Button sbsExport;
    @FXML private ProgressBar sbsProgress;
    @FXML private Label sbsMessage;
    @FXML private TableView<StrategyResult> sbsTable;
    @FXML private BarChart<String, Number> sbsLoadChart;
    @FXML private BarChart<String, Number> sbsP99Chart;
    @FXML private BarChart<String, Number> sbsCvChart;
    @FXML private TableView<StrategyFigures> sbsCompareTable;
    @FXML private TextField sbsCompareStrategies;
    @FXML private TextField sbsLogFormat;
    @FXML private Button sbsOpenRecording;
    @FXML private Button sbsOpenResult;

    public SideBySideController(UiSession session, WorkshopContext ctx) {
        this.session = session;
    }

    @FXML
    private void initialize() {
        sbsSlowFactor.setValueFactory(new SpinnerValueFactory.DoubleSpinnerValueFactory(1, 1000, 10, 1));
        sbsRequests.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(1, SimTrace.MAX_REQUESTS, 10_000, 1000));
        sbsRate.setValueFactory(new SpinnerValueFactory.DoubleSpinnerValueFactory(1, 1_000_000, 200, 50));
        sbsKeys.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(1, KeyDistribution.MAX_KEYS, 1000, 100));
        for (Spinner<?> s : List.of(sbsSlowFactor, sbsRequests, sbsRate, sbsKeys)) {
            s.setEditable(true);
            s.focusedProperty().addListener((o, a, f) -> {
                if (!f) {
                    s.increment(0);
                }
            });
        }
        for (StrategySpec spec : SideBySide.DEFAULT_STRATEGIES) {
            // the names the charts show under the bars, so the boxes fit one row; the full name in the tooltip
            CheckBox box = new CheckBox(shortName(spec.type()));
            box.setTooltip(new javafx.scene.control.Tooltip(spec.type()));
            box.setId("sbsStrategy-" + spec.type());
            box.setSelected(true);
            strategyBoxes.put(spec.type(), box);
            sbsStrategies.getChildren().add(box);
        }
        sbsStrategies.getChildren().remove(sbsNaive); // after the engine strategies, next to smooth WRR's row
        sbsStrategies.getChildren().add(sbsNaive);
        sbsNaive.setSelected(true);
        sbsBackends.textProperty().addListener((o, a, t) -> {
            backendsEdited |= !settingBackends;
            showBackendChoices();
        });
        session.stateProperty().addListener((o, a, s) -> followPool());
        session.poolProperty().addListener((o, a, p) -> followPool());
        session.demoStateProperty().addListener((o, a, d) -> followPool());
        followPool();
        if (sbsBackends.getText().isBlank()) {
            setBackendsText("a:5:10, b:1:10, c:1:10");
        }
        sbsRun.setOnAction(e -> run());
        sbsCancel.setOnAction(e -> cancel());
        sbsExport.setOnAction(e -> chooseAndExport());
        sbsOpenRecording.setOnAction(e -> chooseRecording());
        sbsOpenResult.setOnAction(e -> chooseResult());
        sbsOpenRecording.disableProperty().bind(running);
        sbsCompareStrategies.setTooltip(new javafx.scene.control.Tooltip(Texts.t("sidebyside.tooltip.strategies")));
        sbsLogFormat.setTooltip(new javafx.scene.control.Tooltip(Texts.t("sidebyside.tooltip.logformat")));
        sbsOpenResult.disableProperty().bind(running);
        sbsCvChart.setAnimated(false);
        sbsCvChart.setLegendVisible(false);
        sbsCompareTable.setFixedCellSize(ROW_HEIGHT);
        sbsCompareTable.prefHeightProperty().bind(javafx.beans.binding.Bindings.createDoubleBinding(
                () -> tableHeight(sbsCompareTable.getItems().size()), sbsCompareTable.getItems()));
        sbsCompareTable.minHeightProperty().bind(sbsCompareTable.prefHeightProperty());
        comparison.addListener((o, a, c) -> showComparison(c));
        sbsUseGenerated.setOnAction(e -> useTrace(null, null));
        sbsUseGenerated.managedProperty().bind(sbsUseGenerated.visibleProperty());
        sbsRun.disableProperty().bind(running);
        sbsCancel.disableProperty().bind(running.not());
        sbsExport.disableProperty().bind(report.isNull().or(running));
        sbsMessage.textProperty().bind(message);
        sbsLoadChart.setAnimated(false);
        sbsP99Chart.setAnimated(false);
        sbsP99Chart.setLegendVisible(false);
        sbsTable.setPlaceholder(new Label(Texts.t("sidebyside.placeholder")));
        sbsNaive.setTooltip(new javafx.scene.control.Tooltip(Texts.t("sidebyside.tooltip.naive")));
        // as tall as its rows, so it never scrolls them itself (the results around it do)
        sbsTable.setFixedCellSize(ROW_HEIGHT);
        sbsTable.prefHeightProperty().bind(javafx.beans.binding.Bindings.createDoubleBinding(
                () -> tableHeight(sbsTable.getItems().size()), sbsTable.getItems()));
        sbsTable.minHeightProperty().bind(sbsTable.prefHeightProperty());
        useTrace(null, null);
        report.addListener((o, a, r) -> show(r));
    }

    // ---------------------------------------------------------------- a recording, or a result.json

    /** The form's backends as a recording's simulated backends: weights kept, the slow one at 1/factor speed. */
    List<ReplayBackend> recordingBackends() {
        String slow = sbsSlowBackend.getValue();
        List<ReplayBackend> out = new ArrayList<>();
        for (SimBackend b : backends()) {
            boolean isSlow = b.id().equals(slow);
            double speed = isSlow ? 1 / sbsSlowFactor.getValue() : 1;
            out.add(new ReplayBackend(b.id(), b.weight(),
                    isSlow ? Map.of(ReplayBackend.SPEED, fmt(speed)) : Map.of(), speed, 0));
        }
        return out;
    }

    /**
     * Compares the Recording field's strategies over {@code file} on the worker, the progress bar following the share
     * of the file read; Cancel stops it. FX thread.
     */
    public void openRecording(Path file) {
        List<StrategySpec> strategies;
        List<ReplayBackend> backends;
        try {
            strategies = StrategyList.parse(sbsCompareStrategies.getText());
            backends = recordingBackends();
        } catch (RuntimeException e) {
            message.set(e.getMessage().replace('\n', ' '));
            return;
        }
        String logFormat = sbsLogFormat.getText() == null || sbsLogFormat.getText().isBlank() ? null
                : sbsLogFormat.getText().trim();
        running.set(true);
        sbsProgress.setProgress(0);
        message.set(Texts.t("sidebyside.reading", file.getFileName().toString()));
        java.util.concurrent.atomic.AtomicBoolean progressQueued = new java.util.concurrent.atomic.AtomicBoolean();
        double[] latest = new double[1];
        job = worker.submit(() -> {
            try (Recording rec = Recordings.open(file, null, logFormat)) {
                ComparisonResult r = Comparison.run(rec, backends, strategies, f -> {
                    synchronized (latest) {
                        latest[0] = f;
                    }
                    // one update waiting at a time: a million lines must not queue a thousand runnables
                    if (progressQueued.compareAndSet(false, true)) {
                        Platform.runLater(() -> {
                            progressQueued.set(false);
                            synchronized (latest) {
                                sbsProgress.setProgress(latest[0]);
                            }
                        });
                    }
                });
                // the lines refused, in the replay's words (English, as --compare writes them)
                String bad = rec.bad() == 0 ? "" : rec.badSummary()
                        + (rec.problems().isEmpty() ? "" : Texts.t("sidebyside.first", rec.problems().get(0)));
                boolean refused = rec.tooManyBad();
                Platform.runLater(() -> {
                    running.set(false);
                    sbsProgress.setProgress(1);
                    if (refused) {
                        message.set(Texts.t("sidebyside.notcompared", bad));
                        return;
                    }
                    message.set(Texts.t("sidebyside.compared", r.recording(), r.format(), Long.toString(r.requests()))
                            + (bad.isEmpty() ? "" : " · " + bad));
                    comparison.set(r);
                });
            } catch (CancellationException e) {
                Platform.runLater(() -> {
                    running.set(false);
                    message.set(Texts.t("sidebyside.cancelled"));
                });
            } catch (IOException | RuntimeException e) {
                LOG.debug("comparing a recording failed", e);
                Platform.runLater(() -> {
                    running.set(false);
                    message.set(Texts.t("sidebyside.error.recording", e.getMessage()));
                });
            }
        });
    }

    /** Shows a {@code result.json} of {@code --compare}. FX thread. */
    public void openResult(Path file) {
        try {
            ComparisonResult r = ComparisonResult.read(file);
            message.set(Texts.t("sidebyside.result", file.getFileName().toString(), r.recording(), r.format(),
                    Long.toString(r.requests())));
            comparison.set(r);
        } catch (IOException | RuntimeException e) {
            message.set(Texts.t("sidebyside.error.result", e.getMessage()));
        }
    }

    private void chooseRecording() {
        FileChooser fc = new FileChooser();
        fc.setTitle(Texts.t("sidebyside.chooser.recording"));
        fc.getExtensionFilters().addAll(
                new FileChooser.ExtensionFilter(Texts.t("sidebyside.filter.recordings"), "*.har", "*.log", "*.json",
                        "*.gz", "*.txt"),
                new FileChooser.ExtensionFilter(Texts.t("sidebyside.filter.any"), "*"));
        File f = fc.showOpenDialog(sbsTable.getScene().getWindow());
        if (f != null) {
            openRecording(f.toPath());
        }
    }

    private void chooseResult() {
        FileChooser fc = new FileChooser();
        fc.setTitle(Texts.t("sidebyside.chooser.result"));
        fc.getExtensionFilters().add(new FileChooser.ExtensionFilter("JSON", "*.json"));
        File f = fc.showOpenDialog(sbsTable.getScene().getWindow());
        if (f != null) {
            openResult(f.toPath());
        }
    }

    /** Which results show: the simulated trace's table, or a recording's. */
    private void showingComparison(boolean on) {
        sbsTable.setVisible(!on);
        sbsTable.setManaged(!on);
        sbsCompareTable.setVisible(on);
        sbsCompareTable.setManaged(on);
        sbsCvChart.setVisible(on);
        sbsCvChart.setManaged(on);
        sbsP99Chart.setLegendVisible(on);
        sbsP99Chart.setTitle(Texts.t(on ? "sidebyside.chart.percentiles" : "sidebyside.chart.p99"));
        sbsLoadChart.setTitle(Texts.t(on ? "sidebyside.chart.share" : "sidebyside.chart.load"));
        sbsLoadChart.getYAxis().setLabel(Texts.t(on ? "sidebyside.axis.share" : "sidebyside.axis.requests"));
    }

    private void showComparison(ComparisonResult r) {
        sbsCompareTable.getColumns().clear();
        sbsLoadChart.getData().clear();
        sbsP99Chart.getData().clear();
        sbsCvChart.getData().clear();
        if (r == null) {
            sbsCompareTable.getItems().clear();
            return;
        }
        showingComparison(true);
        List<String> ids = r.backends().stream().map(ReplayBackend::id).toList();
        compareColumn(Texts.t("sidebyside.column.strategy"), StrategyFigures::name, 215);
        compareColumn(Texts.t("sidebyside.column.requests"), x -> Long.toString(x.routed()), 90);
        for (String b : ids) {
            compareColumn(b, x -> String.format(Locale.ROOT, "%.1f%%", 100 * x.share(b)), 70);
        }
        compareColumn(Texts.t("sidebyside.column.maxmean"), x -> fmt2(x.maxMeanLoad()), 85);
        compareColumn("cv", x -> String.format(Locale.ROOT, "%.3f", x.cv()), 60);
        compareColumn("p50 ms", x -> fmt(x.p50Ms()), 70);
        compareColumn("p99 ms", x -> fmt(x.p99Ms()), 70);
        compareColumn("p999 ms", x -> fmt(x.p999Ms()), 75);
        compareColumn(Texts.t("sidebyside.column.movedwhenoneleaves"), x -> x.keysMoved() == null ? Texts.t("sidebyside.na")
                : String.join(", ", x.keysMoved().entrySet().stream().map(e -> String.format(Locale.ROOT,
                "%s %.1f%%", e.getKey(), 100 * e.getValue())).toList()), 260);
        sbsCompareTable.getItems().setAll(r.strategies());

        for (String b : ids) {
            XYChart.Series<String, Number> s = new XYChart.Series<>();
            s.setName(b);
            for (StrategyFigures x : r.strategies()) {
                s.getData().add(new XYChart.Data<>(shortName(x.name()), 100 * x.share(b)));
            }
            sbsLoadChart.getData().add(s);
        }
        Palette.paint(sbsLoadChart, Palette.of(ids)::get);
        double chartWidth = r.strategies().size() * CATEGORY_WIDTH + 90;
        sbsLoadChart.setMinWidth(chartWidth);
        sbsP99Chart.setMinWidth(chartWidth);
        sbsCvChart.setMinWidth(chartWidth);
        for (String pct : List.of("p50", "p99", "p999")) {
            XYChart.Series<String, Number> s = new XYChart.Series<>();
            s.setName(pct);
            for (StrategyFigures x : r.strategies()) {
                s.getData().add(new XYChart.Data<>(shortName(x.name()),
                        pct.equals("p50") ? x.p50Ms() : pct.equals("p99") ? x.p99Ms() : x.p999Ms()));
            }
            sbsP99Chart.getData().add(s);
        }
        XYChart.Series<String, Number> cv = new XYChart.Series<>();
        cv.setName("cv");
        for (StrategyFigures x : r.strategies()) {
            cv.getData().add(new XYChart.Data<>(shortName(x.name()), x.cv()));
        }
        sbsCvChart.getData().add(cv);
    }

    private void compareColumn(String title, java.util.function.Function<StrategyFigures, String> text, double width) {
        TableColumn<StrategyFigures, String> c = new TableColumn<>(title);
        c.setCellValueFactory(d -> new ReadOnlyStringWrapper(text.apply(d.getValue())));
        c.setPrefWidth(width);
        sbsCompareTable.getColumns().add(c);
    }

    public ReadOnlyObjectProperty<ComparisonResult> comparisonProperty() {
        return comparison.getReadOnlyProperty();
    }

    public TableView<StrategyFigures> compareTable() {
        return sbsCompareTable;
    }

    /**
     * Uses a recorded trace (from "Replay into side by side") instead of a generated one; null goes back to
     * generating. FX thread.
     */
    public void useTrace(List<SimRequest> trace, String label) {
        recordedTrace = trace;
        boolean recorded = trace != null;
        sbsRequests.setDisable(recorded);
        sbsRate.setDisable(recorded);
        sbsKeys.setDisable(recorded);
        sbsUseGenerated.setVisible(recorded);
        sbsTraceSource.setText(recorded ? Texts.t("sidebyside.trace.recorded", label, Integer.toString(trace.size()))
                : Texts.t("sidebyside.trace.generated"));
    }

    /** The backends field: {@code id:weight:latencyMs} separated by commas. */
    List<SimBackend> backends() {
        List<SimBackend> out = new ArrayList<>();
        for (String part : sbsBackends.getText().split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            String[] f = p.split(":");
            try {
                int weight = f.length > 1 ? Integer.parseInt(f[1].trim()) : 1;
                double latency = f.length > 2 ? Double.parseDouble(f[2].trim()) : DEFAULT_LATENCY_MS;
                // a little jitter, as real backends have; the same for every strategy (SimBackend draws it per request)
                out.add(new SimBackend(f[0].trim(), weight, latency, latency / 5, 0));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(Texts.t("sidebyside.error.backend", p));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(Texts.t("sidebyside.error.nobackend", sbsBackends.getText()));
        }
        return out;
    }

    /** The run the form describes. */
    public SideBySide.Settings settings() {
        List<StrategySpec> strategies = new ArrayList<>();
        strategyBoxes.forEach((type, box) -> {
            if (box.isSelected()) {
                strategies.add(StrategySpec.of(type));
            }
        });
        long seed;
        try {
            seed = Long.parseLong(sbsSeed.getText().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(Texts.t("sidebyside.error.seed", sbsSeed.getText()));
        }
        String remove = none.equals(sbsRemove.getValue()) ? null : sbsRemove.getValue();
        SideBySide.Settings s = new SideBySide.Settings(backends(), strategies, sbsNaive.isSelected(), remove, null, seed);
        String slow = sbsSlowBackend.getValue();
        return slow == null || none.equals(slow) ? s : s.withSlowBackend(slow, sbsSlowFactor.getValue());
    }

    /** Starts a run on the worker; the table and charts update when it ends. FX thread. */
    public void run() {
        SideBySide.Settings settings;
        try {
            settings = settings();
        } catch (RuntimeException e) {
            message.set(e.getMessage());
            return;
        }
        List<SimRequest> recorded = recordedTrace;
        int requests = sbsRequests.getValue();
        double rate = sbsRate.getValue();
        int keys = sbsKeys.getValue();
        running.set(true);
        sbsProgress.setProgress(0);
        message.set(recorded != null ? Texts.t("sidebyside.simulating", Integer.toString(recorded.size()))
                : Texts.t("sidebyside.generating", Integer.toString(requests)));
        job = worker.submit(() -> {
            try {
                // generated on the worker: five million requests take over a second, the window must not freeze
                List<SimRequest> trace = recorded != null ? recorded
                        : SimTrace.generate(requests, rate, new KeyDistribution.Zipf(keys, 1.0), 0, settings.seed());
                SideBySideReport r = SideBySide.run(settings, trace, p -> Platform.runLater(() -> {
                    sbsProgress.setProgress(p.fraction());
                    message.set(Texts.t("sidebyside.lane", p.strategy(), Integer.toString(p.lane() + 1),
                            Integer.toString(p.lanes())));
                }));
                Platform.runLater(() -> {
                    running.set(false);
                    sbsProgress.setProgress(1);
                    message.set(Texts.t("sidebyside.done", Long.toString(r.requests()), Long.toString(r.seed()))
                            + (r.removedBackend() == null ? "" : " · " + Texts.t("sidebyside.done.moved",
                                    r.removedBackend(), String.format(Locale.ROOT, "%.1f", 100 * r.idealMovedFraction()))));
                    report.set(r);
                });
            } catch (CancellationException e) {
                Platform.runLater(() -> {
                    running.set(false);
                    message.set(Texts.t("sidebyside.cancelled"));
                });
            } catch (RuntimeException e) {
                LOG.debug("side-by-side run failed", e);
                Platform.runLater(() -> {
                    running.set(false);
                    message.set(Texts.t("sidebyside.error.run", e.getMessage()));
                });
            }
        });
    }

    public void cancel() {
        Future<?> j = job;
        if (j != null) {
            j.cancel(true);
        }
    }

    /** Writes the latest report as CSV ({@link SideBySideReport#toCsv()}) to {@code file}. */
    public void exportCsv(Path file) throws IOException {
        SideBySideReport r = report.get();
        if (r == null) {
            throw new IllegalStateException(Texts.t("sidebyside.error.nothingtoexport"));
        }
        Files.writeString(file, r.toCsv(), StandardCharsets.UTF_8);
    }

    private void chooseAndExport() {
        FileChooser fc = new FileChooser();
        fc.setTitle(Texts.t("sidebyside.chooser.export"));
        fc.setInitialFileName("side-by-side-seed-" + report.get().seed() + ".csv");
        fc.getExtensionFilters().add(new FileChooser.ExtensionFilter("CSV", "*.csv"));
        File f = fc.showSaveDialog(sbsTable.getScene().getWindow());
        if (f == null) {
            return;
        }
        try {
            exportCsv(f.toPath());
            message.set(Texts.t("sidebyside.exported", f.toString()));
        } catch (IOException | RuntimeException e) {
            message.set(Texts.t("sidebyside.error.export", e.getMessage()));
        }
    }

    private void followPool() {
        if (backendsEdited) {
            return;
        }
        EngineState s = session.state();
        if (s == null) {
            return;
        }
        Map<String, Map<String, Object>> demo = session.demoStateProperty().get();
        Map<String, SimBackend> shown = new LinkedHashMap<>();
        try {
            backends().forEach(x -> shown.put(x.id(), x));
        } catch (RuntimeException e) {
            // nothing sensible shown yet: replace it
        }
        List<String> parts = new ArrayList<>();
        boolean same = true;
        for (EngineState.BackendInfo b : s.backends()) {
            if (!b.pool().equals(session.pool())) {
                continue;
            }
            // a demo backend's latency is its setting; another backend's is its measured median, taken when the
            // field is filled and not followed (it moves every sample and would make the field flicker)
            Map<String, Object> d = demo == null ? null : demo.get(b.id());
            Double demoLatency = d != null && d.get("latencyMs") instanceof Number n ? n.doubleValue() : null;
            // (a demo backend without a latency setting answers in about a millisecond)
            double latency = demoLatency != null ? Math.max(1, demoLatency)
                    : b.latencyP50Ms() > 0 ? Math.round(b.latencyP50Ms() * 10) / 10.0 : DEFAULT_LATENCY_MS;
            SimBackend was = shown.get(b.id());
            same &= was != null && was.weight() == b.weight()
                    && (demoLatency == null || was.baseLatencyMs() == latency);
            parts.add(b.id() + ":" + b.weight() + ":" + fmt(latency));
        }
        same &= parts.size() == shown.size();
        if (!parts.isEmpty() && !same) {
            setBackendsText(String.join(", ", parts));
        }
    }

    private void setBackendsText(String text) {
        if (text.equals(sbsBackends.getText())) {
            return;
        }
        settingBackends = true;
        sbsBackends.setText(text);
        settingBackends = false;
    }

    private void showBackendChoices() {
        List<String> ids;
        try {
            ids = backends().stream().map(SimBackend::id).toList();
        } catch (RuntimeException e) {
            return; // being typed
        }
        List<String> slow = new ArrayList<>(List.of(none));
        slow.addAll(ids);
        if (!slow.equals(sbsSlowBackend.getItems())) {
            String keepSlow = sbsSlowBackend.getValue();
            String keepRemove = sbsRemove.getValue();
            sbsSlowBackend.getItems().setAll(slow);
            sbsRemove.getItems().setAll(slow);
            sbsSlowBackend.setValue(slow.contains(keepSlow) ? keepSlow : none);
            String last = ids.stream().sorted().reduce((a, b) -> b).orElse(none);
            sbsRemove.setValue(slow.contains(keepRemove) && keepRemove != null ? keepRemove : ids.size() > 1 ? last : none);
        }
    }

    private void show(SideBySideReport r) {
        sbsTable.getColumns().clear();
        sbsLoadChart.getData().clear();
        sbsP99Chart.getData().clear();
        sbsCvChart.getData().clear();
        showingComparison(false);
        comparison.set(null);
        if (r == null) {
            sbsTable.getItems().clear();
            return;
        }
        column(Texts.t("sidebyside.column.strategy"), StrategyResult::strategy, 215);
        for (String b : r.backends()) {
            column(b, x -> Long.toString(x.requestsPerBackend().getOrDefault(b, 0L)), 70);
        }
        // the headers' widths leave room for their longest language (Polish: "Maks./śr.", "Najdłuższa seria")
        column(Texts.t("sidebyside.column.maxavg"), x -> fmt2(x.maxAvgLoadRatio()), 85);
        column(Texts.t("sidebyside.column.maxavgweighted"), x -> fmt2(x.maxAvgWeightedRatio()), 150);
        column("p50 ms", x -> fmt(x.p50Ms()), 70);
        column("p99 ms", x -> fmt(x.p99Ms()), 70);
        column(Texts.t("sidebyside.column.longestrun"), x -> x.longestRun() + (x.longestRunBackend() == null ? "" : " (" + x.longestRunBackend() + ")"), 130);
        column(Texts.t("sidebyside.column.moved"), x -> x.keysMoved() == null ? Texts.t("sidebyside.na")
                : String.format(Locale.ROOT, "%.1f%%", 100 * x.keysMoved()), 100);
        column(Texts.t("sidebyside.column.needlessly"), x -> x.keysMovedNeedlessly() == null ? Texts.t("sidebyside.na")
                : String.format(Locale.ROOT, "%.1f%%", 100 * x.keysMovedNeedlessly()), 90);
        column(Texts.t("sidebyside.column.unrouted"), x -> Long.toString(x.unrouted()), 80);
        sbsTable.getItems().setAll(r.results());

        for (String b : r.backends()) {
            XYChart.Series<String, Number> s = new XYChart.Series<>();
            s.setName(b);
            for (StrategyResult x : r.results()) {
                s.getData().add(new XYChart.Data<>(shortName(x.strategy()), x.requestsPerBackend().getOrDefault(b, 0L)));
            }
            sbsLoadChart.getData().add(s);
        }
        // each backend's bars in its colour elsewhere in the window
        Palette.paint(sbsLoadChart, Palette.of(r.backends())::get);
        // wide enough for every strategy's name under its bars: narrower, the axis would hide or overlap names
        double chartWidth = r.results().size() * CATEGORY_WIDTH + 90;
        sbsLoadChart.setMinWidth(chartWidth);
        sbsP99Chart.setMinWidth(chartWidth);
        XYChart.Series<String, Number> p99 = new XYChart.Series<>();
        p99.setName("p99");
        for (StrategyResult x : r.results()) {
            p99.getData().add(new XYChart.Data<>(shortName(x.strategy()), x.p99Ms()));
        }
        sbsP99Chart.getData().add(p99);
    }

    /** A result row's height: modena's at the default font size. */
    static final double ROW_HEIGHT = 25;
    /**
     * The column header and a horizontal scroll bar (shown when the backends' columns are wider than the window),
     * which the rows must not be hidden under: a guess from modena's sizes at the default font, with room to spare.
     */
    static final double TABLE_CHROME = 52;
    /** The room one strategy's name needs under its bars (the longest short name, "smooth WRR", and a gap). */
    static final double CATEGORY_WIDTH = 96;

    /** The table's height for {@code rows} results (four rows' room for the placeholder). */
    static double tableHeight(int rows) {
        return Math.max(4, rows) * ROW_HEIGHT + TABLE_CHROME;
    }

    /** Category labels short enough to sit under a group of bars. */
    static String shortName(String strategy) {
        return switch (strategy) {
            case "smooth-weighted-round-robin" -> "smooth WRR";
            case "naive-weighted-round-robin" -> "naive WRR";
            case "weighted-random" -> "w-random";
            case "least-requests" -> "least-req";
            case "power-of-two" -> "P2C";
            case "consistent-hash" -> "ring";
            case "fastest-response" -> "fastest";
            case "round-robin" -> "RR";
            default -> strategy;
        };
    }

    private void column(String title, java.util.function.Function<StrategyResult, String> text, double width) {
        TableColumn<StrategyResult, String> c = new TableColumn<>(title);
        c.setCellValueFactory(d -> new ReadOnlyStringWrapper(text.apply(d.getValue())));
        c.setPrefWidth(width);
        sbsTable.getColumns().add(c);
    }

    private static String fmt(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e9 ? Long.toString((long) d) : String.format(Locale.ROOT, "%.1f", d);
    }

    private static String fmt2(double d) {
        return String.format(Locale.ROOT, "%.2f", d);
    }

    public ReadOnlyObjectProperty<SideBySideReport> reportProperty() {
        return report.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty runningProperty() {
        return running.getReadOnlyProperty();
    }

    public javafx.beans.property.ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /** Ticks exactly these strategies (types) and the naive WRR box; for tests and the tour. */
    public void selectStrategies(List<String> types, boolean naive) {
        strategyBoxes.forEach((t, b) -> b.setSelected(types.contains(t)));
        sbsNaive.setSelected(naive);
    }

    public TableView<StrategyResult> table() {
        return sbsTable;
    }

    @Override
    public void close() {
        cancel();
        worker.shutdownNow();
    }
}
