package dev.fulcrum.ui;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;

/**
 * A table's column widths in step with the window's type: the widths its FXML gives are for the normal 15 px body,
 * and grow in proportion when the body grows (present mode's 17 to 20 px and more, Ctrl+plus), so that the figures
 * that were whole at the normal size stay whole, where fixed widths would cut them ("04:30:36...."). The body size is
 * read from {@code sample}, a label of the view at the body's size; one column may be given a width of its own
 * ({@link #override}), and some may give way to the others while the table is too narrow for all ({@link #giveWay}).
 * FX thread only.
 *
 * <p>Example: a column of 100 px (minimum 90) is 133 px (minimum 120) at present mode's 20 px.
 */
public final class ColumnWidths {
    private static final double SCROLL_BAR_PX = 16;
    private final TableView<?> table;
    private final Labeled sample;
    private final Map<TableColumn<?, ?>, double[]> normal = new IdentityHashMap<>();
    private final Map<TableColumn<?, ?>, Double> overrides = new IdentityHashMap<>();
    private List<TableColumn<?, ?>> givingWay = List.of();
    private final Set<TableColumn<?, ?>> hidden = Collections.newSetFromMap(new IdentityHashMap<>());

    private ColumnWidths(TableView<?> table, Labeled sample) {
        this.table = table;
        this.sample = sample;
        for (TableColumn<?, ?> c : table.getColumns()) {
            normal.put(c, new double[] {c.getPrefWidth(), c.getMinWidth()});
        }
        sample.fontProperty().addListener((o, a, f) -> apply());
        apply();
    }

    /** Keeps {@code table}'s column widths in step with the size of {@code sample}'s type. */
    public static ColumnWidths follow(TableView<?> table, Labeled sample) {
        return new ColumnWidths(table, sample);
    }

    /** How much the body's type has grown over the normal 15 px (1 at the normal size). */
    public double growth() {
        return sample.getFont().getSize() / TextScale.NORMAL_PX;
    }

    /** {@code column}'s preferred width at the normal size is {@code px} from now on, or its own again with null. */
    public void override(TableColumn<?, ?> column, Double px) {
        if (px == null) {
            overrides.remove(column);
        } else {
            overrides.put(column, px);
        }
        apply();
    }

    /**
     * Columns that give way, in this order, while the table is narrower than the preferred widths of the columns it
     * shows (a lesson's narration beside the view, present mode's larger type on a projector), and come back when
     * there is room again: the columns that stay keep about their preferred widths, at which their texts are whole,
     * where a constrained table would squeeze them all and cut the last ones at its edge. The columns given must not
     * have their visibility bound.
     *
     * <p>Example: a table of 900 px whose columns prefer 1,230 px, giving way address (150), health (80) and breaker
     * (100), shows the others in their 900 px.
     */
    public void giveWay(TableColumn<?, ?>... inOrder) {
        givingWay = List.of(inOrder);
        table.widthProperty().addListener((o, a, w) -> fit());
        fit();
    }

    /** Hides {@code column}, the view's own choice (present mode's), or shows it again as far as there is room. */
    public void hide(TableColumn<?, ?> column, boolean hide) {
        if (hide) {
            hidden.add(column);
        } else {
            hidden.remove(column);
        }
        if (!givingWay.contains(column)) {
            column.setVisible(!hide);
        }
        fit();
    }

    private void fit() {
        // room for a vertical scroll bar, which comes with more rows than the table's height shows
        double room = table.getWidth() - table.snappedLeftInset() - table.snappedRightInset() - SCROLL_BAR_PX;
        if (givingWay.isEmpty() || room <= 0) {
            return;
        }
        double need = 0;
        for (TableColumn<?, ?> c : table.getColumns()) {
            if (!hidden.contains(c) && (c.isVisible() || givingWay.contains(c))) {
                need += c.getPrefWidth();
            }
        }
        for (TableColumn<?, ?> c : givingWay) {
            boolean gives = hidden.contains(c) || need > room;
            if (gives && !hidden.contains(c)) {
                need -= c.getPrefWidth();
            }
            c.setVisible(!gives);
        }
    }

    private void apply() {
        double grow = growth();
        normal.forEach((c, w) -> {
            c.setMinWidth(w[1] * grow);
            c.setPrefWidth(overrides.getOrDefault(c, w[0]) * grow);
        });
        fit();
        table.requestLayout();
    }
}
