package dev.fulcrum.ui.strategy;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.strategy.StrategyOption;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.UiSession;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.fxml.FXML;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Control;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/**
 * Pick a strategy and its options for the selected pool and apply it live; the engine's refusal (e.g. a
 * table size that is not prime) is shown under the form. The current strategy is shown above it. The form has a row
 * for each setting any strategy takes ({@link Strategies#allOptions}), id {@code #NAMEField}; only the chosen
 * strategy's rows show. A formula (the score strategy's) is checked as it is typed and applied on Enter; while the
 * pool uses the score strategy, each backend's score shows as a bar ({@code #scoreBars}) that follows the engine.
 */
public final class StrategyController {
    private final UiSession session;
    private final Map<String, Control> fields = new LinkedHashMap<>();
    /** Each setting's row (and a formula's problem line under it), to put the chosen strategy's in its order. */
    private final Map<String, List<javafx.scene.Node>> rowsByOption = new LinkedHashMap<>();
    /** Each setting's label and help: several strategies share a setting's row, each words it its own way. */
    private final Map<String, Label[]> wordsByOption = new LinkedHashMap<>();
    private Map<String, Object> shown;

    @FXML private Label currentLabel;
    @FXML private ComboBox<String> strategyType;
    @FXML private Label explanation;
    @FXML private VBox optionRows;
    @FXML private Label strategyResult;
    @FXML private VBox scoreBars;
    @FXML private javafx.scene.control.Button applyStrategy;

    public StrategyController(UiSession session) {
        this.session = session;
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
        for (StrategyOption o : Strategies.allOptions()) {
            Control field;
            if (o.kind() == StrategyOption.Kind.HASH_KEY) {
                ComboBox<String> key = new ComboBox<>();
                key.setEditable(true);
                key.setPrefWidth(260);
                key.getItems().setAll(StrategyForm.KEYS);
                field = key;
            } else if (o.kind() == StrategyOption.Kind.CHOICE || o.kind() == StrategyOption.Kind.NUMBER_OR_WORD) {
                // a word from the list; a number may be typed beside the words
                ComboBox<String> words = new ComboBox<>();
                words.setEditable(o.kind() == StrategyOption.Kind.NUMBER_OR_WORD);
                words.setPrefWidth(200);
                words.getItems().setAll(o.words());
                field = words;
            } else {
                TextField text = new TextField();
                // a formula's field as wide as the default score formula, whole
                text.setPrefWidth(o.kind() == StrategyOption.Kind.FORMULA ? 560
                        : o.kind() == StrategyOption.Kind.NUMBER_MAP ? 260 : 120);
                field = text;
            }
            field.setId(o.name() + "Field");
            Label label = new Label(o.label());
            label.setMinWidth(120);
            Label hint = new Label(o.hint());
            hint.getStyleClass().add("muted");
            // a long help (Polish runs a third longer) wraps beside its field rather than end in "..."
            hint.setWrapText(true);
            wordsByOption.put(o.name(), new Label[] {label, hint});
            HBox row = new HBox(8, label, field, hint);
            row.getStyleClass().add("form-row");
            optionRows.getChildren().add(row);
            List<javafx.scene.Node> nodes = new ArrayList<>(List.of(row));
            if (o.kind() == StrategyOption.Kind.FORMULA) {
                nodes.add(formulaChecked(o, (TextField) field, hint));
                optionRows.getChildren().add(nodes.get(1));
            }
            rowsByOption.put(o.name(), nodes);
            fields.put(o.name(), field);
        }
        strategyType.valueProperty().addListener((o, a, t) -> typeChanged(t));
        session.stateProperty().addListener((o, a, s) -> {
            showCurrent(s);
            showScores(s);
        });
        session.poolProperty().addListener((o, a, p) -> {
            shown = null;
            showCurrent(session.state());
        });
        typeChanged(null);
    }

