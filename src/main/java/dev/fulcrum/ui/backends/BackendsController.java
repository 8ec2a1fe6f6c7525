package dev.fulcrum.ui.backends;

import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.ColumnWidths;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.UndoHistory;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;

/** Thin: wires {@code fxml/backends.fxml} to {@link BackendsViewModel}. */
public final class BackendsController {
    private final UiSession session;
    private final BackendsViewModel vm;

    @FXML private TableView<BackendRow> backendsTable;
    @FXML private TableColumn<BackendRow, String> idColumn;
    @FXML private TableColumn<BackendRow, String> urlColumn;
    @FXML private TableColumn<BackendRow, String> labelsColumn;
    @FXML private TableColumn<BackendRow, String> stateColumn;
    @FXML private TableColumn<BackendRow, String> healthColumn;
    @FXML private TableColumn<BackendRow, String> breakerColumn;
    @FXML private TableColumn<BackendRow, String> inFlightColumn;
    @FXML private TableColumn<BackendRow, String> rpsColumn;
    @FXML private TableColumn<BackendRow, String> latencyColumn;
    @FXML private TableColumn<BackendRow, BackendRow> weightColumn;
    @FXML private TableColumn<BackendRow, BackendRow> actionsColumn;
    @FXML private Button undoButton;
    @FXML private Button addButton;
    @FXML private Label undoLabel;

    public BackendsController(UiSession session) {
        this.session = session;
        this.vm = new BackendsViewModel(session);
    }

    public BackendsViewModel viewModel() {
        return vm;
    }

    /**
     * "p50 / p99 ms": a dash while there is nothing measured (a latency is never exactly 0) or nothing to measure
     * (HAProxy keeps no percentiles: NaN), a tenth of a millisecond below 10 ms, where a local backend answers and
     * whole milliseconds would read "0 / 1 ms".
     */
    static String latencyText(double p50, double p99) {
        if (p50 == 0 && p99 == 0 || Double.isNaN(p50) || Double.isNaN(p99)) {
            return "\u2013";
        }
        return ms(p50) + " / " + ms(p99) + " ms";
    }

    private static String ms(double v) {
        return v < 10 ? String.format(java.util.Locale.ROOT, "%.1f", v) : String.format(java.util.Locale.ROOT, "%.0f", v);
    }

