package dev.fulcrum.ui.requests;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.RequestSource;
import dev.fulcrum.engine.DecisionTrace;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.requests.RequestSample;
import dev.fulcrum.ui.UiSession;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import javafx.application.Platform;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.util.Duration;

/**
 * Thin: wires {@code fxml/requests.fxml} to a {@link RequestsViewModel}. Polls the session's {@link RequestSource}
 * on the FX thread (its {@code poll()} never blocks) every {@link #POLL_MS} ms while the tab shows (what came while
 * it was hidden is what the stream still holds, the rest counted as dropped), lists the open WebSockets once a
 * second while the tab shows, and fills the details of the selected request; every read that may block (the recent
 * requests, the open WebSockets, the live pool's trace) goes through {@link UiSession#read}.
 */
public final class RequestsController {
    /** How often the list takes what arrived: ten times a second reads as live and lays the table out rarely. */
    static final long POLL_MS = 100;
    static final long OPEN_REFRESH_MS = 1000;

    private final UiSession session;
    private final RequestsContext ctx;
    private final RequestsViewModel model = new RequestsViewModel();
    private final BooleanProperty showing = new SimpleBooleanProperty(this, "showing", true);
    /** The poll and the open-tunnel refresh, while they run; null otherwise. */
    private dev.fulcrum.ui.FxTicks.Ticking poller;
    private dev.fulcrum.ui.FxTicks.Ticking openRefresh;
    /** The poll's ticks, and those that read the stream (the tab showing); FX thread. */
    private int ticks;
    private int reads;
    private RequestSource source;
    private Runnable onUnavailable = () -> { };
    private boolean readingOpen;
    private boolean closed;
    private boolean running;
    private RequestsViewModel.Row detailed;

    @FXML private TextField requestFilter;
    @FXML private ComboBox<RequestsViewModel.StatusClass> requestStatus;
    @FXML private ComboBox<String> requestBackend;
    @FXML private ComboBox<String> requestPool;
    @FXML private ComboBox<String> requestRoute;
    @FXML private ComboBox<String> requestArm;
    @FXML private ComboBox<String> requestClass;
    @FXML private ComboBox<RequestsViewModel.Mirrored> requestMirrored;
    @FXML private ToggleButton pauseRequests;
    @FXML private MenuButton exportHar;
    @FXML private MenuItem exportShown;
    @FXML private MenuItem exportSelected;
    @FXML private Button httpsButton;
    @FXML private Label requestCount;
    @FXML private Label exportResult;
    @FXML private TableView<RequestsViewModel.Row> requestsTable;
    @FXML private TableColumn<RequestsViewModel.Row, String> methodColumn;
    @FXML private TableColumn<RequestsViewModel.Row, String> pathColumn;
    @FXML private TableColumn<RequestsViewModel.Row, String> statusColumn;
    @FXML private TableColumn<RequestsViewModel.Row, String> backendColumn;
    @FXML private TableColumn<RequestsViewModel.Row, String> attemptsColumn;
    @FXML private TableColumn<RequestsViewModel.Row, String> latencyColumn;
    @FXML private TableColumn<RequestsViewModel.Row, String> bytesColumn;
    @FXML private TableColumn<RequestsViewModel.Row, String> timeColumn;
    @FXML private Label noSelection;
    @FXML private TabPane requestDetails;
    @FXML private TextArea requestHeaders;
    @FXML private TextArea responseHeaders;
    @FXML private GridPane timingGrid;
    @FXML private TableView<RequestSample.Attempt> attemptsTable;
    @FXML private TableColumn<RequestSample.Attempt, String> attemptNoColumn;
    @FXML private TableColumn<RequestSample.Attempt, String> attemptBackendColumn;
    @FXML private TableColumn<RequestSample.Attempt, String> attemptOutcomeColumn;
    @FXML private TableColumn<RequestSample.Attempt, String> attemptMsColumn;
    @FXML private VBox whyRecorded;
    @FXML private VBox decisionPane;
    @FXML private VBox whyNow;

