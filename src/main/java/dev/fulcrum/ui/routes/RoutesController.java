package dev.fulcrum.ui.routes;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.RouteInfo;
import dev.fulcrum.engine.routing.Split;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.UndoHistory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.fxml.FXML;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Slider;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The Routes tab: one panel per route that splits or mirrors ({@link SplitPanelModel} says what it reads), with the
 * canary's slider (0-100% of the route's requests to its last arm, sent as {@code EngineClient.setSplit} through the
 * session's worker, throttled while dragging by {@link SplitCommands}, recorded for undo), Promote and Roll back. Its
 * node ids carry the route's index: {@code #split-panel-0}, {@code #split-slider-0}, {@code #split-guard-0},
 * {@code #split-promote-0}, {@code #split-rollback-0}, {@code #split-judgement-0}, {@code #split-mirror-0}. Hidden,
 * it lays nothing out: a sample while hidden is shown when the tab is selected again.
 */
public final class RoutesController {
    /** After a local change, a sample older than it may still come: the slider holds its own value meanwhile. */
    static final long LOCAL_HOLD_MS = 1000;

    private final UiSession session;
    private final SplitCommands commands;
    private final Map<Integer, Panel> panels = new LinkedHashMap<>();
    private final BooleanProperty showing = new SimpleBooleanProperty(this, "showing", false);

    @FXML private VBox routesBox;

    public RoutesController(UiSession session) {
        this.session = session;
        this.commands = new SplitCommands(
                (route, arms) -> session.run(Texts.t("routes.task.split", Integer.toString(route)),
                        () -> session.client().setSplit(route, arms)),
                (route, restore, to) -> session.run(Texts.t("routes.task.split", Integer.toString(route)), () -> { },
                        () -> session.undo().record(new UndoHistory.Change(Texts.t("routes.undo.split",
                                Integer.toString(route), words(restore), words(to)),
                                () -> session.client().setSplit(route, restore))), null));
    }

    @FXML
    private void initialize() {
        routesBox.setId("routesBox");
        session.stateProperty().addListener((o, a, s) -> {
            if (showing.get()) {
                show(s);
            }
        });
        showing.addListener((o, a, on) -> {
            if (on) {
                show(session.state());
            }
        });
    }

    /** Whether the tab is shown: bound by the window. */
    public BooleanProperty showingProperty() {
        return showing;
    }

    /** The routes this tab shows: those with a split or a mirror. */
    public static List<RouteInfo> shown(EngineState s) {
        if (s == null || s.routes() == null) {
            return List.of();
        }
        return s.routes().stream().filter(r -> (r.split() != null && !r.split().isEmpty()) || r.mirror() != null)
                .toList();
    }

    void show(EngineState s) {
        List<RouteInfo> routes = shown(s);
        List<Integer> ids = routes.stream().map(RouteInfo::index).toList();
        if (!ids.equals(new ArrayList<>(panels.keySet()))) {
            panels.clear();
            routesBox.getChildren().clear();
            for (RouteInfo r : routes) {
                Panel p = new Panel(r.index());
                panels.put(r.index(), p);
                routesBox.getChildren().add(p.box);
            }
            if (routes.isEmpty()) {
                Label none = new Label(Texts.t("routes.none"));
                none.setWrapText(true);
                none.getStyleClass().add("muted");
                routesBox.getChildren().add(none);
            }
        }
        for (RouteInfo r : routes) {
            panels.get(r.index()).show(new SplitPanelModel(r));
        }
    }

    private long nowMillis() {
        return session.ticker().nanos() / 1_000_000;
    }

    static String words(List<Split.Arm> arms) {
        return arms.stream().map(a -> a.pool() + " " + a.weight()).collect(Collectors.joining(" / "));
    }

    /** One route's panel. */
    private final class Panel {
        final int route;
        final VBox box = new VBox();
        final Label title = new Label();
        final Label guard = new Label();
        final Label guardDetail = new Label();
        final GridPane arms = new GridPane();
        final Label difference = new Label();
        final Label judgement = new Label();
        final Slider slider = new Slider(0, 100, 0);
        final Label sliderValue = new Label();
        final Label sliderName = new Label();
        final Button promote = new Button(Texts.t("routes.promote"));
        final Button rollback = new Button(Texts.t("routes.rollback"));
        final Label mirror = new Label();
        final HBox splitRow;
        SplitPanelModel model;
        List<Split.Arm> dragFrom;
        boolean updating;
        long localUntil;

        Panel(int route) {
            this.route = route;
            box.setId("split-panel-" + route);
            box.getStyleClass().add("split-panel");
            title.setId("split-title-" + route);
            title.getStyleClass().add("split-title");
            title.setWrapText(true);
            guard.setId("split-guard-" + route);
            guard.getStyleClass().add("split-guard");
            guardDetail.setId("split-guard-detail-" + route);
            guardDetail.getStyleClass().add("muted");
            guardDetail.setWrapText(true);
            arms.setId("split-arms-" + route);
            arms.getStyleClass().add("split-arms");
            difference.setId("split-difference-" + route);
            difference.getStyleClass().add("split-difference");
            difference.setWrapText(true);
            judgement.setId("split-judgement-" + route);
            judgement.setWrapText(true);
            slider.setId("split-slider-" + route);
            slider.setMajorTickUnit(10);
            slider.setShowTickMarks(true);
            slider.setBlockIncrement(1);
            slider.setMinWidth(160);
            HBox.setHgrow(slider, Priority.ALWAYS);
            sliderValue.setId("split-slider-value-" + route);
            sliderValue.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
            sliderName.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
            promote.setId("split-promote-" + route);
            rollback.setId("split-rollback-" + route);
            promote.setTooltip(new Tooltip(Texts.t("routes.promote.tooltip")));
            rollback.setTooltip(new Tooltip(Texts.t("routes.rollback.tooltip")));
            promote.setOnAction(e -> session.run(Texts.t("routes.task.promote", Integer.toString(route)),
                    () -> session.client().promote(route)));
            rollback.setOnAction(e -> session.run(Texts.t("routes.task.rollback", Integer.toString(route)),
                    () -> session.client().rollback(route)));
            mirror.setId("split-mirror-" + route);
            mirror.setWrapText(true);
            splitRow = new HBox(8, sliderName, slider, sliderValue, promote, rollback);
            splitRow.setAlignment(Pos.CENTER_LEFT);
            FlowPane head = new FlowPane(10, 4, title, guard);
            head.setAlignment(Pos.CENTER_LEFT);
            box.getChildren().addAll(head, guardDetail, arms, difference, judgement, splitRow, mirror);
            slider.valueChangingProperty().addListener((o, was, changing) -> {
                if (model == null || !model.hasSplit()) {
                    return;
                }
                if (changing) {
                    dragFrom = SplitPanelModel.now(model.route().split());
                } else {
                    List<Split.Arm> from = dragFrom != null ? dragFrom : SplitPanelModel.now(model.route().split());
                    dragFrom = null;
                    localUntil = nowMillis() + LOCAL_HOLD_MS;
                    commands.set(route, from, SplitPanelModel.withCanary(model.route().split(), value()));
                }
            });
            slider.valueProperty().addListener((o, a, v) -> {
                if (updating || model == null || !model.hasSplit()) {
                    return;
                }
                localUntil = nowMillis() + LOCAL_HOLD_MS;
                sliderValue.setText(value() + "%");
                List<Split.Arm> to = SplitPanelModel.withCanary(model.route().split(), value());
                if (slider.isValueChanging()) {
                    commands.dragged(route, dragFrom != null ? dragFrom : SplitPanelModel.now(model.route().split()),
                            to, nowMillis());
                } else if (dragFrom == null) {
                    commands.set(route, SplitPanelModel.now(model.route().split()), to); // a click or a key
                }
            });
        }

        int value() {
            return (int) Math.round(slider.getValue());
        }

        void show(SplitPanelModel m) {
            model = m;
            title.setText(m.title());
            guard.setText(Texts.t("routes.guard", m.guardState()));
            guard.getStyleClass().removeIf(c -> c.startsWith("guard-"));
            guard.getStyleClass().add(m.guardStyle());
            guardDetail.setText(m.guardDetail());
            boolean split = m.hasSplit();
            for (javafx.scene.Node n : new javafx.scene.Node[] {arms, difference, judgement, splitRow, guard,
                    guardDetail}) {
                n.setVisible(split);
                n.setManaged(split);
            }
            if (split) {
                showArms(m);
                difference.setText(m.difference());
                judgement.setText(m.judgement());
                judgement.getStyleClass().remove("split-too-few");
                if (m.tooFew()) {
                    judgement.getStyleClass().add("split-too-few");
                }
                sliderName.setText(Texts.t("routes.slider", m.canary().pool()));
                boolean local = slider.isValueChanging() || nowMillis() < localUntil;
                if (!local) {
                    updating = true;
                    try {
                        slider.setValue(m.canaryPercent());
                    } finally {
                        updating = false;
                    }
                    sliderValue.setText(m.canaryPercent() + "%");
                }
            }
            String mt = m.mirrorText();
            mirror.setText(mt == null ? "" : mt);
            mirror.setVisible(mt != null);
            mirror.setManaged(mt != null);
        }

        void showArms(SplitPanelModel m) {
            List<SplitPanelModel.Column> cols = m.columns();
            String[] rows = {"", Texts.t("routes.arms.share"), Texts.t("routes.arms.rate"),
                Texts.t("routes.arms.errors"), "p50", "p99", Texts.t("routes.arms.last_minute")};
            if (arms.getChildren().size() != rows.length * (cols.size() + 1)) {
                arms.getChildren().clear();
                for (int r = 0; r < rows.length; r++) {
                    Label head = new Label(rows[r]);
                    head.getStyleClass().add("grid-head");
                    arms.add(head, 0, r);
                    for (int c = 0; c < cols.size(); c++) {
                        Label cell = new Label();
                        cell.setId("split-arm-" + route + "-" + c + "-" + r);
                        if (r == 0) {
                            cell.getStyleClass().add("grid-head");
                        }
                        arms.add(cell, c + 1, r);
                    }
                }
            }
            for (int c = 0; c < cols.size(); c++) {
                SplitPanelModel.Column col = cols.get(c);
                String[] values = {col.pool().equals(col.role()) ? col.pool() : col.pool() + " (" + col.role() + ")",
                        col.share(), col.rate(), col.errorRate(),
                        col.p50(), col.p99(), col.requests()};
                for (int r = 0; r < values.length; r++) {
                    ((Label) arms.lookup("#split-arm-" + route + "-" + c + "-" + r)).setText(values[r]);
                }
            }
        }
    }

    static String pct(double v) {
        return String.format(Locale.ROOT, "%.0f%%", v * 100);
    }
}
