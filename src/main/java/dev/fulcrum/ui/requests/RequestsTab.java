package dev.fulcrum.ui.requests;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.Views;
import javafx.scene.Parent;
import javafx.scene.control.Tab;

/**
 * The Requests tab for the main window: {@code fxml/requests.fxml} with its controller built from the
 * {@link UiSession} and a {@link RequestsContext}, carrying {@code styles/requests.css} itself.
 *
 * <p>Plug in: add {@link Built#tab()}; hide it when {@link RequestsController#onUnavailable} says the engine shows no
 * requests; call {@link RequestsController#close()} when the window closes.
 */
public final class RequestsTab {
    private RequestsTab() {
    }

    /** The tab and its controller (tests and the window drive the controller). */
    public record Built(Tab tab, RequestsController controller) {
    }

    /** Builds the tab on the FX thread; the list starts filling once the session's source is open. */
    public static Built create(UiSession session, RequestsContext ctx) {
        Views.Loaded<RequestsController> loaded = Views.load("requests", type -> new RequestsController(session, ctx));
        Parent root = loaded.root();
        root.getStylesheets().add(Views.stylesheet("requests"));
        RequestsController c = loaded.controller();
        Tab tab = new Tab(Texts.t("requests.tab"), root);
        tab.setId("requestsTab");
        tab.setUserData("Requests"); // the view's English name: lessons and tests select it by this
        tab.setClosable(false);
        c.showingProperty().bind(tab.selectedProperty());
        return new Built(tab, c);
    }
}
