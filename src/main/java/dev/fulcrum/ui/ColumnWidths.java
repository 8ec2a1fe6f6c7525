package dev.fulcrum.ui;

import java.util.IdentityHashMap;
import java.util.Map;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;

/**
 * A table's column widths in step with the window's type: the widths its FXML gives are for the normal 15 px body,
 * and grow in proportion when the body grows (present mode's 17 to 20 px and more, Ctrl+plus), so that the figures
 * that were whole at the normal size stay whole, where fixed widths would cut them ("04:30:36...."). The body size is
 * read from {@code sample}, a label of the view at the body's size; one column may be given a width of its own
 * ({@link #override}). FX thread only.
 *
 * <p>Example: a column of 100 px (minimum 90) is 133 px (minimum 120) at present mode's 20 px.
 */
public final class ColumnWidths {
    private final TableView<?> table;
    private final Labeled sample;
    private final Map<TableColumn<?, ?>, double[]> normal = new IdentityHashMap<>();
    private final Map<TableColumn<?, ?>, Double> overrides = new IdentityHashMap<>();

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

    private void apply() {
        double grow = growth();
        normal.forEach((c, w) -> {
            c.setMinWidth(w[1] * grow);
            c.setPrefWidth(overrides.getOrDefault(c, w[0]) * grow);
        });
        table.requestLayout();
    }
}
