package dev.fulcrum.ui.workshop.scenarios;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.workshop.WorkshopContext;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import javafx.scene.layout.VBox;

/**
 * The scenarios list: the eight samples with what each one shows, the selected one's config text, and
 * "Open", which hands the sample's resource name to {@link WorkshopContext#openScenario()} (the window restarts
 * the embedded engine with it). Without that callback the list is for reading only and says so.
 */
public final class ScenariosController {
    private final WorkshopContext ctx;

    @FXML private ListView<Scenario> scenarioList;
    @FXML private Button openScenario;
    @FXML private Label scenarioNote;
    @FXML private TextArea scenarioText;

    public ScenariosController(UiSession session, WorkshopContext ctx) {
        this.ctx = ctx;
    }

    @FXML
    private void initialize() {
        scenarioList.getItems().setAll(Scenario.ALL);
        scenarioList.setCellFactory(v -> new ListCell<>() {
            @Override
            protected void updateItem(Scenario s, boolean empty) {
                super.updateItem(s, empty);
                if (empty || s == null) {
                    setGraphic(null);
                    setText(null);
                    return;
                }
                Label name = new Label(s.name() + ".json");
                name.getStyleClass().add("scenario-name");
                Label what = new Label(s.whatToShow());
                what.getStyleClass().add("muted");
                // the sentence wraps in the list's width, where it ran on past the list's right edge
                what.setWrapText(true);
                what.maxWidthProperty().bind(scenarioList.widthProperty().subtract(40));
                VBox box = new VBox(2, name, what);
                box.setId("scenario-" + s.name());
                setGraphic(box);
                setText(null);
            }
        });
        scenarioList.getSelectionModel().selectedItemProperty().addListener((o, a, s) -> {
            scenarioText.setText(s == null ? "" : WorkshopContext.readScenario(s.resource()));
        });
        boolean canOpen = ctx.openScenario() != null;
        openScenario.disableProperty().bind(scenarioList.getSelectionModel().selectedItemProperty().isNull()
                .or(javafx.beans.binding.Bindings.createBooleanBinding(() -> !canOpen)));
        scenarioNote.setText(canOpen
                ? Texts.t("scenarios.note.open")
                : Texts.t("scenarios.note.embedded"));
        openScenario.setOnAction(e -> open());
        scenarioList.setOnMouseClicked(e -> {
            if (e.getClickCount() == 2 && canOpen) {
                open();
            }
        });
        scenarioList.getSelectionModel().select(0);
    }

    /** Opens the selected scenario through the window's callback. */
    public void open() {
        Scenario s = scenarioList.getSelectionModel().getSelectedItem();
        if (s != null && ctx.openScenario() != null) {
            ctx.openScenario().accept(s.resource());
        }
    }

    /** "Open": disabled without the window's callback or a selection. */
    public Button openButton() {
        return openScenario;
    }

    public ListView<Scenario> list() {
        return scenarioList;
    }
}
