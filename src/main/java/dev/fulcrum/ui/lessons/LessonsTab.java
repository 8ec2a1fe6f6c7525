package dev.fulcrum.ui.lessons;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.Views;
import java.util.function.Consumer;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Tab;

/**
 * The Lessons tab for the main window, and its controller: {@code fxml/lessons.fxml} with {@code styles/lessons.css},
 * bound to the window's frame (where the narration panel goes, how to switch views).
 *
 * @param tab        the tab, id {@code lessonsTab}
 * @param controller its controller (tests drive it)
 */
public record LessonsTab(Tab tab, LessonsController controller) implements AutoCloseable {
    /**
     * Builds the tab on the FX thread.
     *
     * @param beside puts a panel beside the views, or takes it away (null)
     * @param select switches to the view of that name (a tab's text)
     * @param root   the main window's root
     */
    public static LessonsTab create(UiSession session, Consumer<Node> beside, Consumer<String> select, Parent root) {
        Views.Loaded<LessonsController> loaded = Views.load("lessons", session);
        loaded.root().getStylesheets().add(Views.stylesheet("lessons"));
        loaded.controller().bind(new LessonsController.Frame(beside, select, root));
        Tab t = new Tab(Texts.t("lessons.tab"), loaded.root());
        t.setUserData("Lessons"); // the view's English name, which lessons and tests select it by
        t.setId("lessonsTab");
        t.setClosable(false);
        return new LessonsTab(t, loaded.controller());
    }

    /** Stops a lesson playing. */
    @Override
    public void close() {
        controller.close();
    }
}
