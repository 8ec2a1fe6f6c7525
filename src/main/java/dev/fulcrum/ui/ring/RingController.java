package dev.fulcrum.ui.ring;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.ui.Palette;
import dev.fulcrum.ui.UiSession;
import java.util.List;
import java.util.Map;
import javafx.animation.PauseTransition;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;
import javafx.scene.shape.Rectangle;
import javafx.util.Duration;

/** Thin: wires {@code fxml/ring.fxml} to {@link RingViewModel} and {@link RingCanvas}. */
public final class RingController {
    private final UiSession session;
    private final RingViewModel vm;
    private final RingCanvas canvas = new RingCanvas();

    @FXML private StackPane ringPane;
    @FXML private Label noRingLabel;
    @FXML private TextField ringKey;
    @FXML private Label lookupLabel;
    @FXML private VBox legend;
    @FXML private ChoiceBox<RingViewModel.Mode> whatIfMode;
    @FXML private ComboBox<String> whatIfBackend;
    @FXML private TextField whatIfWeight;
    @FXML private TextField whatIfUrl;
    @FXML private Label previewLabel;
    @FXML private Button applyButton;
    @FXML private Label ringSeen;
    @FXML private Label ringMoved;
    @FXML private Label legendTitle;
    @FXML private Label ringExplain;
    private volatile dev.fulcrum.admin.RequestSource source;
    private boolean noRequests;
    private double lastFigures;

    public RingController(UiSession session) {
        this.session = session;
        this.vm = new RingViewModel(session);
    }

    public RingViewModel viewModel() {
        return vm;
    }

    public RingCanvas ringCanvas() {
        return canvas;
    }

    @FXML
    private void initialize() {
        ringPane.getChildren().add(0, canvas);
        noRingLabel.textProperty().bind(vm.messageProperty());
        noRingLabel.visibleProperty().bind(vm.messageProperty().isNotNull());
        vm.geometryProperty().addListener((o, a, g) -> {
            canvas.setGeometry(g);
            showLegend(g);
        });
        PauseTransition debounce = new PauseTransition(Duration.millis(150));
        debounce.setOnFinished(e -> vm.lookup(ringKey.getText()));
        ringKey.textProperty().addListener((o, a, k) -> debounce.playFromStart());
        vm.lookupProperty().addListener((o, a, l) -> showLookup(l));
        whatIfMode.getItems().setAll(RingViewModel.Mode.values());
        whatIfMode.setValue(RingViewModel.Mode.REMOVE);
        whatIfMode.valueProperty().addListener((o, a, m) -> modeChanged(m));
        modeChanged(RingViewModel.Mode.REMOVE);
        session.stateProperty().addListener((o, a, s) -> backendsChanged(s));
        previewLabel.textProperty().bind(vm.previewTextProperty());
        applyButton.disableProperty().bind(vm.previewProperty().isNull());
        vm.previewProperty().addListener((o, a, p) -> {
            canvas.setPreviewChanges(vm.previewChangesProperty().get());
            canvas.setPreviewShare(p == null ? null : p.share());
            showLegend(vm.geometryProperty().get());
        });
        vm.movedProperty().addListener((o, a, m) -> ringMoved.setText(m == null ? "" : m.text()));
        ringMoved.setId("ringMoved");
        ringSeen.setId("ringSeen");
        session.poolProperty().addListener((o, a, p) -> vm.keys().clear());
        startKeys();
        ringPane.styleProperty().addListener((o, a, b) -> canvas.redraw());
        // the scene outlives this view when the window is reopened on another engine (a scenario): the listener on
        // its stylesheets goes when the view leaves it, and is weak besides, so it never keeps an old view alive
        ringPane.sceneProperty().addListener((o, a, sc) -> {
            if (a != null) {
                a.getStylesheets().removeListener(weakStylesheets);
            }
            if (sc != null) {
                sc.getStylesheets().addListener(weakStylesheets);
                stylesheetsChanged(sc);
            }
        });
        // a preview is of what the form said when it was made: Apply must not do something else
        whatIfBackend.valueProperty().addListener((o, a, b) -> vm.clearPreview());
        whatIfBackend.getEditor().textProperty().addListener((o, a, b) -> vm.clearPreview());
        whatIfWeight.textProperty().addListener((o, a, b) -> vm.clearPreview());
        whatIfUrl.textProperty().addListener((o, a, b) -> vm.clearPreview());
    }

    /**
     * The keys: a request source of the view's own (read without blocking each frame, only while the view shows)
     * feeds {@link RingViewModel#offer}; the canvas draws where every key seen in the last minute is.
     */
    private void startKeys() {
        session.openRequests(s -> {
            source = s;
            noRequests = s == null;
        });
        dev.fulcrum.ui.StageFrames.of(ringPane, () -> dev.fulcrum.ui.Views.onScreen(ringPane),
                dev.fulcrum.ui.FramePacer.ofThisMachine(), this::frame);
    }

    private void frame(double seconds) {
        dev.fulcrum.admin.RequestSource s = source;
        if (s != null && session.timeMachine().live()) {
            vm.offer(s.sample(200).requests());
        }
        canvas.setDots(vm.keys().dots());
        canvas.redraw();
        if (seconds - lastFigures >= 0.5) {
            lastFigures = seconds;
            ringSeen.setText(noRequests ? "this engine shows no requests: no keys to draw"
                    : String.format("%,d keys seen in the last minute", vm.keys().seen()));
        }
    }

