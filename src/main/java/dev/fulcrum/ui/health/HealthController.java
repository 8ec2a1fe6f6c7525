package dev.fulcrum.ui.health;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.StatusText;
import dev.fulcrum.ui.UiSession;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.fxml.FXML;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.util.Duration;

/**
 * Active health checks and passive ejection per backend: each probe as a cell over time (green ok, red
 * failed, with the error in its tooltip), the backend's health and state, how often it was ejected and for how
 * much longer; and whether the pool is in panic mode (too few healthy backends, so all are used).
 */
public final class HealthController {
    /** Probe history changes every health-check interval (2 s by default): reading it every 2 s is enough. */
    static final long PROBE_REFRESH_MS = 2000;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());
    private final UiSession session;
    private Map<String, List<Map<String, Object>>> probes = Map.of();
    private String shown;
    /** False while the tab is hidden: then nothing is fetched or rebuilt, and showing it catches up at once. */
    private final BooleanProperty showing = new SimpleBooleanProperty(this, "showing", true);

    @FXML private GridPane healthGrid;
    @FXML private Label panicLabel;

    public HealthController(UiSession session) {
        this.session = session;
    }

    @FXML
    private void initialize() {
        session.stateProperty().addListener((o, a, s) -> show(s));
        session.poolProperty().addListener((o, a, p) -> show(session.state()));
        // while the view is in a window: a tick left running after the window is reopened on another engine (a
        // scenario) would keep this view and that engine alive
        dev.fulcrum.ui.FxTicks.everyWhileShown(healthGrid, Duration.millis(PROBE_REFRESH_MS), this::fetch);
        showing.addListener((o, was, now) -> fetch());
        fetch();
    }

    public BooleanProperty showingProperty() {
        return showing;
    }

    private void fetch() {
        if (!showing.get()) {
            return;
        }
        session.call(Texts.t("health.read"), () -> session.client().probeHistory(), p -> {
            if (!p.equals(probes)) {
                probes = p; // a new identity only when something changed: the grid is rebuilt only then
            }
            show(session.state());
        }, msg -> { });
    }

    private void show(EngineState s) {
        if (s == null || !showing.get()) {
            return;
        }
        EngineState.PoolInfo pool = s.pools().get(session.pool());
        boolean panic = pool != null && pool.panic();
        panicLabel.setText(panic ? Texts.t("health.panic", session.pool()) : Texts.t("health.nopanic", session.pool()));
        panicLabel.getStyleClass().remove("panic");
        if (panic) {
            panicLabel.getStyleClass().add("panic");
        }
        // rebuild only when something shown changed (not 4 times a second), so tooltips stay up while hovered
        StringBuilder sig = new StringBuilder(session.pool()).append(System.identityHashCode(probes));
        for (EngineState.BackendInfo b : s.backends()) {
            if (b.pool().equals(session.pool())) {
                sig.append(b.id()).append(b.health()).append(b.shownState()).append(b.timesEjected())
                        .append(b.ejectedForMs() / 100);
            }
        }
        if (sig.toString().equals(shown)) {
            return;
        }
        shown = sig.toString();
        healthGrid.getChildren().clear();
        String[] heads = {Texts.t("health.column.backend"), Texts.t("health.column.health"),
            Texts.t("health.column.state"), Texts.t("health.column.ejected"), Texts.t("health.column.probes"),
            Texts.t("health.column.last")};
        for (int i = 0; i < heads.length; i++) {
            Label h = new Label(heads[i]);
            h.getStyleClass().add("grid-head");
            healthGrid.add(h, i, 0);
        }
        int row = 1;
        for (EngineState.BackendInfo b : s.backends()) {
            if (!b.pool().equals(session.pool())) {
                continue;
            }
            Label health = new Label(Texts.word("health", b.health()));
            health.getStyleClass().add("health-" + b.health());
            health.setId("health-" + b.id());
            // back from an ejection with nothing shown to work yet: "UP (unverified)", not coloured as UP
            Label state = new Label(StatusText.shownState(b));
            state.setId("healthState-" + b.id());
            state.getStyleClass().add("state-" + (b.unverified() ? "UP-unverified" : b.state()));
            if (b.unverified()) {
                Tooltip.install(state, new Tooltip(StatusText.unverifiedMeans()));
            }
            Label ejected = new Label(b.timesEjected() + "×" + ("EJECTED".equals(b.state())
                    ? Texts.t("health.backin", String.format("%.1f", b.ejectedForMs() / 1000.0)) : ""));
            List<Map<String, Object>> list = probes.getOrDefault(b.id(), List.of());
            HBox strip = new HBox(2);
            strip.setAlignment(Pos.CENTER_LEFT);
            for (Map<String, Object> p : list.subList(Math.max(0, list.size() - 40), list.size())) {
                Region cell = new Region();
                cell.setMinSize(10, 14);
                cell.setPrefSize(10, 14);
                boolean ok = Boolean.TRUE.equals(p.get("ok"));
                cell.getStyleClass().addAll("probe-cell", ok ? "probe-ok" : "probe-failed");
                Tooltip.install(cell, new Tooltip(describe(p)));
                strip.getChildren().add(cell);
            }
            Label last = new Label(list.isEmpty() ? Texts.t("health.noprobes") : describe(list.get(list.size() - 1)));
            healthGrid.addRow(row++, new Label(b.id()), health, state, ejected, strip, last);
        }
    }

    static String describe(Map<String, Object> p) {
        Object at = p.get("at");
        String when = at instanceof Number n ? TIME.format(Instant.ofEpochMilli(n.longValue())) : "?";
        boolean ok = Boolean.TRUE.equals(p.get("ok"));
        Object lat = p.get("latencyMs");
        String latency = lat instanceof Number n ? String.format("%.0f ms", n.doubleValue()) : "";
        return when + " " + (ok ? Texts.t("health.probe.ok", latency) : Texts.t("health.probe.failed",
                String.valueOf(p.get("error"))));
    }
}
