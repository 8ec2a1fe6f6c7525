package dev.fulcrum.ui.ring;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.i18n.Texts;
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
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;
import javafx.util.Duration;

/**
 * Thin: wires {@code fxml/ring.fxml} to {@link RingViewModel} and {@link RingCanvas}: the ring in the centre; beside it
 * the count of points per backend drawn (the teaching view) and each backend's share against its fair share; on the
 * right the what-if and a key's lookup.
 */
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
    @FXML private Button previewButton;
    @FXML private Button applyButton;
    @FXML private Label ringSeen;
    @FXML private Label ringMoved;
    @FXML private Label legendTitle;
    @FXML private Label ringExplain;
    @FXML private VBox virtualNodesBox;
    @FXML private FlowPane virtualNodesChoice;
    @FXML private Label virtualNodesInfo;
    @FXML private Button applyVirtualNodes;
    @FXML private Label virtualNodesResult;
    @FXML private Label spreadRatio;
    @FXML private Button replayButton;
    private final ToggleGroup counts = new ToggleGroup();
    private boolean showingCounts; // the buttons are being set from the view model, not clicked
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
            showLookup(vm.lookupProperty().get()); // its place and owner on the ring drawn now
        });
        vm.previewGeometryProperty().addListener((o, a, g) -> {
            if (g != null) {
                canvas.remember(g.colours());
            }
        });
        vm.spreadProperty().addListener((o, a, sp) -> showLegend(vm.geometryProperty().get()));
        vm.spreadAfterProperty().addListener((o, a, sp) -> showLegend(vm.geometryProperty().get()));
        vm.poolVirtualNodesProperty().addListener((o, a, n) -> showCounts());
        vm.drawnVirtualNodesProperty().addListener((o, a, n) -> showCounts());
        counts.selectedToggleProperty().addListener((o, a, t) -> {
            if (showingCounts) {
                return;
            }
            if (t == null) {
                counts.selectToggle(a); // one count is always drawn: a second click on it keeps it
            } else {
                vm.setDrawnVirtualNodes((Integer) t.getUserData());
            }
        });
        virtualNodesResult.textProperty().bind(vm.virtualNodesResultProperty());
        virtualNodesResult.managedProperty().bind(virtualNodesResult.textProperty().isNotEmpty());
        virtualNodesInfo.managedProperty().bind(virtualNodesInfo.textProperty().isNotEmpty());
        showCounts();
        PauseTransition debounce = new PauseTransition(Duration.millis(150));
        debounce.setOnFinished(e -> vm.lookup(ringKey.getText()));
        ringKey.textProperty().addListener((o, a, k) -> debounce.playFromStart());
        vm.lookupProperty().addListener((o, a, l) -> showLookup(l));
        whatIfMode.getItems().setAll(RingViewModel.Mode.values());
        whatIfMode.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(RingViewModel.Mode m) {
                return m == null ? "" : Texts.t(switch (m) {
                    case REMOVE -> "ring.whatif.mode.remove";
                    case ADD -> "ring.whatif.mode.add";
                    case REWEIGHT -> "ring.whatif.mode.reweight";
                });
            }

            @Override
            public RingViewModel.Mode fromString(String text) {
                return null; // a choice box is never typed in
            }
        });
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
        ringMoved.managedProperty().bind(ringMoved.textProperty().isNotEmpty());
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
        KeyFlow.Moved focus = vm.keys().focus();
        canvas.setCaption(focus == null ? null : focus.headline(), focus == null ? null : caption(focus,
                vm.previewChangesProperty().get() != null, vm.geometryProperty().get()));
        replayButton.setDisable(focus == null || focus.moved() == 0);
        canvas.redraw();
        if (seconds - lastFigures >= 0.5) {
            lastFigures = seconds;
            ringSeen.setText(noRequests ? Texts.t("ring.seen.none")
                    : Texts.t("ring.seen", String.format(Texts.locale(), "%,d", vm.keys().seen())));
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
        whatIfBackend.setPromptText(Texts.t(add ? "ring.whatif.newid" : "ring.whatif.backend"));
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

    /** The count buttons (the teaching view's counts, and the pool's own), the one drawn selected, and what it means. */
    private void showCounts() {
        int pool = vm.poolVirtualNodesProperty().get();
        int drawn = vm.drawnVirtualNodesProperty().get();
        boolean ring = pool > 0 && vm.geometryProperty().get() != null && !vm.geometryProperty().get().isTable();
        virtualNodesBox.setVisible(pool > 0);
        virtualNodesBox.setManaged(pool > 0);
        java.util.TreeSet<Integer> offered = new java.util.TreeSet<>(TeachingRing.COUNTS);
        if (pool > 0) {
            offered.add(pool);
        }
        offered.add(Math.max(1, drawn));
        List<Integer> now = virtualNodesChoice.getChildren().stream().map(n -> (Integer) n.getUserData()).toList();
        showingCounts = true;
        if (!now.equals(List.copyOf(offered))) {
            counts.getToggles().clear();
            virtualNodesChoice.getChildren().clear();
            for (int n : offered) {
                ToggleButton b = new ToggleButton(Integer.toString(n));
                b.setUserData(n);
                b.setId("vn-" + n);
                b.setToggleGroup(counts);
                virtualNodesChoice.getChildren().add(b);
            }
        }
        for (javafx.scene.Node n : virtualNodesChoice.getChildren()) {
            ToggleButton b = (ToggleButton) n;
            b.getStyleClass().remove("ring-count-pool");
            if ((Integer) b.getUserData() == pool) {
                b.getStyleClass().add("ring-count-pool");
            }
            if ((Integer) b.getUserData() == drawn && !b.isSelected()) {
                b.setSelected(true);
            }
        }
        showingCounts = false;
        boolean teaching = pool > 0 && drawn != pool;
        // short lines: beside the ring on a projector they must leave room for every backend's share below
        virtualNodesInfo.setText(!ring ? "" : Texts.t(teaching ? "ring.points.keeps" : "ring.points.uses",
                String.valueOf(pool)));
        applyVirtualNodes.setText(Texts.t("ring.points.apply"));
        applyVirtualNodes.setVisible(teaching);
        applyVirtualNodes.setManaged(teaching);
        canvas.setCentreNote(teaching ? Texts.t("ring.points.drawn", String.valueOf(drawn), String.valueOf(pool)) : null);
        canvas.redraw();
    }

    @FXML
    private void applyVirtualNodes() {
        vm.applyVirtualNodes();
    }

    @FXML
    private void replay() {
        vm.keys().replay();
    }

    /** What a before/after's marks mean, under its count on the canvas. */
    static String caption(KeyFlow.Moved m, boolean changesDrawn, RingGeometry g) {
        boolean table = g != null && g.isTable();
        List<String> b = new java.util.ArrayList<>();
        if (m.would()) {
            b.add(m.seen() == 0 ? Texts.t("ring.caption.nokeys")
                    : Texts.t("ring.caption.changes", KeyFlow.percent(m.predicted())));
            b.add(Texts.t(table ? "ring.caption.would.table" : "ring.caption.would.ring"));
        } else {
            b.add(m.cause() == null ? Texts.t("ring.caption.predicted", KeyFlow.percent(m.predicted()))
                    : Texts.t("ring.caption.predicted.on", KeyFlow.percent(m.predicted()), m.cause()));
            b.add(Texts.t(table ? "ring.caption.moved.table" : "ring.caption.moved.ring"));
        }
        if (changesDrawn && !table) {
            b.add(Texts.t("ring.caption.arcs"));
        }
        return sentences(b);
    }

    private void showLegend(RingGeometry g) {
        legend.getChildren().clear();
        showCounts();
        if (g == null) {
            ringExplain.setText("");
            spreadRatio.setText("");
            return;
        }
        EngineClient.Preview preview = vm.previewProperty().get();
        String of = g.isTable() ? "table" : "ring";
        legendTitle.setText(Texts.t(preview == null ? "ring.share." + of : "ring.share." + of + ".after"));
        ringExplain.setText(explain(g, preview != null, vm.previewChangesProperty().get() != null));
        Spread spread = vm.spreadProperty().get();
        Spread after = vm.spreadAfterProperty().get();
        double scale = Math.max(spread == null ? 0 : spread.scale(), after == null ? 0 : after.scale());
        for (RingGeometry.Part p : g.parts()) {
            // a Maglev table comes as runs of slots, so its count is the share of the table, not the runs drawn
            String afterText = preview == null ? "" : " → " + KeyFlow.percent(preview.share().getOrDefault(p.backend(), 0.0)) + "%";
            // a ring's points per backend are the count above times its weight: the row keeps to its share
            Label l = new Label(g.isTable() && g.tableSize() > 0
                    ? p.backend() + "  " + KeyFlow.percent(p.share()) + "%" + afterText + "  "
                            + Texts.t("ring.legend.slots", String.valueOf(Math.round(p.share() * g.tableSize())))
                    : p.backend() + "  " + KeyFlow.percent(p.share()) + "%" + afterText);
            l.setWrapText(true);
            l.setId("legend-" + p.backend());
            l.setUserData(Palette.web(p.colour()));
            ShareBar bar = new ShareBar(p.colour());
            bar.setId("share-" + p.backend());
            Spread.Row row = spread == null ? null : spread.rows().stream()
                    .filter(r -> r.backend().equals(p.backend())).findFirst().orElse(null);
            double fair = row == null ? 0 : row.fair();
            bar.set(p.share(), fair, preview == null ? -1 : preview.share().getOrDefault(p.backend(), 0.0), scale);
            VBox line = new VBox(2, l, bar);
            line.getStyleClass().add("ring-legend-row");
            legend.getChildren().add(line);
        }
        spreadRatio.setText(spread == null ? "" : spread.ratioText() + (after == null ? "" : " → " + after.ratio()));
    }

    /** Sentences one after the other: a space between them, none in Chinese, whose full stop keeps its own room. */
    static String sentences(List<String> sentences) {
        return String.join("zh".equals(Texts.language()) ? "" : " ", sentences);
    }

    /** What the picture's parts mean, for the side panel. */
    static String explain(RingGeometry g, boolean preview, boolean changesDrawn) {
        List<String> b = new java.util.ArrayList<>();
        b.add(Texts.t(g.isTable() ? "ring.explain.table" : "ring.explain.ring"));
        b.add(Texts.t("ring.explain.bars"));
        if (preview) {
            b.add(Texts.t(changesDrawn ? "ring.explain.preview.arcs"
                    : g.isTable() ? "ring.explain.preview.table" : "ring.explain.preview.list"));
        }
        return sentences(b);
    }

    private void showLookup(EngineClient.Lookup l) {
        if (l == null) {
            lookupLabel.setText(ringKey.getText().isEmpty() ? "" : "…");
            canvas.setMarker(null, null);
            return;
        }
        RingGeometry g = vm.geometryProperty().get();
        double at = g == null ? RingGeometry.fraction(l.hash()) : g.keyPosition(l.hash());
        // the teaching view draws another ring than the pool's: the key's owner on it, beside the pool's answer
        String drawnOwner = g == null || !vm.teaching() || g.ownerIdAt(at) == null ? l.backend() : g.ownerIdAt(at);
        lookupLabel.setText(Texts.t("ring.lookup.hash", String.valueOf(l.hash())) + "\n→ " + l.backend()
                + (drawnOwner.equals(l.backend()) ? "" : "\n" + Texts.t("ring.lookup.drawn", drawnOwner)));
        canvas.setMarker(at, l.key() + " → " + drawnOwner);
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
            previewLabel.setText(Texts.t("ring.whatif.choose"));
            previewLabel.textProperty().bind(vm.previewTextProperty());
            return;
        }
        vm.preview(w);
    }

    @FXML
    private void apply() {
        vm.apply(whatIf(), whatIfUrl.getText());
        // Apply disables itself; left to traversal the focus would land in the key field, which takes Ctrl+Z as its own
        previewButton.requestFocus();
    }

    Map<String, Color> colours() {
        return vm.colours();
    }
}
