package dev.fulcrum.ui.strategy;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.engine.StrategySpec;
import dev.fulcrum.ui.UiSession;
import java.util.HashMap;
import java.util.Map;
import javafx.fxml.FXML;
import javafx.scene.Node;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;

/**
 * Pick a strategy and its options for the selected pool and apply it live; the engine's refusal (e.g. a
 * table size that is not prime) is shown under the form. The current strategy is shown above it.
 */
public final class StrategyController {
    private final UiSession session;
    private Map<String, Object> shown;

    @FXML private Label currentLabel;
    @FXML private ComboBox<String> strategyType;
    @FXML private Label explanation;
    @FXML private ComboBox<String> keyField;
    @FXML private TextField virtualNodesField;
    @FXML private TextField balanceFactorField;
    @FXML private TextField choicesField;
    @FXML private TextField tableSizeField;
    @FXML private TextField decayMsField;
    @FXML private TextField staleAfterMsField;
    @FXML private Label strategyResult;
    @FXML private javafx.scene.control.Button applyStrategy;

    public StrategyController(UiSession session) {
        this.session = session;
    }

    private Map<String, Node> fields() {
        return Map.of("key", keyField, "virtualNodes", virtualNodesField, "balanceFactor", balanceFactorField,
                "choices", choicesField, "tableSize", tableSizeField, "decayMs", decayMsField,
                "staleAfterMs", staleAfterMsField);
    }

    @FXML
    private void initialize() {
        applyStrategy.disableProperty().bind(session.staleProperty()); // nothing to apply it to while no engine answers
        strategyType.getItems().setAll(StrategySpec.TYPES);
        // the list shows each strategy by its name in words, with the config's name for the file and the API
        strategyType.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(String type) {
                return type == null ? "" : StrategyForm.NAMES.getOrDefault(type, type) + "  (" + type + ")";
            }

            @Override
            public String fromString(String text) {
                return text;
            }
        });
        keyField.getItems().setAll(StrategyForm.KEYS);
        strategyType.valueProperty().addListener((o, a, t) -> typeChanged(t));
        session.stateProperty().addListener((o, a, s) -> showCurrent(s));
        session.poolProperty().addListener((o, a, p) -> {
            shown = null;
            showCurrent(session.state());
        });
    }

    private void typeChanged(String t) {
        explanation.setText(t == null ? "" : StrategyForm.EXPLANATIONS.getOrDefault(t, ""));
        // "Applied to pool default: round robin" speaks of the last Apply, not of the strategy now chosen
        strategyResult.getStyleClass().remove("form-problems");
        strategyResult.setText("");
        for (Map.Entry<String, Node> e : fields().entrySet()) {
            boolean on = t != null && StrategyForm.options(t).contains(e.getKey());
            e.getValue().setDisable(!on);
            Node row = e.getValue().getParent();
            row.setVisible(on);
            row.setManaged(on);
        }
        if (t != null) {
            StrategySpec d = StrategySpec.of(t);
            setIfBlank(virtualNodesField, d.virtualNodes());
            setIfBlank(tableSizeField, d.tableSize());
            setIfBlank(choicesField, d.choices());
            setIfBlank(decayMsField, d.decayMs());
            setIfBlank(staleAfterMsField, d.staleAfterMs());
            if (keyField.getValue() == null && d.key() != null) {
                keyField.setValue(d.key());
            }
        }
    }

    private static void setIfBlank(TextField f, Object v) {
        if (f.getText().isBlank() && v != null) {
            f.setText(v.toString());
        }
    }

    private void showCurrent(EngineState s) {
        if (s == null || s.pools().get(session.pool()) == null) {
            return;
        }
        Map<String, Object> cur = s.pools().get(session.pool()).strategy();
        if (cur == null || cur.equals(shown)) {
            return;
        }
        shown = cur;
        currentLabel.setText("Pool " + session.pool() + " uses " + StrategyForm.describe(cur));
        String type = String.valueOf(cur.get("type"));
        strategyType.setValue(type);
        // the key of a hashing strategy stays in the form while the pool runs one without a key: choosing maglev after
        // round robin then offers the pool's last key (path), not the default ip that would send a workshop's
        // traffic, all from one address, to one backend (the field is disabled and not sent meanwhile)
        if (StrategyForm.options(type).contains("key")) {
            put(keyField, cur.get("key"));
        }
        put(virtualNodesField, cur.get("virtualNodes"));
        put(balanceFactorField, cur.get("balanceFactor"));
        put(choicesField, cur.get("choices"));
        put(tableSizeField, cur.get("tableSize"));
        put(decayMsField, cur.get("decayMs"));
        put(staleAfterMsField, cur.get("staleAfterMs"));
    }

    /** Shows an option of the engine's strategy; one it does not have is cleared (Apply would send it back). */
    private static void put(Node n, Object v) {
        if (n instanceof TextField t) {
            t.setText(v == null ? "" : v.toString());
        } else if (n instanceof ComboBox<?> c) {
            @SuppressWarnings("unchecked")
            ComboBox<String> cs = (ComboBox<String>) c;
            cs.setValue(v == null ? null : v.toString());
        }
    }

    @FXML
    private void apply() {
        String type = strategyType.getValue();
        if (type == null) {
            strategyResult.setText("type: choose a strategy");
            return;
        }
        Map<String, String> values = new HashMap<>();
        values.put("key", keyField.getEditor().getText() == null || keyField.getEditor().getText().isBlank()
                ? keyField.getValue() : keyField.getEditor().getText());
        values.put("virtualNodes", virtualNodesField.getText());
        values.put("balanceFactor", balanceFactorField.getText());
        values.put("choices", choicesField.getText());
        values.put("tableSize", tableSizeField.getText());
        values.put("decayMs", decayMsField.getText());
        values.put("staleAfterMs", staleAfterMsField.getText());
        Map<String, Object> spec = StrategyForm.toMap(type, values);
        String pool = session.pool();
        strategyResult.getStyleClass().remove("form-problems");
        strategyResult.setText("applying…");
        session.run("strategy of " + pool, () -> session.client().setStrategy(pool, spec),
                () -> strategyResult.setText("Applied to pool " + pool + ": " + StrategyForm.describe(spec)), msg -> {
                    strategyResult.getStyleClass().add("form-problems");
                    strategyResult.setText(msg);
                });
    }
}