    @FXML
    private void initialize() {
        backendsTable.setItems(vm.rows());
        text(idColumn, BackendInfo::id);
        // backends speak plain http (docs/REFERENCE.md §2.1): the address is what tells them apart, whole at any width
        text(urlColumn, b -> b.url().startsWith("http://") ? b.url().substring(7) : b.url());
        text(labelsColumn, BackendInfo::labelsText);
        labelsColumn.setCellFactory(c -> new LabelsCell());
        labelsColumn.visibleProperty().bind(vm.anyLabelsProperty());
        text(stateColumn, BackendInfo::shownState);
        text(healthColumn, BackendInfo::health);
        text(breakerColumn, b -> b.breaker() == null ? "" : b.breaker().state());
        text(inFlightColumn, b -> Integer.toString(b.activeRequests()));
        text(rpsColumn, b -> Double.isNaN(b.rps()) ? "\u2013" : String.format("%.1f", b.rps()));
        text(latencyColumn, b -> latencyText(b.latencyP50Ms(), b.latencyP99Ms()));
        idColumn.setCellFactory(c -> new dev.fulcrum.ui.IdCell<>());
        stateColumn.setCellFactory(c -> new StyledCell("state-", BackendsController::stateWord));
        healthColumn.setCellFactory(c -> new WordCell(v -> Texts.word("health", v)));
        breakerColumn.setCellFactory(c -> new StyledCell("breaker-", v -> Texts.word("breaker", v)));
        weightColumn.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue()));
        weightColumn.setCellFactory(c -> new WeightCell(vm));
        actionsColumn.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue()));
        actionsColumn.setCellFactory(c -> new ActionsCell(vm));
        // rows of one height (the buttons' and slider's): the table then lays out a changed row without measuring
        // every row's preferred height, which it otherwise does for each of the four samples a second
        widths = ColumnWidths.follow(backendsTable, undoLabel);
        // beside a lesson's narration the weights and actions stay whole: the address and health give way first
        widths.giveWay(urlColumn, healthColumn, breakerColumn);
        backendsTable.setFixedCellSize(ROW_PX);
        undoLabel.fontProperty().addListener((o, a, f) -> backendsTable.setFixedCellSize(ROW_PX * widths.growth()));
        backendsTable.setRowFactory(t -> {
            TableRow<BackendRow> r = new TableRow<>();
            r.itemProperty().addListener((o, a, b) -> r.setId(b == null ? null : "row-" + b.id()));
            return r;
        });
        backendsTable.setOnKeyPressed(e -> {
            BackendRow sel = backendsTable.getSelectionModel().getSelectedItem();
            if (sel == null || e.isShortcutDown()) {
                return;
            }
            if (e.getCode() == KeyCode.DELETE || e.getCode() == KeyCode.BACK_SPACE) {
                vm.remove(sel);
                // the selection would pass to the next row when this one goes, and a second Del would remove that
                backendsTable.getSelectionModel().clearSelection();
                e.consume();
            } else if (e.getCode() == KeyCode.D) {
                vm.drain(sel);
                e.consume();
            } else if (e.getCode() == KeyCode.E) {
                vm.enable(sel);
                e.consume();
            }
        });
        // while the engine does not answer its rows, the figures of its last answer, are greyed and nothing can be
        // sent to it
        backendsTable.disableProperty().bind(session.staleProperty());
        addButton.disableProperty().bind(session.staleProperty());
        undoButton.disableProperty().bind(session.undo().lastProperty().isNull().or(session.staleProperty()));
        undoLabel.textProperty().bind(session.undo().lastProperty().map(UndoHistory.Change::description)
                .map(d -> Texts.t("backends.lastchange", d)).orElse(""));
    }

    private static void text(TableColumn<BackendRow, String> col, Function<BackendInfo, String> f) {
        col.setCellValueFactory(c -> {
            SimpleObjectProperty<String> p = new SimpleObjectProperty<>();
            p.bind(c.getValue().infoProperty().map(f));
            return p;
        });
    }

    /** The state as the window words it: {@code UP (unverified)} is the UP word and "(unverified)" in the language. */
    static String stateWord(String shownState) {
        String unverified = " (unverified)";
        return shownState.endsWith(unverified)
                ? Texts.t("backends.state.unverified", Texts.word("state",
                        shownState.substring(0, shownState.length() - unverified.length())))
                : Texts.word("state", shownState);
    }

    /** A status value (the engine's, kept as the cell's item) shown as its word in the window's language. */
    private static class WordCell extends TableCell<BackendRow, String> {
        private final Function<String, String> word;

        WordCell(Function<String, String> word) {
            this.word = word;
        }

        @Override
        protected void updateItem(String item, boolean empty) {
            super.updateItem(item, empty);
            setText(empty || item == null ? null : word.apply(item));
        }
    }

    /**
     * A status word with a style class per value (state-UP, breaker-OPEN...) so CSS colours it; a value of several
     * words gets them joined by dashes ("UP (unverified)": state-UP-unverified), so it is not coloured as UP. The
     * class comes from the engine's value, whatever the language shows.
     */
    private static final class StyledCell extends WordCell {
        private final String prefix;

        StyledCell(String prefix, Function<String, String> word) {
            super(word);
            this.prefix = prefix;
        }

        @Override
        protected void updateItem(String item, boolean empty) {
            super.updateItem(item, empty);
            String wanted = empty || item == null ? null : prefix + styleOf(item);
            boolean unverified = !empty && item != null && item.endsWith("(unverified)");
            if (unverified != (getTooltip() != null)) {
                setTooltip(unverified ? new javafx.scene.control.Tooltip(Texts.t("backends.unverified.means")) : null);
            }
            // touch the style classes only when the value's class changes: every change re-applies CSS
            if (wanted == null || !getStyleClass().contains(wanted)) {
                getStyleClass().removeIf(c -> c.startsWith(prefix));
                if (wanted != null) {
                    getStyleClass().add(wanted);
                }
            }
        }
    }

    /** A backend's labels, {@code cost=0.2 zone=b}, whole in a tooltip when the column cuts them. */
    private static final class LabelsCell extends TableCell<BackendRow, String> {
        @Override
        protected void updateItem(String item, boolean empty) {
            super.updateItem(item, empty);
            String text = empty || item == null ? "" : item;
            setText(text);
            if (text.isEmpty()) {
                setTooltip(null);
            } else if (getTooltip() == null) {
                setTooltip(new javafx.scene.control.Tooltip(text));
            } else {
                getTooltip().setText(text);
            }
        }
    }

    /** A value as a style class's suffix: "UP (unverified)" is "UP-unverified". */
    static String styleOf(String value) {
        return value.trim().replaceAll("[^A-Za-z0-9_]+", "-").replaceAll("^-|-$", "");
    }

    @FXML
    public void showAddDialog() {
        new AddBackendDialog(backendsTable.getScene().getWindow(), vm, vm.allIds(), session.pool()).show();
    }

    @FXML
    public void undo() {
        vm.undo();
    }

    /** Row height at the normal type: the buttons' and the slider's. */
    private static final double ROW_PX = 30;
    /** The id column's width in present mode at the normal type: room for an id of about twenty characters. */
    private static final double PRESENT_ID_PX = 140;
    private ColumnWidths widths;

    /**
     * Present mode's table: the columns the room reads (id, state, health, breaker, in flight, req/s, latency,
     * weight) with room for a long id; the address and the row buttons, an operator's, give them the room (D, E and
     * Del still drain, enable and remove the selected row, as the bar above says). The widths and the rows grow with
     * the type ({@link ColumnWidths}).
     */
    public void present(boolean on) {
        widths.hide(urlColumn, on);
        widths.hide(actionsColumn, on);
        widths.override(idColumn, on ? PRESENT_ID_PX : null);
    }

    /** The selected row's backend (for the window's shortcuts), or null. */
    public BackendRow selected() {
        return backendsTable.getSelectionModel().getSelectedItem();
    }
}
