package dev.fulcrum.ui.breakers;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.Views;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * One backend's circuit breaker: the three states with the one {@link BreakerStage} plays lit (CLOSED → OPEN →
 * HALF_OPEN → CLOSED; a transition flashes), its recent calls as coloured cells (success, failure, slow), the failure
 * and slow-call rates against their thresholds (while OPEN, the rate that tripped it), the countdown to HALF_OPEN,
 * the half-open probe slots, the breaker and health transitions seen since the window opened (outlier ejections are
 * health transitions), and for a demo backend the trip and heal buttons, so the fault and the breaker are on screen
 * together. Its height is the same in every state (set in em by the stylesheet; each part keeps its room).
 */
final class BreakerCard extends VBox {
    static final List<String> STATES = List.of("CLOSED", "OPEN", "HALF_OPEN");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    private final String id;
    private final Label title = new Label();
    private final Label[] states = new Label[3];
    private final Label stateLabel = new Label();
    private final Label stateNote = new Label();
    private final FlowPane recent = new FlowPane(2, 2);
    private final Label recentNote = new Label();
    private final ProgressBar failureBar = new ProgressBar(0);
    private final Label failureText = new Label();
    private final ProgressBar slowBar = new ProgressBar(0);
    private final Label slowText = new Label();
    private final Label countdown = new Label();
    private final Label bypassed = new Label();
    private final FlowPane timeline = new FlowPane(4, 4);
    private final FlowPane probes = new FlowPane(4, 4);
    private final Label probesLabel = new Label(Texts.t("breakers.probes"));
    private final FlowPane faults = new FlowPane(6, 4);
    private final BreakerStage stage;
    private int shownEvents = -1;
    /** The last calls the card saw in the breaker's window: while OPEN the engine keeps none, the card shows these. */
    private List<String> lastCalls = List.of();
    private boolean keptWindow;
    private String lit;
    private BreakerConfig config;

    /** @param fault sets a demo backend's error rate (1: every answer an error, 0: healed), as present mode's T/H */
    BreakerCard(String id, dev.fulcrum.time.Ticker ticker, java.util.function.DoubleConsumer fault) {
        this.id = id;
        this.stage = new BreakerStage(ticker);
        setId("breaker-" + id);
        getStyleClass().add("breaker-card");
        setSpacing(6);
        title.getStyleClass().add("card-title");
        title.setText(id);
        title.setWrapText(true);
        stateLabel.setId("breakerState-" + id);
        stateLabel.getStyleClass().add("breaker-state-text");
        stateLabel.setMinWidth(Region.USE_PREF_SIZE);
        stateNote.setId("breakerStateNote-" + id);
        stateNote.getStyleClass().add("breaker-state-note");
        stateNote.setWrapText(true);
        // the state in large type on a line of its own, and beside it when it is past how long ago, wrapped, so a long
        // id or "(9.3 s ago; now HALF_OPEN)" is never cut: the card is as wide as the state needs in present mode
        HBox stateRow = new HBox(8, stateLabel, stateNote);
        stateRow.setAlignment(Pos.BASELINE_LEFT);
        VBox header = new VBox(2, title, stateRow);
        // the state machine and the fault buttons wrap onto a second row rather than cut a state's name
        FlowPane machine = new FlowPane(4, 4);
        machine.setAlignment(Pos.CENTER_LEFT);
        for (int i = 0; i < 3; i++) {
            states[i] = new Label(Texts.word("breaker", STATES.get(i)));
            states[i].getStyleClass().addAll("breaker-node", "breaker-node-" + STATES.get(i));
            machine.getChildren().add(states[i]);
            if (i < 2) {
                machine.getChildren().add(new Label("→"));
            }
        }
        machine.getChildren().add(new Label("→ " + Texts.word("breaker", "CLOSED")));
        failureBar.setPrefWidth(160);
        slowBar.setPrefWidth(160);
        recent.setPrefWrapLength(360);
        countdown.setId("breakerCountdown-" + id);
        recentNote.setWrapText(true);
        // the card's height is fixed: a wrapped line keeps all its lines, and the transitions below give way
        recentNote.setMinHeight(Region.USE_PREF_SIZE);
        title.setMinHeight(Region.USE_PREF_SIZE);
        stateNote.setMinHeight(Region.USE_PREF_SIZE);
        recentNote.setMaxWidth(Double.MAX_VALUE);
        bypassed.setId("breakerBypassed-" + id);
        bypassed.getStyleClass().add("breaker-bypassed");
        bypassed.setWrapText(true);
        bypassed.setMaxWidth(Double.MAX_VALUE);
        bypassed.getStyleClass().add("breaker-bypassed-line");
        countdown.getStyleClass().add("breaker-countdown");
        probes.setId("breakerProbes-" + id);
        probes.getStyleClass().add("breaker-probes");
        timeline.getStyleClass().add("breaker-timeline");
        timeline.setMinHeight(0);
        javafx.scene.shape.Rectangle clip = new javafx.scene.shape.Rectangle();
        clip.widthProperty().bind(timeline.widthProperty());
        clip.heightProperty().bind(timeline.heightProperty());
        timeline.setClip(clip);
        VBox.setVgrow(timeline, javafx.scene.layout.Priority.ALWAYS);
        recent.getStyleClass().add("breaker-recent");
        javafx.scene.control.Button trip = new javafx.scene.control.Button(Texts.t("breakers.fault.trip"));
        trip.setId("breakerTrip-" + id);
        trip.setOnAction(e -> fault.accept(1.0));
        javafx.scene.control.Button heal = new javafx.scene.control.Button(Texts.t("breakers.fault.heal"));
        heal.setId("breakerHeal-" + id);
        heal.setOnAction(e -> fault.accept(0.0));
        faults.getChildren().addAll(new Label(Texts.t("breakers.fault")), trip, heal);
        faults.setAlignment(Pos.CENTER_LEFT);
        faults.getStyleClass().add("breaker-faults");
        getChildren().addAll(header, bypassed, machine, faults,
                new Label(Texts.t("breakers.recent")), recent, recentNote,
                row(new Label(Texts.t("breakers.failures")), failureBar, failureText),
                row(new Label(Texts.t("breakers.slow")), slowBar, slowText), countdown,
                row(probesLabel, probes),
                new Label(Texts.t("breakers.transitions")), timeline);
    }