    /**
     * A formula field is checked as it is typed, by the same check the engine applies ({@link StrategyOption#violations}):
     * the problem shows in red under it, naming the column; Enter applies the form as Apply does. Returns the line that
     * shows the problem (id {@code #NAMEProblem}), shown only while the field is in use and something is wrong.
     */
    private Label formulaChecked(StrategyOption o, TextField field, Label hint) {
        Label problem = new Label();
        problem.setId(o.name() + "Problem");
        problem.getStyleClass().add("form-problems");
        problem.setWrapText(true);
        problem.setPadding(new javafx.geometry.Insets(0, 0, 0, 128));
        problem.managedProperty().bind(problem.visibleProperty());
        problem.visibleProperty().bind(field.disabledProperty().not().and(problem.textProperty().isNotEmpty()));
        field.textProperty().addListener((obs, was, text) -> {
            String p = text == null || text.isBlank() ? "" : o.violations(text.trim()).stream()
                    .map(dev.fulcrum.rules.Violation::describe).findFirst().orElse("");
            problem.setText(p);
            field.setStyle(p.isEmpty() ? "" : "-fx-text-fill: -fulcrum-bad;");
        });
        field.setOnAction(e -> apply());
        return problem;
    }

    /**
     * Each backend's score as a bar while the pool uses a strategy that scores (docs/REFERENCE.md §2.2.1): the bars
     * follow the engine's samples (one a second at most), longest for the highest score above 0, with the value and,
     * where it stood in, why ({@code 0.55 (stale)}). Rows are kept by backend id, so a sample only changes widths
     * and texts.
     */
    private void showScores(EngineState s) {
        List<EngineState.BackendInfo> scored = new ArrayList<>();
        EngineState.PoolInfo pool = s == null ? null : s.pools().get(session.pool());
        boolean scoring = pool != null && pool.strategy() != null
                && StrategySpec.SCORE.equals(String.valueOf(pool.strategy().get("type")));
        if (scoring) {
            for (EngineState.BackendInfo b : s.backends()) {
                if (session.pool().equals(b.pool())) {
                    scored.add(b);
                }
            }
        }
        scoreBars.setVisible(scoring);
        scoreBars.setManaged(scoring);
        double max = 0;
        for (EngineState.BackendInfo b : scored) {
            max = Math.max(max, b.score() == null ? 0 : b.score());
        }
        Map<String, HBox> rows = new LinkedHashMap<>();
        for (javafx.scene.Node n : scoreBars.getChildren()) {
            if (n instanceof HBox h && h.getId() != null) {
                rows.put(h.getId(), h);
            }
        }
        List<javafx.scene.Node> shownRows = new ArrayList<>();
        if (scoring) {
            Label title = scoreBars.getChildren().isEmpty() || !(scoreBars.getChildren().get(0) instanceof Label l)
                    ? new Label(Texts.t("strategy.scores")) : l;
            title.getStyleClass().setAll("label", "grid-head");
            shownRows.add(title);
        }
        for (EngineState.BackendInfo b : scored) {
            HBox row = rows.get("scoreRow-" + b.id());
            if (row == null) {
                Label id = new Label(b.id());
                id.setMinWidth(120);
                javafx.scene.layout.Region bar = new javafx.scene.layout.Region();
                bar.setId("scoreBar-" + b.id());
                bar.setMinHeight(12);
                bar.setMaxHeight(12);
                bar.setStyle("-fx-background-color: " + dev.fulcrum.ui.Palette.web(dev.fulcrum.ui.Palette.of(b.id()))
                        + "; -fx-background-radius: 3;");
                Label value = new Label();
                value.setId("scoreValue-" + b.id());
                value.getStyleClass().add("muted");
                row = new HBox(8, id, bar, value);
                row.setId("scoreRow-" + b.id());
                row.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
            }
            javafx.scene.layout.Region bar = (javafx.scene.layout.Region) row.getChildren().get(1);
            double w = b.score() == null || max <= 0 ? 0 : Math.max(0, b.score()) / max * SCORE_BAR_WIDTH;
            bar.setMinWidth(w);
            bar.setPrefWidth(w);
            bar.setMaxWidth(w);
            ((Label) row.getChildren().get(2)).setText(scoreText(b));
            shownRows.add(row);
        }
        if (!shownRows.equals(scoreBars.getChildren())) {
            scoreBars.getChildren().setAll(shownRows);
        }
    }

    /** The widest bar, in px: the highest score above 0. */
    static final double SCORE_BAR_WIDTH = 320;

