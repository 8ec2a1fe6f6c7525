package dev.fulcrum.admin.haproxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Check results from polls: a result is a change of an instance's last check, never a check under way. */
class ProbeHistoryTest {
    private static final String A = "10.0.0.1:9999";
    private static final String B = "10.0.0.2:9999";

    @Test
    void aResultIsAppendedWhenAnInstancesLastCheckChanges() {
        ProbeHistory h = new ProbeHistory();
        h.record(List.of(server(A, "L7OK", 200, "UP", false)), 1000);
        h.record(List.of(server(A, "L7OK", 200, "UP", false)), 2000);
        h.record(List.of(server(A, "L4CON", null, "DOWN", false)), 3000);

        List<Map<String, Object>> s1 = h.snapshot().get("s1");
        assertThat(s1).extracting(p -> p.get("at")).containsExactly(1000L, 3000L);
        assertThat(s1.get(1)).containsEntry("instance", A).containsEntry("ok", false)
                .containsEntry("checkStatus", "L4CON").containsEntry("status", "DOWN").containsEntry("durationMs", 4L);
        assertThat(s1.get(1).get("code")).isNull();
    }

    @Test
    void aCheckUnderWayOrNoCheckAtAllIsNoResult() {
        ProbeHistory h = new ProbeHistory();
        for (int i = 0; i < 6; i++) {
            h.record(List.of(server(A, "L7OK", 200, "UP", i % 2 == 1)), i);
        }
        h.record(List.of(server(A, "", null, "no check", false), server(A, "INI", null, "UP", false)), 9);

        assertThat(h.snapshot().get("s1")).hasSize(1);
    }

    @Test
    void eachInstanceHasItsOwnLastResult() {
        ProbeHistory h = new ProbeHistory();
        h.record(List.of(server(A, "L7OK", 200, "UP", false), server(B, "L7OK", 200, "UP", false)), 1);
        h.record(List.of(server(A, "L7OK", 200, "UP", false), server(B, "L7STS", 500, "DOWN", false)), 2);

        assertThat(h.snapshot().get("s1")).extracting(p -> p.get("instance")).containsExactly(A, B, B);
    }

    @Test
    void theNewestResultsAreKept() {
        ProbeHistory h = new ProbeHistory();
        for (int i = 0; i < ProbeHistory.SIZE + 5; i++) {
            h.record(List.of(server(A, "L7OK", 200 + i, "UP", false)), i);
        }
        List<Map<String, Object>> s1 = h.snapshot().get("s1");
        assertThat(s1).hasSize(ProbeHistory.SIZE);
        assertThat(s1.get(0)).containsEntry("at", 5L);
        assertThat(s1.get(ProbeHistory.SIZE - 1)).containsEntry("at", (long) ProbeHistory.SIZE + 4);
    }

    private static InstanceServer server(String instance, String check, Integer code, String status, boolean running) {
        ServerStat s = new ServerStat("app", "s1", status, 1, 1, 0, 0, 0, 0, 0, 0, 0, check, code, 4, 5, false,
                "127.0.0.1:8001", null, 3, running);
        return new InstanceServer(instance, "s1", s, AdminState.READY);
    }
}
