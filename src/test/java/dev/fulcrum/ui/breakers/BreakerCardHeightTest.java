package dev.fulcrum.ui.breakers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.admin.EngineState.BreakerInfo;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.time.ManualClock;
import dev.fulcrum.ui.Views;
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

/** A breaker card is as tall in every state: nothing below it jumps while a trainer talks. */
@ExtendWith(ApplicationExtension.class)
class BreakerCardHeightTest {
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    private static BackendInfo backend(String state, BreakerInfo br) {
        return new BackendInfo("demo-a", "default", "http://127.0.0.1:1", 1, 1, state, "UP", br, 0, 0, 0, 0, 0, 0, 0,
                false, null, 1, 29_000);
    }

    @Test
    void theCardKeepsItsHeightInEveryState(FxRobot robot) {
        ManualClock clock = new ManualClock();
        BreakerCard card = new BreakerCard("demo-a", clock, rate -> { });
        List<Double> heights = new ArrayList<>();
        List<String> full = new ArrayList<>(Collections.nCopies(14, "SUCCESS"));
        full.addAll(Collections.nCopies(6, "FAILURE"));
        List<EngineEvent> events = new ArrayList<>();
        robot.interact(() -> {
            FlowPane list = new FlowPane(card);
            Scene scene = new Scene(list, 1280, 800);
            scene.getStylesheets().add(Views.stylesheet("fulcrum"));
            stage.setScene(scene);
            stage.show();
            card.demo(true);
        });
        List<Runnable> states = List.of(
                () -> card.update(backend("UP", new BreakerInfo("CLOSED", 0, 0, 0, List.of(), 0)), BreakerConfig.DEFAULT,
                        events),
                () -> card.update(backend("UP", new BreakerInfo("CLOSED", 30, 0, 0, full, 0)), BreakerConfig.DEFAULT,
                        events),
                () -> {
                    EngineEvent e = new EngineEvent("breaker", "default", "demo-a", "CLOSED", "OPEN", clock.wallMillis());
                    events.add(e);
                    card.transition(e);
                    card.update(backend("UP", new BreakerInfo("OPEN", 0, 0, 4200, List.of(), 0, 60.0, 0.0, 3, 0, 0)),
                            BreakerConfig.DEFAULT, events);
                },
                () -> {
                    clock.advanceMillis(BreakerStage.HOLD_MS);
                    card.update(backend("UP", new BreakerInfo("HALF_OPEN", 0, 0, 0, List.of(), 0, 60.0, 0.0, 3, 1, 0)),
                            BreakerConfig.DEFAULT, events);
                },
                () -> card.update(backend("EJECTED", new BreakerInfo("CLOSED", 0, 0, 0, List.of(), 0)),
                        BreakerConfig.DEFAULT, events));
        for (Runnable r : states) {
            robot.interact(() -> {
                r.run();
                card.applyCss();
                card.getParent().layout();
                heights.add(card.getHeight());
            });
        }
        assertThat(heights.get(0)).isGreaterThan(100);
        assertThat(heights).as("heights in CLOSED, CLOSED with calls, OPEN, HALF_OPEN, EJECTED").containsOnly(heights.get(0));
    }
}
