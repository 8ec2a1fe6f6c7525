package dev.fulcrum.ui.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.time.ManualClock;
import dev.fulcrum.ui.BackendCommands;
import dev.fulcrum.ui.Views;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.Pane;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** A Live card's score, first on its figures' line, where the pool uses the score strategy. */
@ExtendWith(ApplicationExtension.class)
class LiveCardScoreTest {
    private LiveCard card;

    @Start
    void start(Stage stage) {
        card = new LiveCard("b1", new BackendCommands(null), new ManualClock());
        Scene scene = new Scene(new Pane(card), 600, 200);
        scene.getStylesheets().add(Views.stylesheet("fulcrum"));
        stage.setScene(scene);
        stage.show();
    }

    private static BackendInfo scored(Double score, String fallback) {
        return new BackendInfo("b1", "default", "http://127.0.0.1:1", 1, 1, "UP", "UP", null, 2, 0, 0, 40, 0, 2.1, 4.8,
                false, null, 0, 0, false, java.util.Map.of(), score, fallback);
    }

    @Test
    void theScoreReadsWithWhyAnotherValueStoodIn() {
        assertThat(LiveCard.scoreText(scored(0.6249, null))).isEqualTo("score 0.62 · ");
        assertThat(LiveCard.scoreText(scored(0.55, "stale"))).isEqualTo("score 0.55 (stale) · ");
        assertThat(LiveCard.scoreText(scored(null, "missing"))).isEqualTo("score excluded (missing) · ");
    }

    @Test
    void aBackendOfAPoolThatDoesNotScoreShowsNone() {
        assertThat(LiveCard.scoreText(scored(null, null))).isEmpty();
    }

    @Test
    void theCardShowsItsScoreWhole(FxRobot robot) {
        robot.interact(() -> {
            card.place(new StageLayout.Box(0, 0, 400, 108));
            card.show(scored(0.55, "stale"), true);
            card.getParent().layout();
        });
        Label figures = robot.from(card).lookup(".muted").<Label>queryAll().stream()
                .filter(l -> l.getText().contains("in flight")).findFirst().orElseThrow();
        assertThat(figures.getText()).isEqualTo("score 0.55 (stale) · 40 req/s · p99 4.8 ms · 2 in flight");
        assertThat(((javafx.scene.text.Text) figures.lookup(".text")).getText()).isEqualTo(figures.getText());
    }
}
