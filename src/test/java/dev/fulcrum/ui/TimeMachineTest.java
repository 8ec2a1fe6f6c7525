package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.time.ManualClock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimeMachineTest {
    private static EngineState state(int weightOfA) {
        return new EngineState("http://x", Map.of("type", "round-robin"), Map.of(), List.of(), List.of(
                new EngineState.BackendInfo("a", "default", "http://a:1", weightOfA, weightOfA, "UP", "UP",
                        null, 0, 0, 0, 0, 0, 0, 0, false, null, 0, 0)));
    }

    @Test
    void theStateAtAMomentIsTheOneRecordedThen() {
        TimeMachine tm = new TimeMachine(new ManualClock());
        tm.record(1_000, state(1));
        tm.record(1_250, state(1));
        tm.record(1_500, state(7));

        assertThat(tm.stateAt(1_400).backend("a").weight()).isEqualTo(1);
        assertThat(tm.stateAt(1_500).backend("a").weight()).isEqualTo(7);
        assertThat(tm.stateAt(9_999).backend("a").weight()).isEqualTo(7);
        assertThat(tm.stateAt(10).backend("a").weight()).as("before the first: the oldest kept").isEqualTo(1);
        assertThat(tm.oldest()).isEqualTo(1_000);
        assertThat(tm.newest()).isEqualTo(1_500);
    }

    @Test
    void fiveMinutesAreKeptWithTheRingOfEachMomentAndTheEventsToMark() {
        TimeMachine tm = new TimeMachine(new ManualClock());
        EngineClient.Ring before = new EngineClient.Ring("consistent-hash", List.of(), Map.of("a", 1.0));
        EngineClient.Ring after = new EngineClient.Ring("consistent-hash", List.of(), Map.of("a", 0.5, "b", 0.5));
        tm.record(0, state(1));
        tm.ring("default", 0, before);
        tm.event(new EngineEvent("membership", "default", "b", "absent", "present", 60_000));
        tm.ring("default", 60_000, after);
        tm.record(60_000, state(1));

        assertThat(tm.ringAt("default", 30_000)).isSameAs(before);
        assertThat(tm.ringAt("default", 60_000)).isSameAs(after);
        assertThat(tm.ringAt("api", 60_000)).isNull();

        tm.record(TimeMachine.KEEP_MS + 30_000, state(3));

        assertThat(tm.oldest()).as("the first sample is past five minutes").isEqualTo(60_000);
        assertThat(tm.events()).hasSize(1);
        assertThat(tm.ringAt("default", 60_000)).isSameAs(after);
        tm.record(TimeMachine.KEEP_MS + 70_000, state(3));
        assertThat(tm.events()).isEmpty();
    }

    @Test
    void theViewsShowTheLiveSampleUntilTheyLookBackAndTheNewestWhenTheyReturn() {
        TimeMachine tm = new TimeMachine(new ManualClock());
        tm.sampled(1_000, state(1));
        tm.sampled(1_250, state(7));
        assertThat(tm.live()).isTrue();
        assertThat(tm.stateProperty().get().backend("a").weight()).isEqualTo(7);

        // looking back: that moment's sample is shown, and new samples are recorded without being shown
        tm.viewAt(1_100);
        tm.sampled(1_500, state(9));
        assertThat(tm.live()).isFalse();
        assertThat(tm.viewingAtProperty().get()).isEqualTo(1_100);
        assertThat(tm.stateProperty().get().backend("a").weight()).isEqualTo(1);
        assertThat(tm.stateAt(1_500).backend("a").weight()).isEqualTo(9);
        tm.viewAt(10);
        assertThat(tm.viewingAtProperty().get()).as("no further back than the oldest kept").isEqualTo(1_000);

        // back to live: the newest sample
        tm.backToLive();
        assertThat(tm.viewingAtProperty().get()).isEqualTo(-1);
        assertThat(tm.stateProperty().get().backend("a").weight()).isEqualTo(9);

        // paused: held at the newest sample's moment
        tm.pause();
        tm.sampled(1_750, state(3));
        assertThat(tm.viewingAtProperty().get()).isEqualTo(1_500);
        assertThat(tm.stateProperty().get().backend("a").weight()).isEqualTo(9);
    }

    @Test
    void nowIsTheWindowsClock() {
        ManualClock clock = new ManualClock();
        TimeMachine tm = new TimeMachine(clock);

        clock.advanceMillis(1_234);

        assertThat(tm.now()).isEqualTo(ManualClock.WALL_START_MILLIS + 1_234);
    }

    @Test
    void itKnowsSinceWhenTheViewsStoppedFollowingTheEngine() {
        ManualClock clock = new ManualClock();
        TimeMachine tm = new TimeMachine(clock);
        tm.sampled(clock.wallMillis(), state(1));
        assertThat(tm.pausedSince()).as("live").isEqualTo(-1);

        // dragged back at one moment, and further back a second later: paused since the first
        long draggedAt = clock.wallMillis();
        tm.viewAt(draggedAt - 500);
        clock.advanceMillis(1000);
        tm.viewAt(draggedAt - 2000);
        assertThat(tm.pausedSince()).isEqualTo(draggedAt);

        tm.backToLive();
        assertThat(tm.pausedSince()).isEqualTo(-1);
        clock.advanceMillis(1000);
        tm.pause();
        assertThat(tm.pausedSince()).isEqualTo(clock.wallMillis());
    }
}
