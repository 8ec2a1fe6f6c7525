package dev.fulcrum.ui.load;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.UiSession;
import java.util.HashMap;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.chart.XYChart;

/**
 * The last {@link #WINDOW_SECONDS} seconds of per-backend load, one point a second: requests/s, p99 latency,
 * error rate; and the in-flight requests now. X is seconds since the view opened, so each second appends one
 * point per series and drops the oldest instead of rewriting every point. Paused, the charts stop moving
 * (the sampling goes on, so nothing is missing on resume... except what scrolled out of the window). While
 * the view is not showing (another tab is), points are held the same way and the charts are left alone:
 * laying out four charts four times a second that nobody sees costs the proxy throughput.
 */
public final class LoadViewModel {
    public static final int WINDOW_SECONDS = 300;

    private final UiSession session;
    private final ObservableList<XYChart.Series<Number, Number>> rps = FXCollections.observableArrayList();
    private final ObservableList<XYChart.Series<Number, Number>> p99 = FXCollections.observableArrayList();
    private final ObservableList<XYChart.Series<Number, Number>> errors = FXCollections.observableArrayList();
    private final XYChart.Series<String, Number> inFlightSeries = new XYChart.Series<>();
    private final ObservableList<XYChart.Series<String, Number>> inFlight =
            FXCollections.observableArrayList(java.util.List.of(inFlightSeries));
    private final Map<String, Buffer> buffers = new HashMap<>();
    private final BooleanProperty paused = new SimpleBooleanProperty(this, "paused", false);
    private final BooleanProperty showing = new SimpleBooleanProperty(this, "showing", true);
    private final ReadOnlyDoubleWrapper now = new ReadOnlyDoubleWrapper(this, "now", 0);
    private final ReadOnlyDoubleWrapper errorTop = new ReadOnlyDoubleWrapper(this, "errorTop", errorAxisUpper(0));
    private final ReadOnlyIntegerWrapper inFlightTop = new ReadOnlyIntegerWrapper(this, "inFlightTop", inFlightAxisUpper(0));
    private final ReadOnlyBooleanWrapper inFlightNone = new ReadOnlyBooleanWrapper(this, "inFlightNone", true);
    private long startMillis = -1;
    private long lastSecond = -1;

    /** A backend's series and its points waiting while paused. */
    private static final class Buffer {
        final XYChart.Series<Number, Number> rps = new XYChart.Series<>();
        final XYChart.Series<Number, Number> p99 = new XYChart.Series<>();
        final XYChart.Series<Number, Number> errors = new XYChart.Series<>();
        final XYChart.Data<String, Number> inFlight;
        int inFlightNow;
        final java.util.ArrayDeque<double[]> held = new java.util.ArrayDeque<>();

        Buffer(String id) {
            rps.setName(id);
            p99.setName(id);
            errors.setName(id);
            inFlight = new XYChart.Data<>(id, 0);
        }
    }

    public LoadViewModel(UiSession session) {
        this.session = session;
        inFlightSeries.setName(Texts.t("load.series.inflight"));
        session.stateProperty().addListener((o, a, s) -> sample(s, session.ticker().wallMillis()));
        session.poolProperty().addListener((o, a, p) -> clear());
        paused.addListener((o, a, p) -> flush());
        showing.addListener((o, a, p) -> flush());
    }

    /** Takes one point a second from the 4 Hz samples; {@code nowMillis} is injectable for tests. */
    void sample(EngineState s, long nowMillis) {
        if (s == null) {
            return;
        }
        if (startMillis < 0) {
            startMillis = nowMillis;
        }
        long second = (nowMillis - startMillis) / 1000;
        Set<String> seen = new HashSet<>();
        List<EngineState.BackendInfo> shown = new ArrayList<>();
        // first every series exists (a new one backfilled with the times the others already have), then each
        // gets this second's point: so all series always hold the same x values
        for (EngineState.BackendInfo b : s.backends()) {
            if (!b.pool().equals(session.pool())) {
                continue;
            }
            seen.add(b.id());
            shown.add(b);
            buffers.computeIfAbsent(b.id(), this::add).inFlightNow = b.activeRequests();
        }
        if (second != lastSecond) {
            for (EngineState.BackendInfo b : shown) {
                Buffer buffer = buffers.get(b.id());
                buffer.held.add(new double[] {second, b.rps(), b.latencyP99Ms(), b.errorRate() * 100});
                while (buffer.held.peekFirst()[0] < second - WINDOW_SECONDS) {
                    buffer.held.pollFirst(); // held for longer than the charts show: it would scroll out anyway
                }
            }
        }
        for (String gone : new HashSet<>(buffers.keySet())) {
            if (!seen.contains(gone)) {
                remove(gone);
            }
        }
        lastSecond = second;
        flush();
    }

    private void flush() {
        if (!showing.get()) {
            return;
        }
        for (Buffer b : buffers.values()) {
            if (!Integer.valueOf(b.inFlightNow).equals(b.inFlight.getYValue())) {
                b.inFlight.setYValue(b.inFlightNow);
            }
        }
        if (!paused.get()) {
            append();
        }
        // the axes follow what the charts hold now: points come on a sample, and also when the tab is shown again or
        // resumed, which a paused timeline does not follow with a sample
        int mostInFlight = maxInFlight();
        inFlightTop.set(inFlightAxisUpper(mostInFlight));
        inFlightNone.set(mostInFlight == 0);
        errorTop.set(errorAxisUpper(maxErrorPercent()));
    }

