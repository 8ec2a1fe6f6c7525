package dev.fulcrum.ui.backends;

import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.i18n.Texts;
import javafx.beans.value.ChangeListener;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableCell;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;

/**
 * Drain / enable / remove for one row, and while draining a bar counting its in-flight requests down to 0 (once
 * drained, the word "drained" in its place).
 */
final class ActionsCell extends TableCell<BackendRow, BackendRow> {
    private final Button drain = new Button(Texts.t("backends.drain"));
    private final Button enable = new Button(Texts.t("backends.enable"));
    private final Button remove = new Button(Texts.t("backends.remove"));
    private final ProgressBar progress = new ProgressBar(0);
    private final Label left = new Label();
    private final HBox box = new HBox(4, drain, enable, remove, progress, left);
    private final ChangeListener<Object> onChange = (o, a, b) -> show();
    private BackendRow row;

    ActionsCell(BackendsViewModel vm) {
        box.getStyleClass().add("row-actions");
        drain.setTooltip(new Tooltip(Texts.t("backends.drain.tooltip")));
        enable.setTooltip(new Tooltip(Texts.t("backends.enable.tooltip")));
        remove.setTooltip(new Tooltip(Texts.t("backends.remove.tooltip")));
        progress.setPrefWidth(70);
        // the buttons keep their whole labels at any column width (never "Dr…"); the progress gives way
        for (Button b : new Button[] {drain, enable, remove}) {
            b.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        }
        progress.setMinWidth(30);
        left.setTooltip(new Tooltip(Texts.t("backends.drainleft.tooltip")));
        drain.setOnAction(e -> vm.drain(row));
        enable.setOnAction(e -> vm.enable(row));
        remove.setOnAction(e -> {
            vm.remove(row);
            // this cell shows the next row once this one goes: focus left on its button would make a second
            // Space or click remove that backend too, so it goes to the table (Ctrl+Z undoes the removal)
            if (getTableView() != null) {
                getTableView().getSelectionModel().clearSelection();
                getTableView().requestFocus();
            }
        });
    }

    @Override
    protected void updateItem(BackendRow item, boolean empty) {
        super.updateItem(item, empty);
        if (row != null) {
            row.infoProperty().removeListener(onChange);
            row.drainProgressProperty().removeListener(onChange);
        }
        row = empty ? null : item;
        if (row == null) {
            setGraphic(null);
            return;
        }
        drain.setId("drain-" + row.id());
        enable.setId("enable-" + row.id());
        remove.setId("remove-" + row.id());
        progress.setId("drainProgress-" + row.id());
        left.setId("drainLeft-" + row.id());
        row.infoProperty().addListener(onChange);
        row.drainProgressProperty().addListener(onChange);
        show();
        setGraphic(box);
    }

    private void show() {
        BackendInfo b = row.info();
        boolean draining = "DRAINING".equals(b.state()) || "DRAINED".equals(b.state());
        // one of Drain and Enable at a time, the one that applies (both side by side do not fit at 1024 px);
        // an ejected backend offers Enable (back now), and D or Remove still drain it
        boolean enableable = draining || "EJECTED".equals(b.state());
        shown(drain, !enableable);
        shown(enable, enableable);
        // while draining: a bar for how far, and how many are left; once DRAINED the word in its place (a full bar
        // alone says nothing, and at 1024 px the cell has room for the word, not for both)
        double p = row.drainProgressProperty().get();
        boolean drained = "DRAINED".equals(b.state());
        shown(progress, p >= 0 && !drained);
        shown(left, p >= 0 || drained);
        progress.setProgress(drained ? 1 : Math.max(0, p));
        left.setText("DRAINED".equals(b.state()) ? Texts.t("backends.drained")
                : Texts.t("backends.drainleft", String.valueOf(b.activeRequests())));
    }

    private static void shown(javafx.scene.Node n, boolean shown) {
        n.setVisible(shown);
        n.setManaged(shown);
    }
}
