package dev.fulcrum.admin.haproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.engine.EngineEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The events between two merged views. */
class FleetEventsTest {

    @Test
    void eventsAreDerivedFromTwoPolls() {
        EngineState before = state(info("s1", 1, "UP", "UP"), info("s2", 1, "UP", "UP"), info("s3", 1, "UP", "UP"));
        EngineState after = state(info("s1", 4, "UP", "UP"), info("s2", 1, "DRAINING", "UP"), info("s4", 1, "UP", "UNKNOWN"));
        assertThat(FleetEvents.diff(before, after, 42)).containsExactly(
                new EngineEvent("weight", "app", "s1", "1", "4", 42),
                new EngineEvent("drain", "app", "s2", "UP", "DRAINING", 42),
                new EngineEvent("membership", "app", "s4", null, "added", 42),
                new EngineEvent("membership", "app", "s3", "present", "removed", 42));

        EngineState down = state(info("s1", 4, "DOWN", "DOWN"), info("s2", 1, "DRAINING", "DOWN"), info("s4", 1, "UP", "UNKNOWN"));
        assertThat(FleetEvents.diff(after, down, 43)).containsExactly(
                new EngineEvent("health", "app", "s1", "UP", "DOWN", 43),
                new EngineEvent("health", "app", "s2", "UP", "DOWN", 43));
        assertThat(FleetEvents.diff(down, down, 44)).isEmpty();
    }

    @Test
    void leavingADrainIsADrainEventAndAWeightChangeComesFirst() {
        EngineState drained = state(info("s1", 1, "DRAINED", "UP"));
        EngineState back = state(info("s1", 3, "UP", "UP"));
        assertThat(FleetEvents.diff(drained, back, 7)).containsExactly(
                new EngineEvent("weight", "app", "s1", "1", "3", 7),
                new EngineEvent("drain", "app", "s1", "DRAINED", "UP", 7));
    }

    @Test
    void aStateChangeIsOneEventEvenWhenTheHealthChangesWithIt() {
        EngineState up = state(info("s1", 1, "UP", "UP"));
        EngineState down = state(info("s1", 1, "DOWN", "DOWN"));
        assertThat(FleetEvents.diff(up, down, 1)).containsExactly(new EngineEvent("health", "app", "s1", "UP", "DOWN", 1));
    }

    @Test
    void fromNothingEveryServerIsAddedAndToNothingRemoved() {
        EngineState none = state();
        EngineState two = state(info("s1", 1, "UP", "UP"), info("s2", 1, "UP", "UP"));
        assertThat(FleetEvents.diff(none, two, 5)).extracting(EngineEvent::backend, EngineEvent::to)
                .containsExactly(tuple("s1", "added"),
                        tuple("s2", "added"));
        assertThat(FleetEvents.diff(two, none, 6)).extracting(EngineEvent::backend, EngineEvent::to)
                .containsExactly(tuple("s1", "removed"),
                        tuple("s2", "removed"));
    }

    static EngineState state(BackendInfo... backends) {
        return new EngineState("haproxy://x:1", null, Map.of(), List.of(), List.of(backends));
    }

    static BackendInfo info(String id, int weight, String state, String health) {
        return new BackendInfo(id, "app", "http://h:1", weight, weight, state, health, null, 0, 0, 0, 0, 0,
                Double.NaN, Double.NaN, false, null, 0, 0);
    }
}
