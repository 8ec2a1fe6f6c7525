package dev.fulcrum.ui.breakers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.admin.EngineState.BreakerInfo;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.time.ManualClock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javafx.scene.Scene;
import javafx.scene.layout.FlowPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * While OPEN the engine keeps no window of calls; the card keeps the last calls it saw, faded, so an audience sees what
 * tripped the breaker, and lets them go when the breaker moves on.
 */
@ExtendWith(ApplicationExtension.class)
class BreakerCardKeptWindowTest {
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    private static BackendInfo backend(BreakerInfo br) {
        return new BackendInfo("demo-a", "default", "http://127.0.0.1:1", 1, 1, "UP", "UP", br, 0, 0, 0, 0, 0, 0, 0,
                false, null, 0, 0);
    }

    @Test
    void anOpenBreakerShowsTheCallsThatTrippedItFaded(FxRobot robot) {
        ManualClock clock = new ManualClock();
        BreakerCard card = new BreakerCard("demo-a", clock, rate -> { });
        List<String> window = new ArrayList<>(Collections.nCopies(8, "SUCCESS"));
        window.addAll(Collections.nCopies(12, "FAILURE"));
        List<EngineEvent> events = new ArrayList<>();
        robot.interact(() -> {
            stage.setScene(new Scene(new FlowPane(card), 800, 600));
            stage.show();
            card.update(backend(new BreakerInfo("CLOSED", 60, 0, 0, window, 0)), BreakerConfig.DEFAULT, events);
        });
        assertThat(card.shownCells()).hasSize(20).noneMatch(c -> c.contains("kept"));

        robot.interact(() -> {
            EngineEvent e = new EngineEvent("breaker", "default", "demo-a", "CLOSED", "OPEN", clock.wallMillis());
            events.add(e);
            card.transition(e);
            card.update(backend(new BreakerInfo("OPEN", 0, 0, 4200, List.of(), 0, 60.0, 0.0, 3, 0, 0)),
                    BreakerConfig.DEFAULT, events);
        });
        assertThat(card.shownCells()).hasSize(20).allMatch(c -> c.contains("kept"));
        assertThat(card.shownCells().get(19)).contains("call-FAILURE");
        assertThat(card.recentNoteText()).startsWith("the last calls before it tripped");

        // frames that change nothing (60 a second while the view shows) restyle nothing: each change to a style class
        // list has JavaFX look the node's CSS up again
        int[] restyled = {0};
        robot.interact(() -> card.lookupAll("*").forEach(n -> n.getStyleClass().addListener(
                (javafx.collections.ListChangeListener<String>) c -> restyled[0]++)));
        robot.interact(() -> {
            card.tick();
            card.tick();
        });
        assertThat(restyled[0]).isZero();

        robot.interact(() -> {
            clock.advanceMillis(BreakerStage.HOLD_MS);
            card.update(backend(new BreakerInfo("HALF_OPEN", 0, 0, 0, List.of(), 0, 60.0, 0.0, 3, 1, 0)),
                    BreakerConfig.DEFAULT, events);
        });
        assertThat(card.shownCells()).as("a new window starts with the probes").isEmpty();
        assertThat(card.recentNoteText()).isEqualTo("no calls yet");
    }
}