    public RequestsController(UiSession session, RequestsContext ctx) {
        this.session = session;
        this.ctx = ctx;
    }

    @FXML
    private void initialize() {
        dev.fulcrum.ui.ColumnWidths.follow(requestsTable, requestCount); // present mode's type: figures stay whole
        requestFilter.textProperty().bindBidirectional(model.textProperty());
        requestStatus.getItems().setAll(RequestsViewModel.StatusClass.values());
        requestStatus.valueProperty().bindBidirectional(model.statusProperty());
        requestBackend.setItems(model.backendChoices());
        requestBackend.valueProperty().bindBidirectional(model.backendProperty());
        requestPool.setItems(model.poolChoices());
        requestPool.valueProperty().bindBidirectional(model.poolProperty());
        // the routing filters show once a routed request is seen: a config without routes sees the bar as it was
        requestRoute.setItems(model.routeChoices());
        requestRoute.valueProperty().bindBidirectional(model.routeProperty());
        requestArm.setItems(model.armChoices());
        requestArm.valueProperty().bindBidirectional(model.armProperty());
        requestClass.setItems(model.classChoices());
        requestClass.valueProperty().bindBidirectional(model.routeClassProperty());
        requestMirrored.getItems().setAll(RequestsViewModel.Mirrored.values());
        requestMirrored.valueProperty().bindBidirectional(model.mirroredProperty());
        for (ComboBox<String> box : List.of(requestBackend, requestPool, requestRoute, requestArm, requestClass)) {
            box.setConverter(new javafx.util.StringConverter<>() {
                @Override
                public String toString(String choice) {
                    return RequestsViewModel.choiceText(choice);
                }

                @Override
                public String fromString(String text) {
                    return text; // the boxes are not editable
                }
            });
        }
        for (ComboBox<String> box : List.of(requestRoute, requestArm, requestClass)) {
            showsItsValue(box);
        }
        for (javafx.scene.Node n : new javafx.scene.Node[] {requestRoute, requestArm, requestClass, requestMirrored}) {
            n.visibleProperty().bind(model.routedProperty());
            n.managedProperty().bind(model.routedProperty());
        }
        pauseRequests.selectedProperty().bindBidirectional(model.pausedProperty());
        pauseRequests.textProperty().bind(javafx.beans.binding.Bindings.when(model.pausedProperty())
                .then(Texts.t("requests.resume")).otherwise(Texts.t("requests.pause")));
        requestCount.textProperty().bind(model.summaryProperty());

        requestsTable.setItems(model.rows());
        requestsTable.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        column(methodColumn, r -> r.request().method());
        column(pathColumn, r -> RequestText.target(r.request()));
        column(statusColumn, r -> RequestText.status(r.request(), r.open()));
        column(backendColumn, r -> RequestText.backend(r.request()));
        column(attemptsColumn, r -> RequestText.attempts(r.request()));
        column(latencyColumn, r -> RequestText.latency(r.request(), r.open()));
        column(bytesColumn, r -> RequestText.bytes(r.request()));
        column(timeColumn, r -> RequestText.time(r.request()));
        statusColumn.setCellFactory(c -> new StatusCell());
        requestsTable.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(RequestsViewModel.Row row, boolean empty) {
                super.updateItem(row, empty);
                getStyleClass().remove("open-connection");
                if (!empty && row != null && row.open()) {
                    getStyleClass().add("open-connection");
                }
            }
        });
        requestsTable.getSelectionModel().selectedItemProperty().addListener((o, a, row) -> {
            if (row != null) {
                show(row);
            }
        });

        attemptNoColumn.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : Integer.toString(getIndex() + 1));
            }
        });
        attemptBackendColumn.setCellValueFactory(d -> new ReadOnlyStringWrapper(d.getValue().backend()));
        attemptOutcomeColumn.setCellValueFactory(d -> new ReadOnlyStringWrapper(RequestText.outcome(d.getValue().outcome())));
        attemptMsColumn.setCellValueFactory(d -> new ReadOnlyStringWrapper(RequestText.duration(d.getValue().ms())));

        exportShown.setOnAction(e -> chooseAndExport(model.shown(), true));
        exportSelected.setOnAction(e -> chooseAndExport(selected(), false));
        exportHar.setOnShowing(e -> {
            exportShown.setText(Texts.t("requests.export.list.count", model.rows().size()));
            exportSelected.setText(Texts.t("requests.export.selected.count",
                    requestsTable.getSelectionModel().getSelectedItems().size()));
            exportSelected.setDisable(requestsTable.getSelectionModel().getSelectedItems().isEmpty());
        });
        boolean local = ctx.https() != null;
        httpsButton.setVisible(local);
        httpsButton.setManaged(local);
        httpsButton.setOnAction(e -> new TrustDialog(httpsButton.getScene().getWindow(), ctx.https()).show());

        session.stateProperty().addListener((o, a, s) -> knowNames(s));
        knowNames(session.state());
        showing.addListener((o, a, now) -> {
            if (now) {
                refreshOpen();
            }
        });
        requestsTable.sceneProperty().addListener((o, a, sc) -> runWhileShown());
        session.openRequests(this::attach);
    }

    private static void column(TableColumn<RequestsViewModel.Row, String> c,
                               Function<RequestsViewModel.Row, String> text) {
        c.setCellValueFactory(d -> new ReadOnlyStringWrapper(text.apply(d.getValue())));
        c.setSortable(false); // newest on top is the order; a sorted live list would jump under the pointer
    }

    /** Colours the status by its class: 2xx, 3xx, 4xx, 499, 5xx, 101. */
    private static final class StatusCell extends TableCell<RequestsViewModel.Row, String> {
        private static final List<String> CLASSES = List.of("status-ok", "status-redirect", "status-client",
                "status-left", "status-server", "status-switched");

        @Override
        protected void updateItem(String text, boolean empty) {
            super.updateItem(text, empty);
            getStyleClass().removeAll(CLASSES);
            setText(empty ? null : text);
            if (!empty && text != null) {
                int s = Integer.parseInt(text.split(" ", 2)[0]);
                getStyleClass().add(s == 499 ? "status-left" : s >= 500 ? "status-server" : s >= 400 ? "status-client"
                        : s >= 300 ? "status-redirect" : s >= 200 ? "status-ok" : "status-switched");
            }
        }
    }

    /** The engine's source arrived: start listing, with the requests it kept from before; or hide the tab. */
    private void attach(RequestSource s) {
        if (closed) {
            return;
        }
        if (s == null) {
            onUnavailable.run();
            return;
        }
        source = s;
        session.read(Texts.t("requests.task.recent"), () -> s.recent(RequestsViewModel.MAX_ROWS), model::seed,
                msg -> { });
        runWhileShown();
        refreshOpen();
    }

    /** The timers run while the table is in a scene and there is a source: a running one keeps a window alive. */
    private void runWhileShown() {
        boolean run = !closed && source != null && requestsTable.getScene() != null;
        if (run && !running) {
            // hidden, the tab reads nothing: each read materialises every request since the last, and at full load
            // that is the window's largest cost; shown again, it takes the newest the stream still holds
            poller = dev.fulcrum.ui.FxTicks.every(Duration.millis(POLL_MS), () -> {
                ticks++;
                if (showing.get()) {
                    reads++;
                    poll();
                }
            });
            openRefresh = dev.fulcrum.ui.FxTicks.every(Duration.millis(OPEN_REFRESH_MS), this::refreshOpen);
        } else if (!run && running) {
            poller.stop();
            openRefresh.stop();
        }
        running = run;
    }

    /** Takes what arrived since the last poll (FX thread; never blocks). */
    void poll() {
        RequestSource s = source;
        if (s == null) {
            return;
        }
        RequestSource.Batch b = s.poll();
        if (b != RequestSource.Batch.EMPTY) {
            model.add(b.requests(), b.dropped());
        }
    }

    private void refreshOpen() {
        if (closed || source == null || readingOpen || !showing.get() || model.pausedProperty().get()) {
            return;
        }
        readingOpen = true;
        session.read(Texts.t("requests.task.open"), () -> session.client().openTunnels(), open -> {
            readingOpen = false;
            model.setOpen(open);
        }, msg -> readingOpen = false);
    }

    private void knowNames(EngineState s) {
        if (s != null) {
            model.knownNames(s.backends().stream().map(EngineState.BackendInfo::id).toList(), s.pools().keySet());
        }
    }

    private List<RequestSample> selected() {
        return requestsTable.getSelectionModel().getSelectedItems().stream().map(RequestsViewModel.Row::request).toList();
    }

    // ---------------------------------------------------------------- details

    private void show(RequestsViewModel.Row row) {
        detailed = row;
        RequestSample r = row.request();
        noSelection.setVisible(false);
        requestDetails.setVisible(true);
        requestHeaders.setText(RequestText.headers(r.requestHeaders()));
        responseHeaders.setText(RequestText.headers(r.responseHeaders()));
        timingGrid.getChildren().clear();
        List<Map.Entry<String, String>> facts = List.copyOf(RequestText.details(r, row.open()).entrySet());
        int half = (facts.size() + 1) / 2; // two columns of facts, so they fit the pane without scrolling
        for (int i = 0; i < facts.size(); i++) {
            Label name = new Label(facts.get(i).getKey());
            name.getStyleClass().add("grid-head");
            // the names stay whole (Polish ones are long) and the values wrap beside them
            name.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
            Label value = new Label(facts.get(i).getValue());
            value.setWrapText(true);
            timingGrid.add(name, i < half ? 0 : 2, i % half);
            timingGrid.add(value, i < half ? 1 : 3, i % half);
        }
        attemptsTable.getItems().setAll(r.attempts());
        Long staleAfterMs = staleAfterMs(r.pool());
        lines(whyRecorded, RecordedDecision.recorded(r, staleAfterMs));
        showDecision(r.decision());
        askThePoolNow(row);
    }

    /** The pool's {@code staleAfterMs} as the engine reports its strategy now, or null when it has none. */
    private Long staleAfterMs(String pool) {
        EngineState s = session.state();
        EngineState.PoolInfo p = s == null || pool == null ? null : s.pools().get(pool);
        Object v = p == null || p.strategy() == null ? null : p.strategy().get("staleAfterMs");
        return v instanceof Number n ? n.longValue() : null;
    }

    /** Each pick of the recorded decision: its heading and a small table of its candidates. */
    private void showDecision(dev.fulcrum.requests.Decision d) {
        decisionPane.getChildren().clear();
        if (d == null) {
            Label none = new Label(DecisionText.notRecorded());
            none.setWrapText(true);
            none.getStyleClass().add("muted");
            decisionPane.getChildren().add(none);
            return;
        }
        for (dev.fulcrum.requests.Decision.Pick p : d.picks()) {
            Label heading = new Label(DecisionText.heading(p));
            heading.getStyleClass().add("why-line");
            GridPane table = new GridPane();
            table.setHgap(12);
            table.setVgap(2);
            table.getStyleClass().add("decision-table");
            String[] head = {Texts.t("requests.decision.backend"), Texts.t("requests.decision.weight"),
                Texts.t("requests.decision.in_flight"), Texts.t("requests.decision.score"),
                Texts.t("requests.decision.note")};
            for (int c = 0; c < head.length; c++) {
                Label h = new Label(head[c]);
                h.getStyleClass().add("grid-head");
                table.add(h, c, 0);
            }
            List<DecisionText.Row> rows = DecisionText.rows(p);
            for (int i = 0; i < rows.size(); i++) {
                DecisionText.Row row = rows.get(i);
                String[] cells = {row.backend(), row.weight(), row.inFlight(), row.score(), row.note()};
                for (int c = 0; c < cells.length; c++) {
                    table.add(new Label(cells[c]), c, i + 1);
                }
            }
            decisionPane.getChildren().addAll(heading, table);
        }
    }

    /** The embedded engine's live pool, asked about the same request (on the session's worker). */
    private void askThePoolNow(RequestsViewModel.Row row) {
        if (ctx.pools() == null) {
            lines(whyNow, List.of(Texts.t("requests.why.remote")));
            return;
        }
        RequestSample r = row.request();
        lines(whyNow, List.of(Texts.t("requests.why.asking")));
        session.read(Texts.t("requests.task.why"), () -> {
            Pool pool = ctx.pools().apply(r.pool());
            if (pool == null) {
                throw new IllegalArgumentException(Texts.t("requests.why.pool_gone", r.pool()));
            }
            return DecisionTrace.explain(pool, RecordedDecision.request(r), RandomSource.threadLocal(),
                    RecordedDecision.stickyBackend(r));
        }, t -> {
            if (detailed == row) {
                lines(whyNow, RecordedDecision.now(t, r));
            }
        }, msg -> {
            if (detailed == row) {
                lines(whyNow, List.of(msg));
            }
        });
    }

    private static void lines(VBox box, List<String> lines) {
        box.getChildren().clear();
        for (String line : lines) {
            Label l = new Label(line);
            l.setWrapText(true);
            l.getStyleClass().add("why-line");
            box.getChildren().add(l);
        }
    }

    // ---------------------------------------------------------------- HAR export

    /** Exports the list ({@code list}) or the selection. */
    private void chooseAndExport(List<RequestSample> what, boolean list) {
        if (what.isEmpty()) {
            exportResult.setText(Texts.t(list ? "requests.export.empty.list" : "requests.export.empty.selection"));
            return;
        }
        FileChooser chooser = new FileChooser();
        chooser.setTitle(Texts.t(list ? "requests.export.title.list" : "requests.export.title.selection"));
        chooser.setInitialFileName("fulcrum.har");
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(Texts.t("requests.export.files"), "*.har"));
        File f = chooser.showSaveDialog(requestsTable.getScene().getWindow());
        if (f != null) {
            exportHar(what, f.toPath());
        }
    }

    /** Writes {@code what} to {@code file} off the FX thread; the line beside the summary says how it went. */
    public CompletableFuture<Path> exportHar(List<RequestSample> what, Path file) {
        exportResult.setText(Texts.t("requests.export.writing", what.size()));
        return HarExport.write(what, file).whenComplete((p, e) -> Platform.runLater(() -> exportResult.setText(
                e == null ? Texts.t(what.size() == 1 ? "requests.export.wrote.one" : "requests.export.wrote",
                        what.size(), p.toString())
                        : Texts.t("requests.export.failed",
                                (e.getCause() == null ? e : e.getCause()).getMessage()))));
    }

    // ---------------------------------------------------------------- for the window

    /** Called once when the engine turns out to show no requests (HAProxy): the window hides the tab. */
    public void onUnavailable(Runnable r) {
        this.onUnavailable = r;
    }

    /** Ticks of the poll so far, and how many of them read the stream; FX thread, for tests. */
    int[] pollCounts() {
        return new int[] {ticks, reads};
    }

    /** Whether the poll's timer runs now (only while the table is in a scene); FX thread, for tests. */
    boolean polling() {
        return running;
    }

    /** Bound to the tab's selection: the open WebSockets are listed only while someone looks. */
    public BooleanProperty showingProperty() {
        return showing;
    }

    /**
     * The box shows its value whatever its list does meanwhile: a choice that came into the list after it was chosen
     * (the filter set before that arm's first request was seen) otherwise leaves the box blank while it filters.
     */
    private static void showsItsValue(ComboBox<String> box) {
        javafx.scene.control.ListCell<String> cell = new javafx.scene.control.ListCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(RequestsViewModel.choiceText(box.getValue()));
            }
        };
        box.setButtonCell(cell);
        box.valueProperty().addListener((o, a, v) -> cell.setText(RequestsViewModel.choiceText(v)));
    }

    public RequestsViewModel viewModel() {
        return model;
    }

    /** Stops the timers (the window is closing). */
    public void close() {
        closed = true;
        runWhileShown();
    }
}
