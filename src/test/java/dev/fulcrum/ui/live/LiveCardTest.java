package dev.fulcrum.ui.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.time.ManualClock;
import dev.fulcrum.ui.BackendCommands;
import dev.fulcrum.ui.Views;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.Pane;
import javafx.scene.shape.Rectangle;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** A Live card under load: its figures show whole and its queue stays inside the card, the rest as a count. */
@ExtendWith(ApplicationExtension.class)
class LiveCardTest {
    private LiveCard card;

    @Start
    void start(Stage stage) {
        card = new LiveCard("b1", new BackendCommands(null), new ManualClock());
        Scene scene = new Scene(new Pane(card), 1280, 800);
        scene.getStylesheets().add(Views.stylesheet("fulcrum"));
        stage.setScene(scene);
        stage.show();
    }

    private static BackendInfo inFlight(int active) {
        return new BackendInfo("b1", "default", "http://127.0.0.1:1", 1, 1, "UP", "UP", null, active, 0, 0, 17_992,
                0, 2.1, 4.8, false, null, 0, 0);
    }

    @Test
    void aLongQueueGivesWayToTheFiguresAndCountsWhatDoesNotFit(FxRobot robot) {
        robot.interact(() -> {
            card.place(new StageLayout.Box(0, 0, 400, 108));
            card.show(inFlight(18), false);
            card.getParent().layout();
        });

        Label figures = robot.from(card).lookup(".muted").<Label>queryAll().stream()
                .filter(l -> l.getText().contains("in flight")).findFirst().orElseThrow();
        assertThat(((Text) figures.lookup(".text")).getText()).isEqualTo("17992 req/s · p99 4.8 ms · 18 in flight");
        long squares = robot.from(card).lookup(".live-queue-slot").queryAll().size();
        Label more = robot.from(card).lookup(".muted").<Label>queryAll().stream()
                .filter(l -> l.getText().startsWith("+")).findFirst().orElseThrow();
        assertThat(squares).isPositive();
        assertThat(squares + Long.parseLong(more.getText().substring(1))).isEqualTo(18);
        assertThat(((Text) more.lookup(".text")).getText()).isEqualTo(more.getText());
        for (Node n : robot.from(card).lookup(".live-queue-slot").<Rectangle>queryAll()) {
            assertThat(card.sceneToLocal(n.localToScene(n.getBoundsInLocal())).getMaxX()).isLessThanOrEqualTo(400);
        }
        assertThat(card.sceneToLocal(more.localToScene(more.getBoundsInLocal())).getMaxX()).isLessThanOrEqualTo(400);
    }
}
