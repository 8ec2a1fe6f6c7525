package dev.fulcrum.ui.lessons;

import static org.assertj.core.api.Assertions.assertThat;

import javafx.geometry.Bounds;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * A step marks a backend's card that a projector-sized view shows below the fold (the Breakers tab at 1280x720 shows
 * one card): the mark scrolls it into view, so the room sees what the narration is about.
 */
@ExtendWith(ApplicationExtension.class)
class HighlighterRevealTest {
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

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
            stage.setScene(new Scene(scroll, 400, 350));
            stage.show();
        });
        Label third = robot.lookup("#breaker-demo-c").queryAs(Label.class);
        assertThat(visible(scroll, third)).as("below the fold before").isFalse();

        robot.interact(() -> new Highlighter(scroll).point("Breakers", "demo-c"));

        assertThat(visible(scroll, third)).as("scrolled into view").isTrue();
    }

    private static boolean visible(ScrollPane scroll, Label card) {
        Bounds pane = scroll.localToScene(scroll.getBoundsInLocal());
        Bounds at = card.localToScene(card.getBoundsInLocal());
        return at.getMinY() >= pane.getMinY() - 1 && at.getMaxY() <= pane.getMaxY() + 1;
    }
}
