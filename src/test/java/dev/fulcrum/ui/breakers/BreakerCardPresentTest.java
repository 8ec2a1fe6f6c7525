package dev.fulcrum.ui.breakers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.admin.EngineState.BreakerInfo;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.time.ManualClock;
import dev.fulcrum.ui.CutText;
import dev.fulcrum.ui.Views;
import dev.fulcrum.ui.WindowHarness;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.FlowPane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * A breaker card in present mode, as a projector shows it: a long id and a state replayed after the fact ("HALF_OPEN
 * (0.2 s ago; now CLOSED)", the header the issue found cut to "de... HALF_OPEN (9.3 s ago; now HALF_O...") are read
 * whole, and the state is in large type.
 */
class BreakerCardPresentTest {
    private static final String ID = "checkout-payments-eu-west-1";

    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private static BackendInfo backend(BreakerInfo br) {
        return new BackendInfo(ID, "default", "http://127.0.0.1:1", 1, 1, "UP", "UP", br, 0, 0, 0, 0, 0, 0, 0,
                false, null, 1, 29_000);
    }

    @Test
    void aReplayedStateAndALongIdAreReadWholeAndTheStateIsLarge(FxRobot robot) {
        // given a card in present mode, on a 1024 px wide window
        ManualClock clock = new ManualClock();
        BreakerCard card = new BreakerCard(ID, clock, rate -> { });
        FlowPane list = new FlowPane(card);
        robot.interact(() -> {
            list.getStyleClass().add("present");
            Scene scene = new Scene(list, 1024, 768);
            scene.getStylesheets().add(Views.stylesheet("fulcrum"));
            fx.stage().setScene(scene);
            fx.stage().show();
            card.demo(true);
        });
        // when the breaker opened, and went HALF_OPEN and CLOSED again within one sample: the card replays HALF_OPEN
        List<EngineEvent> events = new ArrayList<>();
        List<String> cut = new ArrayList<>();
        robot.interact(() -> {
            EngineEvent opened = new EngineEvent("breaker", "default", ID, "CLOSED", "OPEN", clock.wallMillis());
            events.add(opened);
            card.transition(opened);
            card.update(backend(new BreakerInfo("OPEN", 0, 0, 100, List.of(), 0, 100.0, 0.0, 3, 0, 0)),
                    BreakerConfig.DEFAULT, events);
            clock.advanceMillis(BreakerStage.HOLD_MS);
            long at = clock.wallMillis();
            for (String[] t : new String[][] {{"OPEN", "HALF_OPEN"}, {"HALF_OPEN", "CLOSED"}}) {
                EngineEvent e = new EngineEvent("breaker", "default", ID, t[0], t[1], at);
                events.add(e);
                card.transition(e);
                at += 150;
            }
            clock.advanceMillis(9_300);
            card.update(backend(new BreakerInfo("CLOSED", 0, 0, 0, List.of(), 0)), BreakerConfig.DEFAULT, events);
            list.applyCss();
            list.layout();
            cut.addAll(CutText.cut(list, "present card"));
        });

        // then the header reads whole: the id, the state replayed in large type, how long ago and the state now
        assertThat(cut).isEmpty();
        Label state = fx.lookup("#breakerState-" + ID, Label.class);
        assertThat(fx.onFx(state::getText)).isEqualTo("HALF_OPEN");
        assertThat(fx.onFx(() -> state.getFont().getSize())).isGreaterThanOrEqualTo(24);
        assertThat(fx.text("#breakerStateNote-" + ID))
                .startsWith("(").endsWith("s ago; now CLOSED)");
    }
}