    private final javafx.collections.ListChangeListener<String> stylesheets = c -> {
        javafx.scene.Scene sc = ringPane.getScene();
        if (sc != null) {
            stylesheetsChanged(sc);
        }
    };
    private final javafx.collections.WeakListChangeListener<String> weakStylesheets =
            new javafx.collections.WeakListChangeListener<>(stylesheets);

    private void stylesheetsChanged(javafx.scene.Scene sc) {
        canvas.setTextColour(dark(sc) ? Color.gray(0.9) : Color.gray(0.2));
    }

    private static boolean dark(javafx.scene.Scene sc) {
        return sc.getStylesheets().stream().anyMatch(s -> s.endsWith("dark.css"));
    }

    private void modeChanged(RingViewModel.Mode m) {
        boolean add = m == RingViewModel.Mode.ADD;
        whatIfBackend.setEditable(add);
        whatIfBackend.setPromptText(add ? "new id" : "backend");
        whatIfUrl.setVisible(add);
        whatIfUrl.setManaged(add);
        whatIfWeight.setDisable(m == RingViewModel.Mode.REMOVE);
        vm.clearPreview();
    }

    private void backendsChanged(EngineState s) {
        if (s == null || whatIfBackend.isEditable()) {
            return;
        }
        List<String> ids = s.backends().stream().filter(b -> b.pool().equals(session.pool()))
                .map(EngineState.BackendInfo::id).toList();
        if (!ids.equals(whatIfBackend.getItems())) {
            String sel = whatIfBackend.getValue();
            whatIfBackend.getItems().setAll(ids);
            whatIfBackend.setValue(ids.contains(sel) ? sel : null);
        }
    }

    private void showLegend(RingGeometry g) {
        legend.getChildren().clear();
        if (g == null) {
            ringExplain.setText("");
            return;
        }
        EngineClient.Preview preview = vm.previewProperty().get();
        legendTitle.setText(preview == null ? "Backends (share of keys)" : "Share of keys: now → after");
        ringExplain.setText(explain(g, preview != null, vm.previewChangesProperty().get() != null));
        for (RingGeometry.Part p : g.parts()) {
            Rectangle swatch = new Rectangle(12, 12, p.colour());
            // a Maglev table comes as runs of slots, so its count is the share of the table, not the runs drawn
            String after = preview == null ? "" : String.format(" → %.1f%%", preview.share().getOrDefault(p.backend(), 0.0) * 100);
            Label l = new Label(g.isTable() && g.tableSize() > 0
                    ? String.format("%s  %.1f%%%s  (%d slots)", p.backend(), p.share() * 100, after, Math.round(p.share() * g.tableSize()))
                    : String.format("%s  %.1f%%%s  (%d points)", p.backend(), p.share() * 100, after, p.points().length));
            l.setId("legend-" + p.backend());
            l.setUserData(Palette.web(p.colour()));
            legend.getChildren().add(new HBox(6, swatch, l));
        }
    }

    /** What the picture's parts mean, for the side panel. */
    static String explain(RingGeometry g, boolean preview, boolean changesDrawn) {
        StringBuilder b = new StringBuilder(g.isTable()
                ? "Band: the owner of each slot of the table. Dots: the keys seen in the last minute, each in its slot "
                        + "(outlined while falling in or changing owner)."
                : "Ring: the owner of each stretch of the key space (a key belongs to the first point clockwise from "
                        + "its hash). Dots: the keys seen in the last minute, inside the ring at their hash (outlined "
                        + "while landing, or moving to a new owner).");
        if (preview) {
            b.append(changesDrawn ? " Outer arcs: only the keys the what-if gives another owner, in the new owner's colour."
                    : g.isTable() ? " Lower bar: the shares after the what-if." : " The what-if's shares: in the list above.");
        }
        return b.toString();
    }

    private void showLookup(EngineClient.Lookup l) {
        if (l == null) {
            lookupLabel.setText(ringKey.getText().isEmpty() ? "" : "…");
            canvas.setMarker(null, null);
            return;
        }
        lookupLabel.setText("hash " + l.hash() + "\n→ " + l.backend());
        RingGeometry g = vm.geometryProperty().get();
        canvas.setMarker(g == null ? RingGeometry.fraction(l.hash()) : g.keyPosition(l.hash()), l.key() + " → " + l.backend());
    }

    private RingViewModel.WhatIf whatIf() {
        RingViewModel.Mode m = whatIfMode.getValue();
        String b = whatIfBackend.isEditable() ? whatIfBackend.getEditor().getText() : whatIfBackend.getValue();
        int w;
        try {
            w = Integer.parseInt(whatIfWeight.getText().trim());
        } catch (NumberFormatException e) {
            w = -1;
        }
        return new RingViewModel.WhatIf(m, b, w);
    }

    @FXML
    private void preview() {
        RingViewModel.WhatIf w = whatIf();
        if (w.backend() == null || w.backend().isBlank()) {
            vm.clearPreview();
            previewLabel.textProperty().unbind();
            previewLabel.setText("Choose a backend first.");
            previewLabel.textProperty().bind(vm.previewTextProperty());
            return;
        }
        vm.preview(w);
    }

    @FXML
    private void apply() {
        vm.apply(whatIf(), whatIfUrl.getText());
    }

    Map<String, Color> colours() {
        return vm.colours();
    }
}