    /** A transition from the engine's events: the card plays it (see {@link BreakerStage}). */
    void transition(EngineEvent e) {
        if ("breaker".equals(e.type())) {
            stage.transition(e.from(), e.to(), e.at());
        }
    }

    /** Whether the demo fault buttons show (the backend is a demo one); they keep their room either way. */
    void demo(boolean demo) {
        faults.setVisible(demo);
    }

    /** Moves the card on to now: the state lit, the countdown, the probes. Each frame while the view shows. */
    void tick() {
        stage.advance();
        String st = stage.state();
        stateLabel.setText(Texts.word("breaker", st));
        stateNote.setText(stage.pastNote());
        Views.styleClass(stateLabel, "past", stage.past());
        if (!st.equals(lit)) {
            boolean first = lit == null;
            lit = st;
            for (int i = 0; i < 3; i++) {
                boolean on = STATES.get(i).equals(st);
                Views.styleClass(states[i], "lit", on);
                if (on && !first) {
                    flash(states[i]);
                }
            }
        }
        countdown.setText(stage.countdown());
        double failT = config == null ? Double.NaN : config.failureRateThreshold();
        double slowT = config == null ? Double.NaN : config.slowCallRateThreshold();
        String trip = stage.tripText(failT, slowT);
        if (trip != null) {
            recentNote.setText(Texts.t(keptWindow ? "breakers.recent.kept.trip" : "breakers.recent.open.trip", trip));
            Double f = stage.trippedFailureRate();
            if (f != null) {
                failureBar.setProgress(Math.min(1, f / 100));
                Views.styleClass(failureBar, "over", !Double.isNaN(failT) && f >= failT);
                failureText.setText(Texts.t("breakers.rate.tripped", BreakerStage.whole(f)));
            }
        }
        List<String> slots = stage.probeSlots(config == null ? 1 : config.halfOpenCalls());
        cells(probes, slots.size(), 14);
        for (int i = 0; i < slots.size(); i++) {
            Views.styleClasses(probes.getChildren().get(i), "probe-cell", "probe-" + slots.get(i));
        }
        probesLabel.setText(Texts.t(slots.isEmpty() ? "breakers.probes.none" : "breakers.probes"));
    }

    /** The window's cells as shown, each its style classes ("call-FAILURE", and "kept" while OPEN); for tests. */
    List<List<String>> shownCells() {
        return recent.getChildren().stream().map(n -> List.copyOf(n.getStyleClass())).toList();
    }

    String recentNoteText() {
        return recentNote.getText();
    }

    /** Makes {@code pane} hold {@code n} square cells of {@code size} px, reusing those it has. */
    private static void cells(FlowPane pane, int n, double size) {
        while (pane.getChildren().size() < n) {
            Region cell = new Region();
            cell.setPrefSize(size, size);
            cell.setMinSize(size, size);
            pane.getChildren().add(cell);
        }
        if (pane.getChildren().size() > n) {
            pane.getChildren().remove(n, pane.getChildren().size());
        }
    }

    /** Labels keep their whole text; a bar gives up its width first when the card is narrow. */
    private static HBox row(javafx.scene.Node... nodes) {
        for (javafx.scene.Node n : nodes) {
            if (n instanceof Label l) {
                l.setMinWidth(Region.USE_PREF_SIZE);
            } else if (n instanceof javafx.scene.control.ProgressBar bar) {
                bar.setMinWidth(40);
            }
        }
        HBox box = new HBox(6, nodes);
        box.setAlignment(Pos.CENTER_LEFT);
        return box;
    }