    private void append() {
        for (Buffer b : buffers.values()) {
            for (double[] p; (p = b.held.poll()) != null; ) {
                append(b.rps, p[0], p[1]);
                if (!Double.isNaN(p[2])) { // a backfilled time: requests/s only (0), no latency or errors to show
                    append(b.p99, p[0], p[2]);
                    append(b.errors, p[0], p[3]);
                }
                now.set(Math.max(now.get(), p[0]));
            }
        }
    }

    private static void append(XYChart.Series<Number, Number> s, double x, double y) {
        s.getData().add(new XYChart.Data<>(x, y));
        int drop = 0;
        while (drop < s.getData().size() && s.getData().get(drop).getXValue().doubleValue() < x - WINDOW_SECONDS) {
            drop++;
        }
        if (drop > 0) {
            s.getData().remove(0, drop);
        }
    }

    private Buffer add(String id) {
        Buffer b = new Buffer(id);
        // StackedAreaChart needs every series on the same x values (else its layout fails with an index of -1):
        // a backend that appears later starts with zero requests/s at the times already shown or held
        Buffer ref = buffers.values().stream().findFirst().orElse(null);
        if (ref != null) {
            for (XYChart.Data<Number, Number> d : ref.rps.getData()) {
                b.rps.getData().add(new XYChart.Data<>(d.getXValue(), 0));
            }
            for (double[] held : ref.held) {
                b.held.add(new double[] {held[0], 0, Double.NaN, Double.NaN});
            }
        }
        rps.add(b.rps);
        p99.add(b.p99);
        errors.add(b.errors);
        inFlightSeries.getData().add(b.inFlight);
        return b;
    }

    private void remove(String id) {
        Buffer b = buffers.remove(id);
        rps.remove(b.rps);
        p99.remove(b.p99);
        errors.remove(b.errors);
        inFlightSeries.getData().remove(b.inFlight);
    }

    private void clear() {
        new HashSet<>(buffers.keySet()).forEach(this::remove);
    }

    public ObservableList<XYChart.Series<Number, Number>> rps() {
        return rps;
    }

    public ObservableList<XYChart.Series<Number, Number>> p99() {
        return p99;
    }

    public ObservableList<XYChart.Series<Number, Number>> errors() {
        return errors;
    }

    public ObservableList<XYChart.Series<String, Number>> inFlight() {
        return inFlight;
    }

    public BooleanProperty pausedProperty() {
        return paused;
    }

    /** Bound to the view's tab being selected; while false the charts are left alone. */
    public BooleanProperty showingProperty() {
        return showing;
    }

    /** The newest x shown (seconds since the view opened); the x axes end here. */
    public ReadOnlyDoubleProperty nowProperty() {
        return now.getReadOnlyProperty();
    }

    /** The error-rate axis's top for the points shown ({@link #errorAxisUpper}), in percent. */
    public ReadOnlyDoubleProperty errorAxisTopProperty() {
        return errorTop.getReadOnlyProperty();
    }

    /** The in-flight axis's top for the bars shown ({@link #inFlightAxisUpper}). */
    public ReadOnlyIntegerProperty inFlightAxisTopProperty() {
        return inFlightTop.getReadOnlyProperty();
    }

    /** Whether the bars shown are all 0: the chart then says there are none. */
    public ReadOnlyBooleanProperty inFlightNoneProperty() {
        return inFlightNone.getReadOnlyProperty();
    }

    /**
     * The error-rate axis's top, in percent: room above the highest rate shown, never past 100 (a rate cannot be
     * more), and at least 5 so a flat 0 is not a lone tick. Example: 3% → 5, 42% → 50, 100% → 100.
     */
    static double errorAxisUpper(double maxPercent) {
        if (!(maxPercent > 0)) {
            return 5;
        }
        double[] steps = {5, 10, 20, 25, 50, 75, 100};
        for (double s : steps) {
            if (maxPercent <= s) {
                return s;
            }
        }
        return 100;
    }

    /** The in-flight axis's top: whole requests, at least 1, so an idle pool shows 0 and 1, not one "0.00". */
    static int inFlightAxisUpper(int max) {
        return Math.max(1, max + (max + 4) / 5);
    }

    /** The highest error rate on the chart now, in percent (0 when empty). */
    private double maxErrorPercent() {
        double m = 0;
        for (XYChart.Series<Number, Number> series : errors()) {
            for (XYChart.Data<Number, Number> d : series.getData()) {
                m = Math.max(m, d.getYValue().doubleValue());
            }
        }
        return m;
    }

    /** The most requests in flight at one backend now. */
    private int maxInFlight() {
        int m = 0;
        for (XYChart.Data<String, Number> d : inFlightSeries.getData()) {
            m = Math.max(m, d.getYValue().intValue());
        }
        return m;
    }
}
