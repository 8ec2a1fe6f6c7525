package dev.fulcrum.ui.demo;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.UiSession;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.fxml.FXML;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.Slider;
import javafx.scene.layout.GridPane;
import org.controlsfx.control.ToggleSwitch;

/**
 * Faults for the demo backends Fulcrum runs itself: latency, error rate and down, per backend, sent live
 * ({@code updateDemo}) when a slider is released or the switch flips. The panel follows what the engine reports
 * (once a second) unless the operator is moving that control.
 */
public final class DemoController {
    private final UiSession session;
    private final Map<String, Row> rows = new LinkedHashMap<>();

    @FXML private GridPane demoGrid;

    public DemoController(UiSession session) {
        this.session = session;
    }

    private final class Row {
        final Slider latency = new Slider(0, 2000, 0);
        final Label latencyText = new Label();
        final Slider errorRate = new Slider(0, 1, 0);
        final Label errorText = new Label();
        final ToggleSwitch down = new ToggleSwitch(Texts.t("demo.down.switch"));
        boolean updating;

        Row(String id) {
            latency.setId("demoLatency-" + id);
            errorRate.setId("demoErrorRate-" + id);
            down.setId("demoDown-" + id);
            latency.setPrefWidth(220);
            errorRate.setPrefWidth(220);
            // a Slider's default step (10) is the whole 0..1 range: one arrow key would make every request fail
            errorRate.setBlockIncrement(0.05);
            latency.setBlockIncrement(50);
            latencyText.setMinWidth(70);
            errorText.setMinWidth(50);
            latency.valueProperty().addListener((o, a, v) -> latencyText.setText(Math.round(v.doubleValue()) + " ms"));
            errorRate.valueProperty().addListener((o, a, v) -> errorText.setText(Math.round(v.doubleValue() * 100) + "%"));
            latency.valueChangingProperty().addListener((o, a, ch) -> {
                if (!ch) {
                    send(id, (double) Math.round(latency.getValue()), null, null);
                }
            });
            errorRate.valueChangingProperty().addListener((o, a, ch) -> {
                if (!ch) {
                    send(id, null, Math.round(errorRate.getValue() * 100) / 100.0, null);
                }
            });
            latency.valueProperty().addListener((o, a, v) -> {
                if (!updating && !latency.isValueChanging()) {
                    send(id, (double) Math.round(v.doubleValue()), null, null);
                }
            });
            errorRate.valueProperty().addListener((o, a, v) -> {
                if (!updating && !errorRate.isValueChanging()) {
                    send(id, null, Math.round(v.doubleValue() * 100) / 100.0, null);
                }
            });
            down.selectedProperty().addListener((o, a, d) -> {
                if (!updating) {
                    send(id, null, null, d);
                }
            });
        }

        void show(Map<String, Object> s) {
            updating = true;
            try {
                if (!latency.isValueChanging() && s.get("latencyMs") instanceof Number n) {
                    latency.setValue(n.doubleValue());
                }
                if (!errorRate.isValueChanging() && s.get("errorRate") instanceof Number n) {
                    errorRate.setValue(n.doubleValue());
                }
                down.setSelected(Boolean.TRUE.equals(s.get("down")));
                latencyText.setText(Math.round(latency.getValue()) + " ms");
                errorText.setText(Math.round(errorRate.getValue() * 100) + "%");
            } finally {
                updating = false;
            }
        }
    }

    @FXML
    private void initialize() {
        demoGrid.disableProperty().bind(session.staleProperty()); // faults cannot be sent while no engine answers
        session.demoStateProperty().addListener((o, a, d) -> show(d));
        show(session.demoStateProperty().get());
    }

    private void send(String id, Double latencyMs, Double errorRate, Boolean down) {
        session.run(Texts.t("demo.command", id), () -> session.client().updateDemo(id, latencyMs, errorRate, down));
    }

    private void show(Map<String, Map<String, Object>> demo) {
        if (!demo.keySet().equals(rows.keySet())) {
            rows.keySet().retainAll(demo.keySet());
            demoGrid.getChildren().clear();
            demoGrid.addRow(0, head(Texts.t("demo.column.backend")), head(Texts.t("demo.column.latency")), new Label(),
                    head(Texts.t("demo.column.errors")), new Label(), head(Texts.t("demo.column.down")));
            int r = 1;
            for (String id : demo.keySet()) {
                Row row = rows.computeIfAbsent(id, Row::new);
                Label name = new Label(id);
                demoGrid.addRow(r++, name, row.latency, row.latencyText, row.errorRate, row.errorText, row.down);
                GridPane.setHalignment(row.down, javafx.geometry.HPos.LEFT);
            }
            demoGrid.setAlignment(Pos.TOP_LEFT);
        }
        demo.forEach((id, s) -> rows.get(id).show(s));
    }

    private static Label head(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("grid-head");
        return l;
    }

    List<String> ids() {
        return List.copyOf(rows.keySet());
    }
}
