package dev.fulcrum.ui.lessons;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.ui.WindowHarness;
import javafx.geometry.Bounds;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.VBox;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * A step marks a backend's card that a projector-sized view shows below the fold (the Breakers tab at 1280x720 shows
 * one card): the mark scrolls it into view, so the room sees what the narration is about.
 */
class HighlighterRevealTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    @Test
    void theMarkedCardIsScrolledIntoView(FxRobot robot) {
        VBox cards = new VBox();
        for (String id : new String[] {"demo-a", "demo-b", "demo-c", "demo-d"}) {
            Label card = new Label(id);
            card.setId("breaker-" + id);
            card.setMinHeight(300);
            cards.getChildren().add(card);
        }
        ScrollPane scroll = new ScrollPane(cards);
        robot.interact(() -> {
            fx.stage().setScene(new Scene(scroll, 400, 350));
            fx.stage().show();
        });
        Label third = fx.lookup("#breaker-demo-c", Label.class);
        assertThat(fx.onFx(() -> visible(scroll, third))).as("below the fold before").isFalse();

        robot.interact(() -> new Highlighter(scroll).point("Breakers", "demo-c"));

        assertThat(fx.onFx(() -> visible(scroll, third))).as("scrolled into view").isTrue();
    }

    private static boolean visible(ScrollPane scroll, Label card) {
        Bounds pane = scroll.localToScene(scroll.getBoundsInLocal());
        Bounds at = card.localToScene(card.getBoundsInLocal());
        return at.getMinY() >= pane.getMinY() - 1 && at.getMaxY() <= pane.getMaxY() + 1;
    }
}
