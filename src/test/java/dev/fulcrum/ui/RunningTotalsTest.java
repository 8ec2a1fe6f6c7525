package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState.BackendInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunningTotalsTest {
    private static BackendInfo backend(String id, long total, long failures) {
        return new BackendInfo(id, "default", "http://127.0.0.1:1", 1, 1, "UP", "UP", null, 0, total, failures, 0, 0,
                0, 0, false, null, 0, 0);
    }

    @Test
    void theTotalDoesNotGoDownWhenABackendIsRemoved() {
        MainController.RunningTotals t = new MainController.RunningTotals();
        assertThat(t.add(List.of(backend("a", 100, 3), backend("c", 50, 2)))).containsExactly(150, 5);
        assertThat(t.add(List.of(backend("a", 120, 3)))).containsExactly(170, 5); // c removed: its 50 still count
        assertThat(t.add(List.of(backend("a", 130, 4)))).containsExactly(180, 6);
    }

    @Test
    void aBackendRemovedAndAddedAgainBetweenSamplesKeepsItsEarlierCount() {
        MainController.RunningTotals t = new MainController.RunningTotals();
        t.add(List.of(backend("a", 100, 0)));
        assertThat(t.add(List.of(backend("a", 7, 1)))).containsExactly(107, 1);
    }
}
