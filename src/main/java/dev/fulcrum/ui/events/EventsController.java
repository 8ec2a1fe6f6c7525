package dev.fulcrum.ui.events;

import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.UiSession;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.function.Function;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.ListChangeListener;
import javafx.collections.transformation.FilteredList;
import javafx.fxml.FXML;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;

/**
 * Every engine event since the window opened, newest at the bottom, filtered by type and by text (backend,
 * pool, from, to). Follows the newest event unless unticked.
 */
public final class EventsController {
    static final String ALL = "all types";
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault());
    private final UiSession session;
    private FilteredList<EngineEvent> filtered;

    @FXML private TableView<EngineEvent> eventsTable;
    @FXML private TableColumn<EngineEvent, String> atColumn;
    @FXML private TableColumn<EngineEvent, String> typeColumn;
    @FXML private TableColumn<EngineEvent, String> poolColumn;
    @FXML private TableColumn<EngineEvent, String> backendColumn;
    @FXML private TableColumn<EngineEvent, String> fromColumn;
    @FXML private TableColumn<EngineEvent, String> toColumn;
    @FXML private TextField eventFilter;
    @FXML private ComboBox<String> eventType;
    @FXML private CheckBox followEvents;
    @FXML private Label eventCount;

    public EventsController(UiSession session) {
        this.session = session;
    }

    @FXML
    private void initialize() {
        filtered = new FilteredList<>(session.events());
        eventsTable.setItems(filtered);
        dev.fulcrum.ui.ColumnWidths.follow(eventsTable, eventCount); // present mode's type: figures stay whole
        col(atColumn, e -> TIME.format(Instant.ofEpochMilli(e.at())));
        col(typeColumn, e -> typeWord(e.type()));
        col(poolColumn, e -> e.pool() == null ? EventText.NONE : e.pool());
        col(backendColumn, EngineEvent::backend);
        col(fromColumn, EventText::from);
        col(toColumn, EventText::to);
        backendColumn.setCellFactory(c -> new dev.fulcrum.ui.IdCell<>());
        eventType.getItems().setAll(ALL, "breaker", "health", "membership", "weight", "strategy", "drain", "panic", "plugin-failed", "demo", "config",
                "disconnected", "reconnected");
        // the items stay the event types the engine sends; the box shows them in words
        eventType.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(String type) {
                return type == null ? "" : ALL.equals(type) ? Texts.t("events.type.all") : typeWord(type);
            }

            @Override
            public String fromString(String text) {
                return text;
            }
        });
        eventType.setValue(ALL);
        eventFilter.textProperty().addListener((o, a, b) -> refilter());
        eventType.valueProperty().addListener((o, a, b) -> refilter());
        filtered.addListener((ListChangeListener<EngineEvent>) c -> {
            showCount();
            followLater();
        });
        followEvents.selectedProperty().addListener((o, a, follow) -> followLater());
        // a hidden tab's table is not laid out: where it scrolled then is lost, so follow again once it shows
        eventsTable.visibleProperty().addListener((o, a, v) -> followLater());
        eventsTable.heightProperty().addListener((o, a, h) -> followLater());
    }

    /**
     * Scrolls to the newest row after the table has taken in the change: scrolling from inside the list's change
     * listener asks the table for a row it has not counted yet, and it ends one screen short.
     */
    private void followLater() {
        if (followQueued || !followEvents.isSelected()) {
            return;
        }
        followQueued = true;
        Platform.runLater(() -> {
            followQueued = false;
            if (followEvents.isSelected() && !filtered.isEmpty()) {
                eventsTable.scrollTo(filtered.size() - 1);
            }
        });
    }

    private boolean followQueued;

    private static void col(TableColumn<EngineEvent, String> c, Function<EngineEvent, String> f) {
        c.setCellValueFactory(d -> new ReadOnlyStringWrapper(f.apply(d.getValue())));
    }

    private void refilter() {
        String type = eventType.getValue();
        String text = eventFilter.getText() == null ? "" : eventFilter.getText().trim().toLowerCase(Locale.ROOT);
        filtered.setPredicate(e -> (type == null || ALL.equals(type) || type.equals(e.type()))
                && (text.isEmpty() || (e.type() + " " + typeWord(e.type()) + " " + e.pool() + " " + e.backend() + " "
                        + EventText.from(e) + " " + EventText.to(e))
                        .toLowerCase(Locale.ROOT).contains(text)));
        showCount();
    }

    private void showCount() {
        eventCount.setText(Texts.t("events.count", Integer.toString(filtered.size()),
                Integer.toString(session.events().size())));
    }

    /** An event's type as the table shows it ({@code breaker} reads 熔断器 in Chinese); one it does not know as is. */
    static String typeWord(String type) {
        return Texts.word("events.type", type);
    }
}
