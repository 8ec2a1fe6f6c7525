package dev.fulcrum.ui;

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
        Notifications.create().owner(owner).title("Refused").text(message).position(Pos.BOTTOM_RIGHT)
                .hideAfter(Duration.seconds(6)).showError();
    }
}
