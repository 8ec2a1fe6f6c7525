package dev.fulcrum.ui.routes;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.Views;
import javafx.collections.ObservableList;
import javafx.scene.control.Tab;

/**
 * The Routes tab for the main window: {@code fxml/routes.fxml} with {@code styles/routes.css}. It is in the tab pane
 * only while the engine has a route that splits or mirrors ({@link RoutesController#shown}), so a config without one
 * shows the window as it always was; an engine that reports no routes (an HAProxy fleet) never shows it.
 */
public final class RoutesTab {
    private RoutesTab() {
    }

    /** The tab and its controller (tests and the window drive the controller). */
    public record Built(Tab tab, RoutesController controller) {
    }

    /**
     * Builds the tab, and puts it into {@code tabs} after {@code after} whenever a sample has a route to show, out of
     * them when none has. FX thread.
     */
    public static Built create(UiSession session, ObservableList<Tab> tabs, Tab after) {
        Views.Loaded<RoutesController> loaded = Views.load("routes", session);
        loaded.root().getStylesheets().add(Views.stylesheet("routes"));
        Tab tab = new Tab(Texts.t("routes.tab"), loaded.root());
        tab.setId("routesTab");
        tab.setUserData("Routes"); // the view's English name: lessons and tests select it by this
        tab.setClosable(false);
        loaded.controller().showingProperty().bind(tab.selectedProperty());
        Runnable place = () -> {
            boolean want = !RoutesController.shown(session.state()).isEmpty();
            boolean there = tabs.contains(tab);
            if (want && !there) {
                int at = after == null ? -1 : tabs.indexOf(after);
                tabs.add(at < 0 ? tabs.size() : at + 1, tab);
            } else if (!want && there) {
                tabs.remove(tab);
            }
        };
        session.stateProperty().addListener((o, a, s) -> place.run());
        place.run();
        return new Built(tab, loaded.controller());
    }
}