    /** {@code 0.62}, {@code 0.55 (stale)}, {@code excluded (missing)}, or {@code not a candidate}. */
    static String scoreText(EngineState.BackendInfo b) {
        if (b.score() == null && b.scoreFallback() == null) {
            return Texts.t("strategy.score.none");
        }
        String v = b.score() == null ? Texts.t("strategy.score.excluded")
                : String.format(java.util.Locale.ROOT, "%.3f", b.score());
        if (b.scoreFallback() == null) {
            return v;
        }
        // the engine's word for why ("stale", "missing"), in the window's language where the bundles know it
        String why = StrategyForm.localized("strategy.score.fallback." + b.scoreFallback(), b.scoreFallback());
        return Texts.t("strategy.score.fallback", v, why);
    }

    private void typeChanged(String t) {
        explanation.setText(t == null ? "" : StrategyForm.EXPLANATIONS.getOrDefault(t, ""));
        // "Applied to pool default: round robin" speaks of the last Apply, not of the strategy now chosen
        strategyResult.getStyleClass().remove("form-problems");
        strategyResult.setText("");
        for (Map.Entry<String, Control> e : fields.entrySet()) {
            boolean on = t != null && StrategyForm.options(t).contains(e.getKey());
            e.getValue().setDisable(!on);
            javafx.scene.Node row = e.getValue().getParent();
            row.setVisible(on);
            row.setManaged(on);
        }
        if (t != null) {
            // the chosen strategy's settings in its own order (score's formula first, not after adaptive's staleAfterMs)
            List<javafx.scene.Node> ordered = new ArrayList<>();
            StrategyForm.options(t).forEach(name -> ordered.addAll(rowsByOption.get(name)));
            rowsByOption.forEach((name, nodes) -> {
                if (!StrategyForm.options(t).contains(name)) {
                    ordered.addAll(nodes);
                }
            });
            if (!ordered.equals(optionRows.getChildren())) {
                optionRows.getChildren().setAll(ordered);
            }
            StrategySpec d = StrategySpec.of(t);
            for (StrategyOption o : StrategyForm.optionsOf(t)) {
                Label[] words = wordsByOption.get(o.name());
                words[0].setText(StrategyForm.label(t, o));
                words[1].setText(StrategyForm.help(t, o));
                Object v = d.option(o.name());
                Control f = fields.get(o.name());
                if (f instanceof TextField text && text.getText().isBlank() && v != null) {
                    text.setText(StrategyForm.text(v));
                } else if (f instanceof ComboBox<?> c && c.getValue() == null && v != null) {
                    put(f, v);
                }
            }
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
        currentLabel.setText(Texts.t("strategy.current", session.pool(), StrategyForm.describe(cur)));
        String type = String.valueOf(cur.get("type"));
        strategyType.setValue(type);
        for (Map.Entry<String, Control> e : fields.entrySet()) {
            // the key of a hashing strategy stays in the form while the pool runs one without a key: choosing maglev
            // after round robin then offers the pool's last key (path), not the default ip that would send a
            // workshop's traffic, all from one address, to one backend (the field is disabled and not sent meanwhile)
            if (e.getValue() instanceof ComboBox<?> && !StrategyForm.options(type).contains(e.getKey())) {
                continue;
            }
            put(e.getValue(), cur.get(e.getKey()));
        }
    }

    /** Shows an option of the engine's strategy; one it does not have is cleared (Apply would send it back). */
    private static void put(Control n, Object v) {
        if (n instanceof TextField t) {
            t.setText(v == null ? "" : StrategyForm.text(v));
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
            strategyResult.setText(Texts.t("strategy.choose"));
            return;
        }
        Map<String, String> values = new HashMap<>();
        fields.forEach((name, f) -> {
            if (f instanceof TextField t) {
                values.put(name, t.getText());
            } else if (f instanceof ComboBox<?> c) {
                String typed = c.getEditor().getText();
                values.put(name, typed == null || typed.isBlank() ? (String) c.getValue() : typed);
            }
        });
        Map<String, Object> spec = StrategyForm.toMap(type, values);
        String pool = session.pool();
        strategyResult.getStyleClass().remove("form-problems");
        strategyResult.setText(Texts.t("strategy.applying"));
        session.run("strategy of " + pool, () -> session.client().setStrategy(pool, spec),
                () -> strategyResult.setText(Texts.t("strategy.applied", pool, StrategyForm.describe(spec))), msg -> {
                    strategyResult.getStyleClass().add("form-problems");
                    strategyResult.setText(msg);
                });
    }
}
