package dev.fulcrum.ui;

import dev.fulcrum.i18n.Texts;
import javafx.geometry.Pos;
import javafx.stage.Window;
import javafx.util.Duration;
import org.controlsfx.control.Notifications;

/** Refused commands pop up briefly in the window's corner (ControlsFX), in the engine's words. */
final class Notifier {
    private Notifier() {
    }

    static void error(Window owner, String message) {
        if (owner == null || !owner.isShowing()) {
            return;
        }
        Notifications.create().owner(owner).title(Texts.t("main.refused")).text(message).position(Pos.BOTTOM_RIGHT)
                .hideAfter(Duration.seconds(6)).showError();
    }
}
