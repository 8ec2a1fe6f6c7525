package dev.fulcrum.ui.backends;

import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.ui.WeightSlider;
import javafx.beans.value.ChangeListener;
import javafx.scene.control.TableCell;

/** The Backends table's weight column: one {@link WeightSlider} per row, fed each sample of its backend. */
final class WeightCell extends TableCell<BackendRow, BackendRow> {
    private final WeightSlider slider;
    private final java.util.function.Predicate<BackendInfo> readsWeights;
    private final ChangeListener<BackendInfo> onInfo = (o, a, b) -> show(b);
    private BackendRow row;

    WeightCell(BackendsViewModel vm) {
        this.slider = new WeightSlider(vm.commands(), vm.ticker(), "");
        this.readsWeights = vm::readsWeights;
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
        row.infoProperty().addListener(onInfo);
        show(row.info());
        setGraphic(slider.node());
    }

    private void show(BackendInfo b) {
        slider.show(b, readsWeights.test(b));
    }
}
