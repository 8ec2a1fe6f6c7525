package dev.fulcrum.ui.live;

import dev.fulcrum.time.ManualClock;
import dev.fulcrum.ui.BackendCommands;
import dev.fulcrum.ui.Views;
import dev.fulcrum.ui.WindowHarness;
import javafx.scene.Scene;
import javafx.scene.layout.Pane;

/** A Live card of backend {@code b1} alone on a harness's stage, styled as in the window, for the card's tests. */
final class ShownCard {
    private ShownCard() {
    }

    /** The card, shown in a scene of {@code width} by {@code height}; built on the FX thread. */
    static LiveCard show(WindowHarness fx, double width, double height) {
        return fx.onFx(() -> {
            LiveCard card = new LiveCard("b1", new BackendCommands(null), new ManualClock());
            Scene scene = new Scene(new Pane(card), width, height);
            scene.getStylesheets().add(Views.stylesheet("fulcrum"));
            fx.stage().setScene(scene);
            fx.stage().show();
            return card;
        });
    }
}
