package dev.fulcrum.ui.breakers;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.EngineEvent;
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
 * One backend's circuit breaker: the three states with the current one lit (CLOSED → OPEN → HALF_OPEN →
 * CLOSED), its recent calls as coloured cells (success, failure, slow), the failure and slow-call rates
 * against their thresholds, the countdown to HALF_OPEN, and the transitions seen since the window opened.
 */
final class BreakerCard extends VBox {
    static final List<String> STATES = List.of("CLOSED", "OPEN", "HALF_OPEN");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    private final String id;
    private final Label title = new Label();
    private final Label[] states = new Label[3];
    private final Label stateLabel = new Label();
    private final FlowPane recent = new FlowPane(2, 2);
    private final Label recentNote = new Label();
    private final ProgressBar failureBar = new ProgressBar(0);
    private final Label failureText = new Label();
    private final ProgressBar slowBar = new ProgressBar(0);
    private final Label slowText = new Label();
    private final Label countdown = new Label();
    private final Label bypassed = new Label();
    private final FlowPane timeline = new FlowPane(4, 4);
    private int shownEvents = -1;

    BreakerCard(String id) {
        this.id = id;
        setId("breaker-" + id);
        getStyleClass().add("breaker-card");
        setSpacing(6);
        title.getStyleClass().add("card-title");
        title.setText(id);
        stateLabel.setId("breakerState-" + id);
        stateLabel.getStyleClass().add("breaker-state-text");
        HBox machine = new HBox(4);
        machine.setAlignment(Pos.CENTER_LEFT);
        for (int i = 0; i < 3; i++) {
            states[i] = new Label(STATES.get(i));
            states[i].getStyleClass().addAll("breaker-node", "breaker-node-" + STATES.get(i));
            machine.getChildren().add(states[i]);
            if (i < 2) {
                machine.getChildren().add(new Label("→"));
            }
        }
        machine.getChildren().add(new Label("→ CLOSED"));
        failureBar.setPrefWidth(160);
        slowBar.setPrefWidth(160);
        recent.setPrefWrapLength(360);
        countdown.setId("breakerCountdown-" + id);
        bypassed.setId("breakerBypassed-" + id);
        bypassed.getStyleClass().add("breaker-bypassed");
        bypassed.setWrapText(true);
        bypassed.setMaxWidth(380);
        getChildren().addAll(new HBox(10, title, stateLabel), bypassed, machine,
                new Label("recent calls (oldest first)"), recent, recentNote,
                new HBox(6, new Label("failures"), failureBar, failureText),
                new HBox(6, new Label("slow calls"), slowBar, slowText), countdown,
                new Label("transitions (newest first)"), timeline);
    }

    void update(EngineState.BackendInfo b, BreakerConfig cfg, List<EngineEvent> events) {
        EngineState.BreakerInfo br = b.breaker();
        String st = br == null ? "CLOSED" : br.state();
        stateLabel.setText(st);
        for (int i = 0; i < 3; i++) {
            states[i].getStyleClass().remove("lit");
            if (STATES.get(i).equals(st)) {
                states[i].getStyleClass().add("lit");
            }
        }
        String why = bypassedBecause(b);
        bypassed.setText(why);
        bypassed.setVisible(why != null);
        bypassed.setManaged(why != null);
        if (br == null) {
            return;
        }
        List<String> calls = br.recent() == null ? List.of() : br.recent();
        while (recent.getChildren().size() < calls.size()) {
            Region cell = new Region();
            cell.setPrefSize(12, 12);
            cell.setMinSize(12, 12);
            recent.getChildren().add(cell);
        }
        if (recent.getChildren().size() > calls.size()) {
            recent.getChildren().remove(calls.size(), recent.getChildren().size());
        }
        // the engine starts a fresh window when the breaker closes again; while OPEN there is none
        recentNote.setText(calls.isEmpty() ? ("OPEN".equals(st) ? "no window while OPEN: calls are refused"
                : "no calls yet") : "");
        recentNote.getStyleClass().setAll("label", "muted");
        for (int i = 0; i < calls.size(); i++) {
            Region cell = (Region) recent.getChildren().get(i);
            cell.getStyleClass().setAll("call-cell", "call-" + calls.get(i));
        }
        double failT = cfg == null ? Double.NaN : cfg.failureRateThreshold();
        double slowT = cfg == null ? Double.NaN : cfg.slowCallRateThreshold();
        rate(failureBar, failureText, br.failureRate(), failT);
        rate(slowBar, slowText, br.slowCallRate(), slowT);
        countdown.setText("OPEN".equals(st) ? String.format("HALF_OPEN in %.1f s", br.msUntilHalfOpen() / 1000.0)
                : "HALF_OPEN".equals(st) ? "probing: the next calls decide" : "");
        if (events.size() != shownEvents) {
            shownEvents = events.size();
            timeline.getChildren().clear();
            // newest first, the last eight: enough to see a flapping breaker without scrolling
            for (int i = events.size() - 1; i >= Math.max(0, events.size() - 8); i--) {
                EngineEvent e = events.get(i);
                Label l = new Label(TIME.format(Instant.ofEpochMilli(e.at())) + "  " + e.from() + " → " + e.to());
                l.getStyleClass().addAll("transition", "breaker-" + e.to());
                timeline.getChildren().add(l);
            }
            if (events.isEmpty()) {
                timeline.getChildren().add(new Label("none yet"));
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
            case "EJECTED" -> String.format("Ejected by outlier detection for %.0f s more (%d× so far): no calls reach "
                    + "the breaker until then.", Math.ceil(b.ejectedForMs() / 1000.0), b.timesEjected());
            case "DOWN" -> "DOWN by its health checks: no calls reach the breaker until they pass again.";
            case "DRAINING", "DRAINED" -> b.state() + ": no new calls reach the breaker.";
            default -> null;
        };
    }

    /** Rates arrive as percent of the calls in the window (0-100), like the thresholds. */
    private static void rate(ProgressBar bar, Label text, double rate, double threshold) {
        double pct = rate;
        if (rate < 0) {
            bar.setProgress(0);
            text.setText("not enough calls yet");
            return;
        }
        bar.setProgress(Math.min(1, pct / 100));
        boolean over = !Double.isNaN(threshold) && pct >= threshold;
        bar.getStyleClass().remove("over");
        if (over) {
            bar.getStyleClass().add("over");
        }
        text.setText(Double.isNaN(threshold) ? String.format("%.0f%%", pct)
                : String.format("%.0f%% (opens at %.0f%%)", pct, threshold));
    }

    String backendId() {
        return id;
    }
}