    private static void flash(javafx.scene.Node n) {
        javafx.animation.ScaleTransition t = new javafx.animation.ScaleTransition(javafx.util.Duration.millis(350), n);
        t.setFromX(1.35);
        t.setFromY(1.35);
        t.setToX(1);
        t.setToY(1);
        t.play();
    }

    void update(EngineState.BackendInfo b, BreakerConfig cfg, List<EngineEvent> events) {
        EngineState.BreakerInfo br = b.breaker();
        config = cfg;
        String st = br == null ? "CLOSED" : br.state();
        String why = bypassedBecause(b);
        // the line keeps its room when empty: the card is as tall in every state
        bypassed.setText(why == null ? "" : why);
        if (br == null) {
            tick();
            return;
        }
        stage.sample(br);
        if (cfg != null) {
            // room for a full window in every state, so the card does not change height when it empties
            double rows = Math.ceil(cfg.window() / 25.0);
            recent.setMinHeight(rows * 14);
            recent.setPrefHeight(rows * 14);
        }
        List<String> calls = br.recent() == null ? List.of() : br.recent();
        // the engine starts a fresh window when the breaker closes again; while OPEN there is none, so the card keeps
        // the calls it last saw (faded) to show what tripped it
        boolean open = "OPEN".equals(st);
        keptWindow = calls.isEmpty() && open && !lastCalls.isEmpty();
        if (!calls.isEmpty()) {
            lastCalls = calls;
        } else if (!open) {
            lastCalls = List.of();
        }
        List<String> shown = keptWindow ? lastCalls : calls;
        cells(recent, shown.size(), 12);
        recentNote.setText(keptWindow ? Texts.t("breakers.recent.kept")
                : calls.isEmpty() ? Texts.t(open ? "breakers.recent.open" : "breakers.recent.none") : "");
        Views.styleClasses(recentNote, "label", "muted");
        for (int i = 0; i < shown.size(); i++) {
            Region cell = (Region) recent.getChildren().get(i);
            String call = "call-" + shown.get(i);
            if (keptWindow) {
                Views.styleClasses(cell, "call-cell", call, "kept");
            } else {
                Views.styleClasses(cell, "call-cell", call);
            }
        }
        double failT = cfg == null ? Double.NaN : cfg.failureRateThreshold();
        double slowT = cfg == null ? Double.NaN : cfg.slowCallRateThreshold();
        rate(failureBar, failureText, br.failureRate(), failT);
        rate(slowBar, slowText, br.slowCallRate(), slowT);
        tick();
        if (events.size() != shownEvents) {
            shownEvents = events.size();
            timeline.getChildren().clear();
            // newest first, the last six (what the card has room for): enough to see a flapping breaker without scrolling
            for (int i = events.size() - 1; i >= Math.max(0, events.size() - 6); i--) {
                EngineEvent e = events.get(i);
                boolean breaker = "breaker".equals(e.type());
                String what = breaker ? "" : ("health".equals(e.type()) ? Texts.t("breakers.event.health") : e.type()) + " ";
                String group = breaker ? "breaker" : "state";
                Label l = new Label(TIME.format(Instant.ofEpochMilli(e.at())) + "  " + what + Texts.word(group, e.from())
                        + " → " + Texts.word(group, e.to()));
                l.getStyleClass().addAll("transition", "breaker".equals(e.type()) ? "breaker-" + e.to() : "state-" + e.to());
                timeline.getChildren().add(l);
            }
            if (events.isEmpty()) {
                timeline.getChildren().add(new Label(Texts.t("breakers.transitions.none")));
            }
        }
    }

    /**
     * Why no calls reach this breaker now, or null when they can: an ejected or DOWN backend gets no traffic, so its
     * breaker keeps the figures it had (CLOSED at 30% failures, or HALF_OPEN waiting for probes that cannot come),
     * and the card says why rather than look frozen.
     */
    static String bypassedBecause(EngineState.BackendInfo b) {
        return switch (b.state()) {
            case "EJECTED" -> Texts.t("breakers.bypassed.ejected", BreakerStage.whole(Math.ceil(b.ejectedForMs() / 1000.0)),
                    String.valueOf(b.timesEjected()));
            case "DOWN" -> Texts.t("breakers.bypassed.down");
            case "DRAINING", "DRAINED" -> Texts.t("breakers.bypassed.drain", Texts.word("state", b.state()));
            default -> null;
        };
    }

    /** Rates arrive as percent of the calls in the window (0-100), like the thresholds. */
    private static void rate(ProgressBar bar, Label text, double rate, double threshold) {
        double pct = rate;
        if (rate < 0) {
            bar.setProgress(0);
            text.setText(Texts.t("breakers.rate.few"));
            return;
        }
        bar.setProgress(Math.min(1, pct / 100));
        boolean over = !Double.isNaN(threshold) && pct >= threshold;
        Views.styleClass(bar, "over", over);
        text.setText(Double.isNaN(threshold) ? BreakerStage.whole(pct) + "%"
                : Texts.t("breakers.rate", BreakerStage.whole(pct), BreakerStage.whole(threshold)));
    }

    String backendId() {
        return id;
    }
}
