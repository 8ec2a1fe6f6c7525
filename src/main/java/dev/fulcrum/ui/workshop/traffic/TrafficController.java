package dev.fulcrum.ui.workshop.traffic;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.demo.TrafficRecorder;
import dev.fulcrum.demo.TrafficReplay;
import dev.fulcrum.demo.TrafficRequest;
import dev.fulcrum.demo.TrafficSettings;
import dev.fulcrum.demo.TrafficSnapshot;
import dev.fulcrum.engine.sim.KeyDistribution;
import dev.fulcrum.engine.sim.SimRequest;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.Palette;
import dev.fulcrum.ui.SessionTraffic;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.workshop.WorkshopContext;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import javafx.fxml.FXML;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Slider;
import javafx.scene.control.Spinner;
import javafx.scene.control.SpinnerValueFactory;
import javafx.scene.control.TextField;
import javafx.stage.FileChooser;

/**
 * The traffic generator's view: real HTTP through the proxy at a target rate, bounded by its duration, with
 * keys from a chosen distribution placed where the pool's strategy reads them; what it achieved (rate in the
 * last second and overall, errors by status, latency percentiles, answers per backend as a bar chart). Also
 * the "slow request spike" button for the demo backends, and record and replay: record a run's sends to a
 * JSON-lines file, replay one through the proxy at any speed or into the side-by-side simulator.
 */
public final class TrafficController implements AutoCloseable {
    // the distributions as the box holds them; it shows each in the window's language (traffic.distribution.*)
    static final String UNIFORM = "Uniform";
    static final String ZIPF = "Zipf";
    static final String HOT_KEY = "Hot key";
    /** The duration the form starts with (the session's traffic's default). */
    static final int DEFAULT_DURATION_S = SessionTraffic.DEFAULT_DURATION_S;

    private final UiSession session;
    private final WorkshopContext ctx;
    private final TrafficViewModel vm;
    private final XYChart.Series<String, Number> perBackend = new XYChart.Series<>();
    private BiConsumer<List<SimRequest>, String> replayIntoSideBySide = (t, l) -> { };
    /** The placement the operator typed; null while it follows the pool's strategy key. */
    private boolean placementEdited;
    private boolean settingPlacement;

    @FXML private Spinner<Double> trafficRate;
    @FXML private Spinner<Integer> trafficConcurrency;
    @FXML private Spinner<Integer> trafficDuration;
    @FXML private ComboBox<String> trafficDistribution;
    @FXML private Spinner<Integer> trafficKeys;
    @FXML private Label trafficParamLabel;
    @FXML private TextField trafficParam;
    @FXML private TextField trafficPlacement;
    @FXML private Slider trafficPostShare;
    @FXML private Label trafficPostShareText;
    @FXML private CheckBox trafficRecord;
    @FXML private TextField trafficRecordFile;
    @FXML private Button trafficRecordChoose;
    @FXML private Button trafficStart;
    @FXML private Button trafficStop;
    @FXML private ProgressBar trafficProgress;
    @FXML private Label trafficStatus;
    @FXML private Label trafficMessage;
    @FXML private Label trafficRateLast;
    @FXML private Label trafficRateOverall;
    @FXML private Label trafficCompleted;
    @FXML private Label trafficErrors;
    @FXML private Label trafficLatency;
    @FXML private BarChart<String, Number> trafficBackends;
    @FXML private javafx.scene.layout.VBox trafficSpikeBox;
    @FXML private ComboBox<String> trafficSpikeBackend;
    @FXML private Spinner<Integer> trafficSpikeMs;
    @FXML private Button trafficSpike;
    @FXML private TextField trafficReplayFile;
    @FXML private Button trafficReplayChoose;
    @FXML private Spinner<Double> trafficReplaySpeed;
    @FXML private Button trafficReplayProxy;
    @FXML private Button trafficReplaySim;
    @FXML private Button trafficReplayRecording;
    @FXML private ProgressBar trafficReplayProgress;
    @FXML private Button trafficReplayCancel;
    @FXML private Label trafficReplaySummary;

    public TrafficController(UiSession session, WorkshopContext ctx) {
        this.session = session;
        this.ctx = ctx;
        this.vm = new TrafficViewModel(session.traffic());
    }

