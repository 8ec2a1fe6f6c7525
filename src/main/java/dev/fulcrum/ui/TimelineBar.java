package dev.fulcrum.ui;

import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.events.EventText;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Set;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Slider;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Pane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.shape.Rectangle;
import javafx.util.Duration;

/**
 * The time machine's timeline along the bottom of the window: the last five minutes, with a mark for each event that
 * changes the pool (breaker, health, membership, weight, drain, strategy, config) where it happened; dragging back
 * shows every view as it was then ({@link TimeMachine#viewAt}), Live (or the space bar again) comes back to now.
 */
public final class TimelineBar extends HBox {
    static final Set<String> MARKED = Set.of("breaker", "health", "membership", "weight", "drain", "strategy", "config",
            "panic", "plugin-failed", "disconnected", "reconnected", "split", "guard");
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    private final TimeMachine machine;
    private final Slider slider = new Slider(0, TimeMachine.KEEP_MS, TimeMachine.KEEP_MS);
    private final Pane marks = new Pane();
    private final Label when = new Label(Texts.t("main.timeline.live"));
    private final Button live = new Button(Texts.t("main.timeline.back"));
    private boolean moving;
    /** The window's end, wall milliseconds: now while live, frozen while looking back. */
    private long end;

    public TimelineBar(TimeMachine machine) {
        this.machine = machine;
        setId("timeline");
        getStyleClass().add("timeline");
        setAlignment(Pos.CENTER_LEFT);
        setSpacing(8);
        slider.setId("timelineSlider");
        when.setId("timelineWhen");
        live.setId("timelineLive");
        when.setMinWidth(150);
        marks.setMouseTransparent(true);
        marks.setMinHeight(6);
        StackPane track = new StackPane(marks, slider);
        HBox.setHgrow(track, Priority.ALWAYS);
        Label title = new Label(Texts.t("main.timeline.title"));
        // the track gives up its width, never the words beside it
        title.setMinWidth(Region.USE_PREF_SIZE);
        live.setMinWidth(Region.USE_PREF_SIZE);
        marks.setPrefWidth(0);
        getChildren().addAll(title, track, when, live);
        live.setOnAction(e -> machine.backToLive());
        slider.valueProperty().addListener((o, a, v) -> {
            if (moving) {
                return;
            }
            long t = end - (long) (TimeMachine.KEEP_MS - v.doubleValue());
            if (v.doubleValue() >= TimeMachine.KEEP_MS - 200 && slider.isValueChanging()) {
                machine.backToLive();
            } else {
                machine.viewAt(t);
            }
        });
        machine.viewingAtProperty().addListener((o, a, t) -> show());
        FxTicks.everyWhileShown(this, Duration.seconds(1), this::show);
        show();
    }

    /** A moment of the window's clock as the timeline says it, {@code 10:42:07}; "the pause" for none (-1). */
    public static String clock(long wallMillis) {
        return wallMillis < 0 ? Texts.t("main.timeline.pause") : CLOCK.format(Instant.ofEpochMilli(wallMillis));
    }

    private void show() {
        long viewing = machine.viewingAtProperty().get();
        if (viewing < 0) {
            end = machine.now();
        }
        moving = true;
        try {
            slider.setValue(viewing < 0 ? TimeMachine.KEEP_MS : TimeMachine.KEEP_MS - (end - viewing));
        } finally {
            moving = false;
        }
        live.setDisable(viewing < 0);
        when.setText(viewing < 0 ? Texts.t("main.timeline.live") : Texts.t("main.timeline.ago",
                CLOCK.format(Instant.ofEpochMilli(viewing)), Long.toString((machine.now() - viewing) / 1000)));
        drawMarks();
    }

    private void drawMarks() {
        double w = marks.getWidth() > 0 ? marks.getWidth() : getWidth() * 0.7;
        marks.getChildren().clear();
        for (EngineEvent e : machine.events()) {
            if (!MARKED.contains(e.type())) {
                continue;
            }
            double f = 1 - (double) (end - e.at()) / TimeMachine.KEEP_MS;
            if (f < 0 || f > 1) {
                continue;
            }
            Rectangle r = new Rectangle(2, 10);
            r.getStyleClass().addAll("timeline-mark", "timeline-" + e.type());
            r.setLayoutX(f * (w - 2));
            Tooltip.install(r, new Tooltip(Texts.word("events.type", e.type())
                    + (e.route() == null ? "" : " " + Texts.t("events.route", Integer.toString(e.route()))) + " "
                    + (e.backend() == null ? "" : e.backend()) + " "
                    + (e.from() == null ? "" : EventText.words(e.type(), e.from()) + " → ")
                    + (e.to() == null ? "" : EventText.words(e.type(), e.to()))));
            marks.getChildren().add(r);
        }
    }
}
