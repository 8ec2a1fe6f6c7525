package dev.fulcrum.ui;

import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.time.Ticker;
import javafx.scene.control.Label;
import javafx.scene.control.Slider;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * A backend's weight as a slider that reweights live, wherever a view shows one (the Backends table, the Live
 * stage's cards): while dragging, at most 5 weights a second go to the engine ({@link BackendCommands#weightDragged});
 * on release the final weight is sent, unless the drag already sent it, and recorded for undo. Beside it the
 * effective weight, which differs during slow start. The range grows with the weight (0-20, 0-100, 0-1000: the next
 * range once a weight is at 80% of the current one), so small weights stay easy to set and large ones reachable.
 *
 * <p>The send interval and {@link #LOCAL_WEIGHT_HOLD_MS} are timed on the window's {@link Ticker}, so a test drags on a
 * manual clock instead of waiting between moves.
 *
 * <p>Under a strategy that reads no weight (round robin, random, fastest response) the slider says so beside it, with a
 * tooltip: the weight is still set (it counts once the pool's strategy reads weights) but changes no pick now, which
 * the number alone would not tell.
 */
public final class WeightSlider {
    /** After a local change, samples older than it may still arrive: their weight is not shown meanwhile. */
    public static final long LOCAL_WEIGHT_HOLD_MS = 1000;

    private final BackendCommands commands;
    private final Ticker ticker;
    private final String idPrefix;
    private final Slider slider = new Slider(0, 20, 1);
    private final Label effective = new Label();
    private final Label ignored = new Label(Texts.t("main.weight.ignored"));
    private final HBox box = new HBox(6, slider, effective, ignored);
    private BackendInfo info;
    private boolean updating;
    private int dragFrom = -1;
    private long localUntil;

    /**
     * @param ticker   the window's clock ({@link dev.fulcrum.ui.UiSession#ticker()})
     * @param idPrefix before the node ids ({@code weight-ID}), so two views' sliders of one backend differ
     */
    public WeightSlider(BackendCommands commands, Ticker ticker, String idPrefix) {
        this.commands = commands;
        this.ticker = ticker;
        this.idPrefix = idPrefix;
        HBox.setHgrow(slider, Priority.ALWAYS);
        slider.setMinWidth(60);
        slider.setBlockIncrement(1);
        effective.getStyleClass().add("effective-weight");
        effective.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        ignored.getStyleClass().add("weight-ignored");
        ignored.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        ignored.setTooltip(new Tooltip(Texts.t("main.weight.ignored.tip")));
        ignored.managedProperty().bind(ignored.visibleProperty());
        ignored.setVisible(false);
        slider.valueChangingProperty().addListener((o, was, changing) -> {
            if (info == null) {
                return;
            }
            if (changing) {
                dragFrom = info.weight();
            } else {
                int from = dragFrom >= 0 ? dragFrom : info.weight();
                dragFrom = -1;
                localUntil = nowMillis() + LOCAL_WEIGHT_HOLD_MS;
                commands.weightSet(info.id(), from, value());
            }
        });
        slider.valueProperty().addListener((o, a, v) -> {
            if (updating || info == null) {
                return;
            }
            localUntil = nowMillis() + LOCAL_WEIGHT_HOLD_MS;
            showEffective(info, value());
            if (slider.isValueChanging()) {
                commands.weightDragged(info.id(), dragFrom >= 0 ? dragFrom : info.weight(), value(),
                        nowMillis());
            } else if (dragFrom < 0) {
                commands.weightSet(info.id(), info.weight(), value()); // a click on the track or a key
            }
        });
    }

    public HBox node() {
        return box;
    }

    public Slider slider() {
        return slider;
    }

    /** Shows a new sample of the backend; {@code readsWeights} is whether its pool's strategy reads weights. */
    public void show(BackendInfo b, boolean readsWeights) {
        if (b == null) {
            return;
        }
        boolean sameBackend = info != null && info.id().equals(b.id());
        info = b;
        slider.setId(idPrefix + "weight-" + b.id());
        effective.setId(idPrefix + "effective-" + b.id());
        if (!sameBackend) {
            localUntil = 0;
        }
        ignored.setVisible(!readsWeights);
        ignored.setId(idPrefix + "weight-ignored-" + b.id());
        boolean local = slider.isValueChanging() || nowMillis() < localUntil;
        if (!local) {
            updating = true;
            try {
                int w = b.weight();
                slider.setMax(w < 16 ? 20 : w < 80 ? 100 : 1000);
                slider.setValue(w);
            } finally {
                updating = false;
            }
        }
        showEffective(b, local ? value() : b.weight());
    }

    /** Monotonic milliseconds: the hold and the send interval are durations, not times of day. */
    private long nowMillis() {
        return ticker.nanos() / 1_000_000;
    }

    private int value() {
        return (int) Math.round(slider.getValue());
    }

    private void showEffective(BackendInfo b, int weight) {
        boolean ramping = Math.abs(b.effectiveWeight() - b.weight()) > 0.005;
        effective.setText(ramping ? Texts.t("main.weight.ramping", Integer.toString(weight), fmt(b.effectiveWeight()))
                : Integer.toString(weight));
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format("%.2f", d);
    }
}