    @FXML
    private void initialize() {
        trafficRate.setValueFactory(new SpinnerValueFactory.DoubleSpinnerValueFactory(0.1, TrafficSettings.MAX_RATE,
                SessionTraffic.DEFAULT_RATE, 10));
        trafficConcurrency.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(1,
                TrafficSettings.MAX_CONCURRENCY, SessionTraffic.DEFAULT_CONCURRENCY, 8));
        trafficDuration.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(1, 3600,
                DEFAULT_DURATION_S, 10));
        trafficKeys.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(1, KeyDistribution.MAX_KEYS,
                SessionTraffic.DEFAULT_KEYS, 10));
        trafficSpikeMs.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(1, 60_000, 2000, 500));
        trafficReplaySpeed.setValueFactory(new SpinnerValueFactory.DoubleSpinnerValueFactory(TrafficReplay.MIN_SPEED,
                TrafficReplay.MAX_SPEED, 1, 1));
        for (Spinner<?> s : List.of(trafficRate, trafficConcurrency, trafficDuration, trafficKeys, trafficSpikeMs,
                trafficReplaySpeed)) {
            s.setEditable(true);
            s.focusedProperty().addListener((o, a, f) -> {
                if (!f) {
                    s.increment(0); // commits typed text
                }
            });
        }
        trafficDistribution.getItems().setAll(UNIFORM, ZIPF, HOT_KEY);
        trafficDistribution.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(String d) {
                return d == null ? "" : Texts.t(UNIFORM.equals(d) ? "traffic.distribution.uniform"
                        : HOT_KEY.equals(d) ? "traffic.distribution.hotkey" : "traffic.distribution.zipf");
            }

            @Override
            public String fromString(String text) {
                return text; // the box is not editable: nothing is typed into it
            }
        });
        trafficDistribution.valueProperty().addListener((o, a, d) -> {
            boolean uniform = UNIFORM.equals(d);
            trafficParam.setDisable(uniform);
            trafficParamLabel.setText(Texts.t(HOT_KEY.equals(d) ? "traffic.param.hotshare" : "traffic.param.exponent"));
            trafficParam.setText(HOT_KEY.equals(d) ? "0.5" : Double.toString(SessionTraffic.DEFAULT_ZIPF));
        });
        trafficDistribution.setValue(ZIPF);
        trafficPostShare.valueProperty().addListener((o, a, v) ->
                trafficPostShareText.setText(Texts.t("traffic.postshare",
                        Long.toString(Math.round(v.doubleValue() * 100)))));
        trafficPostShareText.setText(Texts.t("traffic.postshare", "0"));
        trafficPlacement.textProperty().addListener((o, a, t) -> placementEdited |= !settingPlacement);
        trafficRecordFile.setText(Path.of(System.getProperty("java.io.tmpdir"), "fulcrum-traffic.jsonl").toString());
        trafficRecordFile.disableProperty().bind(trafficRecord.selectedProperty().not());
        trafficRecordChoose.disableProperty().bind(trafficRecord.selectedProperty().not());
        trafficRecordChoose.setOnAction(e -> choose(trafficRecordFile, true));
        trafficReplayFile.setText(trafficRecordFile.getText());
        trafficReplayChoose.setOnAction(e -> choose(trafficReplayFile, false));

        perBackend.setName(Texts.t("traffic.series.answers"));
        trafficBackends.getData().add(perBackend);
        trafficBackends.setAnimated(false);
        trafficBackends.setLegendVisible(false);

        trafficStart.setOnAction(e -> start());
        trafficStop.setOnAction(e -> vm.stop());
        trafficReplayProxy.setOnAction(e -> replayThroughProxy());
        trafficReplaySim.setOnAction(e -> replayIntoSideBySide());
        trafficReplayRecording.setOnAction(e -> chooseAndReplayRecording());
        trafficReplayCancel.setOnAction(e -> session.traffic().cancelReplay());
        trafficReplayRecording.disableProperty().bind(session.traffic().replayRunningProperty()
                .or(javafx.beans.binding.Bindings.createBooleanBinding(() -> session.state() == null,
                        session.stateProperty())));
        trafficReplayCancel.disableProperty().bind(session.traffic().replayRunningProperty().not());
        trafficReplaySummary.textProperty().bind(session.traffic().replayMessageProperty());
        session.traffic().replayProgressProperty().addListener((o, a, p) -> showReplay(p));
        showReplay(session.traffic().replayProgressProperty().get());
        var noTarget = javafx.beans.binding.Bindings.createBooleanBinding(() -> session.state() == null,
                session.stateProperty());
        trafficStart.disableProperty().bind(vm.runningProperty().or(noTarget));
        trafficReplayProxy.disableProperty().bind(vm.runningProperty().or(noTarget));
        trafficStop.disableProperty().bind(vm.runningProperty().not());
        trafficMessage.textProperty().bind(vm.messageProperty());
        vm.snapshotProperty().addListener((o, a, s) -> show(s));

        boolean canSpike = ctx.spike() != null;
        trafficSpikeBox.setVisible(canSpike);
        trafficSpikeBox.setManaged(canSpike);
        trafficSpike.setOnAction(e -> spike());
        trafficSpike.disableProperty().bind(trafficSpikeBackend.valueProperty().isNull());
        session.demoStateProperty().addListener((o, a, d) -> showDemoIds(d));
        showDemoIds(session.demoStateProperty().get());

        session.stateProperty().addListener((o, a, s) -> followStrategyKey());
        session.poolProperty().addListener((o, a, p) -> followStrategyKey());
        followStrategyKey();
        show(vm.snapshotProperty().get());
        // Start on the Live toolbar sends what this form says
        session.traffic().settingsFrom(this::settings);
        // the last second's rate and the recent answers move on between snapshots, and after the last one
        dev.fulcrum.ui.FxTicks.everyWhileShown(trafficRateLast, javafx.util.Duration.millis(250), this::showRecent);
    }

    private void showRecent() {
        TrafficSnapshot s = vm.snapshotProperty().get();
        if (s == null) {
            return;
        }
        trafficRateLast.setText(Texts.t("traffic.rate.last", one(vm.rateLastSecond()), one(s.targetRate())));
        showBackends(vm.recentByBackend());
    }

    /** The settings the form describes, aimed at the engine's proxy. */
    public TrafficSettings settings() {
        return TrafficSettings.defaults(session.traffic().target())
                .withRate(trafficRate.getValue())
                .withMaxConcurrency(trafficConcurrency.getValue())
                .withDuration(Duration.ofSeconds(trafficDuration.getValue()))
                .withKeys(keys())
                .withKeyPlacement(TrafficSettings.KeyPlacement.forStrategyKey(trafficPlacement.getText().trim()))
                .withPostShare(Math.round(trafficPostShare.getValue() * 100) / 100.0)
                .withSeed(session.ticker().nanos());
    }

    private KeyDistribution keys() {
        int n = trafficKeys.getValue();
        String d = trafficDistribution.getValue();
        if (UNIFORM.equals(d)) {
            return new KeyDistribution.Uniform(n);
        }
        double p;
        try {
            p = Double.parseDouble(trafficParam.getText().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(Texts.t(HOT_KEY.equals(d) ? "traffic.error.share"
                    : "traffic.error.exponent", trafficParam.getText()));
        }
        return HOT_KEY.equals(d) ? new KeyDistribution.HotKey(n, p) : new KeyDistribution.Zipf(n, p);
    }

    /** Starts a run with the form's settings (FX thread). A refused setting is shown, not thrown. */
    public void start() {
        try {
            vm.start(settings(), trafficRecord.isSelected() ? Path.of(trafficRecordFile.getText().trim()) : null);
        } catch (RuntimeException | IOException e) {
            vm.fail(e.getMessage());
        }
    }

    public void stop() {
        vm.stop();
    }

    private void replayThroughProxy() {
        try {
            vm.replay(settings(), TrafficRecorder.read(Path.of(trafficReplayFile.getText().trim())),
                    trafficReplaySpeed.getValue());
        } catch (RuntimeException | IOException e) {
            vm.fail(Texts.t("traffic.error.replay", e.getMessage()));
        }
    }

    /**
     * <i>Replay a recording…</i>: a file chosen (HAR, nginx access log, Fulcrum's access log) is replayed live through
     * the proxy at the speed set above.
     */
    private void chooseAndReplayRecording() {
        FileChooser fc = new FileChooser();
        fc.setTitle(Texts.t("traffic.chooser.recording"));
        fc.getExtensionFilters().addAll(
                new FileChooser.ExtensionFilter(Texts.t("traffic.filter.recordings"), "*.har", "*.log", "*.json",
                        "*.jsonl", "*.gz", "*.txt"),
                new FileChooser.ExtensionFilter(Texts.t("traffic.filter.all"), "*"));
        File current = new File(trafficReplayFile.getText());
        if (current.getParentFile() != null && current.getParentFile().isDirectory()) {
            fc.setInitialDirectory(current.getParentFile());
        }
        File f = fc.showOpenDialog(trafficReplayRecording.getScene().getWindow());
        if (f != null) {
            trafficReplayFile.setText(f.getPath());
            replayRecording(f.toPath());
        }
    }

    /** Replays {@code file} live through the proxy at the speed set (what the chooser's file gets). FX thread. */
    public void replayRecording(Path file) {
        session.traffic().replayRecording(file, trafficReplaySpeed.getValue());
    }

    private void showReplay(dev.fulcrum.replay.ReplayProgress p) {
        trafficReplayProgress.setProgress(p == null ? 0 : p.fraction());
    }

    /** Reads the replay file and hands it, as a simulator trace at the chosen speed, to the side-by-side view. */
    public void replayIntoSideBySide() {
        Path file = Path.of(trafficReplayFile.getText().trim());
        double speed = trafficReplaySpeed.getValue();
        session.call(Texts.t("traffic.call.read", file.toString()),
                () -> TrafficReplay.toSimTrace(TrafficRecorder.read(file), speed),
                trace -> replayIntoSideBySide.accept(trace, Texts.t("traffic.replay.label",
                        file.getFileName().toString(), Double.toString(speed))),
                msg -> vm.fail(Texts.t("traffic.error.replay", msg)));
    }

    /** Where "Replay into side-by-side" sends the trace (WorkshopTabs wires the side-by-side view). */
    public void onReplayIntoSideBySide(BiConsumer<List<SimRequest>, String> target) {
        this.replayIntoSideBySide = target;
    }

    private void spike() {
        String id = trafficSpikeBackend.getValue();
        long ms = trafficSpikeMs.getValue();
        session.run(Texts.t("traffic.call.spike", id), () -> ctx.spike().accept(id, ms),
                () -> vm.fail(Texts.t("traffic.spike.armed", id, Long.toString(ms))),
                msg -> vm.fail(Texts.t("traffic.error.spike", msg)));
    }

    private void choose(TextField field, boolean save) {
        FileChooser fc = new FileChooser();
        fc.setTitle(Texts.t(save ? "traffic.chooser.record" : "traffic.chooser.replay"));
        fc.getExtensionFilters().add(new FileChooser.ExtensionFilter(Texts.t("traffic.filter.jsonlines"), "*.jsonl",
                "*.json", "*.txt"));
        File current = new File(field.getText());
        if (current.getParentFile() != null && current.getParentFile().isDirectory()) {
            fc.setInitialDirectory(current.getParentFile());
            fc.setInitialFileName(current.getName());
        }
        File f = save ? fc.showSaveDialog(field.getScene().getWindow()) : fc.showOpenDialog(field.getScene().getWindow());
        if (f != null) {
            field.setText(f.getPath());
        }
    }

    private void followStrategyKey() {
        if (placementEdited) {
            return;
        }
        String text = session.traffic().strategyKey();
        if (!text.equals(trafficPlacement.getText())) {
            settingPlacement = true;
            trafficPlacement.setText(text);
            settingPlacement = false;
        }
    }

    private void showDemoIds(Map<String, Map<String, Object>> demo) {
        List<String> ids = demo == null ? List.of() : new ArrayList<>(demo.keySet());
        if (!ids.equals(trafficSpikeBackend.getItems())) {
            String keep = trafficSpikeBackend.getValue();
            trafficSpikeBackend.getItems().setAll(ids);
            trafficSpikeBackend.setValue(ids.contains(keep) ? keep : ids.isEmpty() ? null : ids.get(0));
        }
    }

    private void show(TrafficSnapshot s) {
        if (s == null) {
            trafficProgress.setProgress(0);
            trafficStatus.setText(Texts.t("traffic.status.idle"));
            trafficRateLast.setText("–");
            trafficRateOverall.setText("–");
            trafficCompleted.setText("–");
            trafficErrors.setText("–");
            trafficLatency.setText("–");
            return;
        }
        trafficProgress.setProgress(s.progress());
        trafficStatus.setText(switch (s.state()) {
            case IDLE -> Texts.t("traffic.status.idle");
            case RUNNING -> Texts.t("traffic.status.running", String.format(Locale.ROOT, "%.0f", s.elapsedNanos() / 1e9),
                    String.format(Locale.ROOT, "%.0f", s.durationNanos() / 1e9));
            case DRAINING -> Texts.t("traffic.status.draining", Long.toString(s.inFlight()));
            case DONE -> Texts.t("traffic.status.done", one(s.elapsedNanos() / 1e9));
        });
        trafficRateOverall.setText(Texts.t("traffic.rate", one(s.rateOverall())));
        trafficCompleted.setText(Texts.t("traffic.completed", Long.toString(s.completed()), Long.toString(s.sent()),
                Long.toString(s.inFlight()), Long.toString(s.skipped()), Long.toString(s.gets()),
                Long.toString(s.posts())));
        trafficErrors.setText(errorsText(s));
        TrafficSnapshot.Latency l = s.latency();
        trafficLatency.setText(l.count() == 0 ? "–" : Texts.t("traffic.latency", one(l.p50Ms()), one(l.p90Ms()),
                one(l.p99Ms()), one(l.p999Ms()), one(l.maxMs())));
        showRecent();
    }

    /**
     * The failures and what they were, successes left out: "3 errors (500: 3)", "5 errors (502: 1) · 4 connection
     * errors", "0 errors".
     */
    static String errorsText(TrafficSnapshot s) {
        String statuses = s.byStatus().entrySet().stream().filter(e -> e.getKey() >= 400)
                .map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining(", "));
        return Texts.t(s.errors() == 1 ? "traffic.errors.one" : "traffic.errors", Long.toString(s.errors()))
                + (statuses.isEmpty() ? "" : " (" + statuses + ")")
                + (s.connectionErrors() > 0 ? " · " + Texts.t("traffic.errors.connection",
                        Long.toString(s.connectionErrors())) : "")
                + (s.timeouts() > 0 ? " · " + Texts.t("traffic.errors.timeouts", Long.toString(s.timeouts())) : "");
    }

    /** A figure with one decimal, as every language here writes it in the window (1234.5). */
    private static String one(double d) {
        return String.format(Locale.ROOT, "%.1f", d);
    }

    private void showBackends(Map<String, Long> counts) {
        List<String> ids = new ArrayList<>(counts.keySet());
        List<String> shown = perBackend.getData().stream().map(XYChart.Data::getXValue).toList();
        if (!ids.equals(shown)) {
            List<XYChart.Data<String, Number>> data = new ArrayList<>();
            counts.forEach((id, n) -> data.add(new XYChart.Data<>(id, n)));
            perBackend.getData().setAll(data);
        } else {
            for (XYChart.Data<String, Number> d : perBackend.getData()) {
                d.setYValue(counts.get(d.getXValue()));
            }
        }
        colour();
    }

    /** Each backend's bar in its colour across the window (the pool's palette; a stranger gets its own). */
    private void colour() {
        EngineState s = session.state();
        List<String> poolIds = s == null ? List.of() : s.backends().stream()
                .filter(b -> b.pool().equals(session.pool())).map(EngineState.BackendInfo::id).toList();
        List<String> shown = perBackend.getData().stream().map(XYChart.Data::getXValue).toList();
        Map<String, javafx.scene.paint.Color> palette = poolIds.containsAll(shown) ? Palette.of(poolIds) : Palette.of(shown);
        for (XYChart.Data<String, Number> d : perBackend.getData()) {
            javafx.scene.paint.Color c = palette.get(d.getXValue());
            if (d.getNode() != null && c != null) {
                d.getNode().setStyle("-fx-bar-fill: " + Palette.web(c) + ";");
            }
        }
    }

    public TrafficViewModel viewModel() {
        return vm;
    }

    @Override
    public void close() {
        vm.close();
    }
}
