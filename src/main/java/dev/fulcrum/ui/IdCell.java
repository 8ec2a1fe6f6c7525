package dev.fulcrum.ui;

import javafx.scene.control.OverrunStyle;
import javafx.scene.control.TableCell;
import javafx.scene.control.Tooltip;

/**
 * A table cell for a backend id: cut in the middle when the column is narrow ("heal…ck-a", "heal…ck-b"), so two
 * ids that share a prefix never look alike, and the whole id in a tooltip.
 */
public final class IdCell<S> extends TableCell<S, String> {
    private final Tooltip tip = new Tooltip();

    public IdCell() {
        setTextOverrun(OverrunStyle.CENTER_ELLIPSIS);
    }

    @Override
    protected void updateItem(String item, boolean empty) {
        super.updateItem(item, empty);
        setText(empty ? null : item);
        if (empty || item == null || item.isEmpty()) {
            setTooltip(null);
        } else {
            tip.setText(item);
            setTooltip(tip);
        }
    }
}
