package dev.fulcrum.ui.backends;

import dev.fulcrum.admin.EngineState.BackendInfo;
import javafx.beans.value.ChangeListener;
import javafx.scene.control.Label;
import javafx.scene.control.Slider;
import javafx.scene.control.TableCell;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * The weight as a slider that reweights live: while dragging, the view-model sends at most 5 weights a second;
 * on release the final weight is sent (unless the drag already sent it) and recorded for undo. Beside it the effective weight, which differs
 * during slow start. The slider's range grows with the weight (0-20, 0-100, 0-1000: the next range once a weight
 * is at 80% of the current one) so small weights stay easy to set by hand and large ones are still reachable.
 */
final class WeightCell extends TableCell<BackendRow, BackendRow> {
    private final BackendsViewModel vm;
    private final Slider slider = new Slider(0, 20, 1);
    private final Label effective = new Label();
    private final HBox box = new HBox(6, slider, effective);
    private final ChangeListener<BackendInfo> onInfo = (o, a, b) -> show(b);
    private BackendRow row;
    private boolean updating;
    private int dragFrom = -1;
    private long localUntil;

    WeightCell(BackendsViewModel vm) {
        this.vm = vm;
        HBox.setHgrow(slider, Priority.ALWAYS);
        slider.setMinWidth(90);
        slider.setBlockIncrement(1);
        effective.getStyleClass().add("effective-weight");
        effective.setMinWidth(80);
        slider.valueChangingProperty().addListener((o, was, changing) -> {
            if (row == null) {
                return;
            }
            if (changing) {
                dragFrom = row.info().weight();
            } else {
                int from = dragFrom >= 0 ? dragFrom : row.info().weight();
                dragFrom = -1;
                localUntil = System.currentTimeMillis() + BackendsViewModel.LOCAL_WEIGHT_HOLD_MS;
                vm.weightSet(row.id(), from, value());
            }
        });
        slider.valueProperty().addListener((o, a, v) -> {
            if (updating || row == null) {
                return;
            }
            localUntil = System.currentTimeMillis() + BackendsViewModel.LOCAL_WEIGHT_HOLD_MS;
            showEffective(row.info(), value());
            if (slider.isValueChanging()) {
                vm.weightDragged(row.id(), dragFrom >= 0 ? dragFrom : row.info().weight(), value(),
                        System.currentTimeMillis());
            } else if (dragFrom < 0) {
                vm.weightSet(row.id(), row.info().weight(), value()); // a click on the track or a key
            }
        });
    }

    private int value() {
        return (int) Math.round(slider.getValue());
    }

    @Override
    protected void updateItem(BackendRow item, boolean empty) {
        super.updateItem(item, empty);
        if (row != null) {
            row.infoProperty().removeListener(onInfo);
        }
        row = empty ? null : item;
        if (row == null) {
            setGraphic(null);
            return;
        }
        slider.setId("weight-" + row.id());
        effective.setId("effective-" + row.id());
        row.infoProperty().addListener(onInfo);
        localUntil = 0;
        show(row.info());
        setGraphic(box);
    }

    private void show(BackendInfo b) {
        if (b == null) {
            return;
        }
        boolean local = slider.isValueChanging() || System.currentTimeMillis() < localUntil;
        if (!local) {
            updating = true;
            try {
                int w = b.weight();
                // grow the range once the weight is near the end of it, so dragging can always go further
                slider.setMax(w < 16 ? 20 : w < 80 ? 100 : 1000);
                slider.setValue(w);
            } finally {
                updating = false;
            }
        }
        showEffective(b, local ? value() : b.weight());
    }

    private void showEffective(BackendInfo b, int weight) {
        boolean ramping = Math.abs(b.effectiveWeight() - b.weight()) > 0.005;
        effective.setText(ramping ? weight + " (now " + fmt(b.effectiveWeight()) + ")" : Integer.toString(weight));
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format("%.2f", d);
    }
}
