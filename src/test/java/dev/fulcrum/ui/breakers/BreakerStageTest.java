package dev.fulcrum.ui.breakers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState.BreakerInfo;
import dev.fulcrum.time.ManualClock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a breaker card plays: the countdown while OPEN, a short HALF_OPEN held on screen, why it tripped. */
class BreakerStageTest {
    private static BreakerInfo info(String state, long msUntilHalfOpen) {
        return new BreakerInfo(state, 0, 0, msUntilHalfOpen, List.of(), 0, 62.5, 0.0, 3, 0, 0);
    }

    @Test
    void whileOpenTheCountdownRunsBetweenSamplesAndNeverReadsZero() {
        ManualClock clock = new ManualClock();
        BreakerStage stage = new BreakerStage(clock);
        stage.transition("CLOSED", "OPEN", clock.wallMillis());
        stage.sample(info("OPEN", 4200));
        stage.advance();
        assertThat(stage.state()).isEqualTo("OPEN");
        assertThat(stage.past()).isFalse();
        assertThat(stage.countdown()).isEqualTo("HALF_OPEN in 4.2 s");
        // counted down on the view's clock, with no new sample
        clock.advanceMillis(1500);
        stage.advance();
        assertThat(stage.countdown()).isEqualTo("HALF_OPEN in 2.7 s");
        // past the deadline and still OPEN (the engine moves it on its next tick): never "0.0 s"
        clock.advanceMillis(2700);
        stage.sample(info("OPEN", 0));
        stage.advance();
        assertThat(stage.countdown()).isEqualTo("HALF_OPEN at the next tick").doesNotContain("0.0 s");
        // and the card says the rate that tripped it, not the empty window's 0%
        assertThat(stage.tripText(50, 100)).isEqualTo("tripped at 63% failures (opens at 50%)");
    }

    @Test
    void aHalfOpenShorterThanASampleIsHeldOnScreenMarkedAsPast() {
        // given OPEN, then HALF_OPEN and CLOSED 150 ms apart, both arriving with one sample that says CLOSED
        ManualClock clock = new ManualClock();
        BreakerStage stage = new BreakerStage(clock);
        stage.transition("CLOSED", "OPEN", clock.wallMillis());
        stage.sample(info("OPEN", 100));
        stage.advance();
        clock.advanceMillis(BreakerStage.HOLD_MS);
        long halfOpenAt = clock.wallMillis();
        stage.transition("OPEN", "HALF_OPEN", halfOpenAt);
        stage.transition("HALF_OPEN", "CLOSED", halfOpenAt + 150);
        clock.advanceMillis(200);
        stage.sample(info("CLOSED", 0));
        stage.advance();

        // then HALF_OPEN is lit, marked as past, with its probes shown as they ended
        assertThat(stage.state()).isEqualTo("HALF_OPEN");
        assertThat(stage.past()).isTrue();
        assertThat(stage.stateText()).isEqualTo("HALF_OPEN (0.2 s ago; now CLOSED)");
        assertThat(stage.probeSlots(3)).containsExactly("SUCCESS", "SUCCESS", "SUCCESS");
        assertThat(stage.countdown()).isEqualTo("probed: the probes came back fine");
        // and stays so for at least a second
        clock.advanceMillis(1000);
        stage.advance();
        assertThat(stage.state()).isEqualTo("HALF_OPEN");
        // then the card shows the breaker as it is
        clock.advanceMillis(BreakerStage.HALF_OPEN_HOLD_MS - 1000 + BreakerStage.HOLD_MS);
        stage.advance();
        assertThat(stage.state()).isEqualTo("CLOSED");
        assertThat(stage.past()).isFalse();
        assertThat(stage.probeSlots(3)).isEmpty();
    }

    @Test
    void liveProbeSlotsFillAsProbesAreAdmittedAndComeBack() {
        ManualClock clock = new ManualClock();
        BreakerStage stage = new BreakerStage(clock);
        stage.sample(new BreakerInfo("HALF_OPEN", 0, 0, 0, List.of(), 0, null, null, 3, 2, 1));
        stage.advance();
        assertThat(stage.probeSlots(3)).containsExactly("SUCCESS", "WAITING", "FREE");
        assertThat(stage.countdown()).isEqualTo("probing: the next calls decide");
    }
}
