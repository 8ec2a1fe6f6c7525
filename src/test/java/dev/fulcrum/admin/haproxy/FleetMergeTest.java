package dev.fulcrum.admin.haproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.engine.EngineException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Merging the instances' answers into one view: sums, the first instance's settings, disagreements, silence. */
class FleetMergeTest {
    private static final String A = "10.0.0.1:9999";
    private static final String B = "10.0.0.2:9999";
    private static final int READY = 0;
    private static final int DRAIN = 0x08;

    @Test
    void idsAreServerNamesUnlessTwoBackendsShareOne() {
        Map<String, ServerKey> ids = FleetMerge.assignIds(Set.of(
                new ServerKey("app", "s1"), new ServerKey("app", "s2"),
                new ServerKey("api", "s1")));
        assertThat(ids).containsOnlyKeys("s2", "app/s1", "api/s1");
        assertThat(ids.get("api/s1")).isEqualTo(new ServerKey("api", "s1"));
    }

    @Test
    void instancesThatAgreeAreSummedServerByServer() {
        FleetMerge.Merged m = merge(Map.of(),
                A, poll(4, up("s1", 1, 2, 100, 3), up("s2", 1, 0, 10, 0)),
                B, poll(3, up("s1", 1, 3, 50, 1), up("s2", 1, 0, 20, 0)));
        EngineState st = m.fleet().state();

        assertThat(st.proxy()).isEqualTo("haproxy://fleet");
        assertThat(st.backends()).extracting(BackendInfo::id).containsExactly("s1", "s2");
        BackendInfo s1 = st.backend("s1");
        assertThat(s1.pool()).isEqualTo("app");
        assertThat(s1.url()).isEqualTo("http://127.0.0.1:8001");
        assertThat(s1.state()).isEqualTo("UP");
        assertThat(s1.health()).isEqualTo("UP");
        assertThat(s1.activeRequests()).isEqualTo(5);
        assertThat(s1.totalRequests()).isEqualTo(150);
        assertThat(s1.failures()).isEqualTo(4);
        assertThat(s1.rps()).isEqualTo(2.0);
        assertThat(s1.errorRate()).as("no previous poll").isZero();
        assertThat(st.pools()).containsOnlyKeys("app");
        assertThat(st.pools().get("app").inFlight()).isEqualTo(7);
        assertThat(st.pools().get("app").strategy()).containsEntry("type", "haproxy:roundrobin");
        assertThat(st.strategy()).containsEntry("type", "haproxy:roundrobin");
        assertThat(m.fleet().divergence()).isEmpty();
        assertThat(m.fleet().unreachable()).isEmpty();
        assertThat(m.fleet().servers()).extracting(InstanceServer::id, InstanceServer::instance).containsExactly(
                tuple("s1", A), tuple("s1", B),
                tuple("s2", A), tuple("s2", B));
        assertThat(m.ids()).containsOnlyKeys("s1", "s2");
        assertThat(m.counters()).containsEntry("s1", new FleetMerge.Counters(150, 4));
    }

    @Test
    void aWeightTheInstancesDisagreeOnIsTheFirstInstancesAndReportedNotAveraged() {
        FleetMerge.Merged m = merge(Map.of(), A, poll(0, up("s1", 7, 0, 0, 0)), B, poll(0, up("s1", 1, 0, 0, 0)));

        assertThat(m.fleet().state().backend("s1").weight()).isEqualTo(7);
        assertThat(m.fleet().divergence()).containsExactly(new Divergence("s1", "weight", Map.of(A, "7", B, "1")));
        assertThat(m.fleet().divergence().get(0).describe()).isEqualTo("s1: weight differs: " + A + "=7, " + B + "=1");
    }

    @Test
    void anAdminStateTheInstancesDisagreeOnIsTheFirstInstancesAndReported() {
        FleetMerge.Merged drainedFirst = adminStates(DRAIN, 2, READY);
        assertThat(drainedFirst.fleet().state().backend("s1").state()).isEqualTo("DRAINING");
        assertThat(drainedFirst.fleet().divergence())
                .containsExactly(new Divergence("s1", "admin", Map.of(A, "drain", B, "ready")));
        assertThat(drainedFirst.fleet().servers()).extracting(InstanceServer::admin)
                .containsExactly(AdminState.DRAIN, AdminState.READY);

        FleetMerge.Merged readyFirst = adminStates(READY, 0, DRAIN);
        assertThat(readyFirst.fleet().state().backend("s1").state()).isEqualTo("UP");
        assertThat(readyFirst.fleet().divergence())
                .containsExactly(new Divergence("s1", "admin", Map.of(A, "ready", B, "drain")));
    }

    @Test
    void aServerOnSomeInstancesOnlyIsShownFromThoseAndReported() {
        FleetMerge.Merged m = merge(Map.of(),
                A, poll(0, up("s1", 1, 0, 0, 0)),
                B, poll(0, up("s1", 1, 0, 0, 0), up("s9", 3, 1, 0, 0)));

        BackendInfo s9 = m.fleet().state().backend("s9");
        assertThat(s9.weight()).isEqualTo(3);
        assertThat(s9.activeRequests()).isEqualTo(1);
        assertThat(m.fleet().divergence()).containsExactly(
                new Divergence("s9", "presence", Map.of(A, "absent", B, "present")));
    }

    @Test
    void aServerDownOnOneInstanceIsDown() {
        FleetMerge.Merged m = merge(Map.of(), A, poll(0, up("s1", 1, 0, 0, 0)),
                B, poll(0, stat("s1", "DOWN", 1, 0, 0, 0, "L4CON")));

        BackendInfo s1 = m.fleet().state().backend("s1");
        assertThat(s1.state()).isEqualTo("DOWN");
        assertThat(s1.health()).isEqualTo("DOWN");
    }

    @Test
    void aServerNoInstanceChecksHasUnknownHealth() {
        FleetMerge.Merged m = merge(Map.of(), A, poll(0, stat("s1", "no check", 1, 0, 0, 0, "")));

        BackendInfo s1 = m.fleet().state().backend("s1");
        assertThat(s1.state()).isEqualTo("UP");
        assertThat(s1.health()).isEqualTo("UNKNOWN");
    }

    @Test
    void anInstanceThatDoesNotAnswerIsLeftOutAndNamed() {
        Map<String, FleetMerge.InstancePoll> answered = new LinkedHashMap<>();
        answered.put(A, poll(2, up("s1", 7, 2, 100, 0)));
        FleetMerge.Merged m = FleetMerge.merge("haproxy://fleet", answered, Map.of(B, "connection refused"), Map.of());

        assertThat(m.fleet().unreachable()).containsExactly(Map.entry(B, "connection refused"));
        BackendInfo s1 = m.fleet().state().backend("s1");
        assertThat(s1.activeRequests()).isEqualTo(2);
        assertThat(s1.weight()).isEqualTo(7);
        assertThat(m.fleet().divergence()).as("a silent instance is no disagreement").isEmpty();
        assertThat(m.fleet().servers()).extracting(InstanceServer::instance).containsExactly(A);
    }

    @Test
    void whenNoInstanceAnswersTheMergeIsA502NamingEachReason() {
        Map<String, String> unreachable = new LinkedHashMap<>();
        unreachable.put(A, "HAProxy " + A + ": timed out");
        unreachable.put(B, "HAProxy " + B + ": refused");
        assertThatThrownBy(() -> FleetMerge.merge("haproxy://fleet", Map.of(), unreachable, Map.of()))
                .isInstanceOfSatisfying(EngineException.class, e -> {
                    assertThat(e.status()).isEqualTo(502);
                    assertThat(e.getMessage()).isEqualTo("no HAProxy instance answered: HAProxy " + A
                            + ": timed out; HAProxy " + B + ": refused");
                });
    }

    @Test
    void theErrorRateIsOfTheRequestsSinceThePreviousPoll() {
        Map<String, FleetMerge.Counters> previous = Map.of("s1", new FleetMerge.Counters(100, 4));
        FleetMerge.Merged m = merge(previous, A, poll(0, up("s1", 1, 0, 150, 9)));
        assertThat(m.fleet().state().backend("s1").errorRate()).isEqualTo(0.1); // 5 of 50
        assertThat(m.counters()).containsExactly(Map.entry("s1", new FleetMerge.Counters(150, 9)));

        // counters that went back (an instance restarted) give no rate rather than a negative one
        FleetMerge.Merged restarted = merge(Map.of("s1", new FleetMerge.Counters(150, 9)), A, poll(0, up("s1", 1, 0, 20, 1)));
        assertThat(restarted.fleet().state().backend("s1").errorRate()).isZero();
    }

    @Test
    void serversOfTwoBackendsWithOneNameGetLongIdsAndTheirOwnPools() {
        FleetMerge.InstancePoll p = new FleetMerge.InstancePoll(new HaproxyRuntime.Stats(
                List.of(stat("app", "s1"), stat("api", "s1"), stat("app", "s2")),
                List.of(new BackendStat("app", "roundrobin", "UP", 0), new BackendStat("api", "leastconn", "UP", 0))),
                List.of());
        FleetMerge.Merged m = FleetMerge.merge("haproxy://fleet", Map.of(A, p), Map.of(), Map.of());

        assertThat(m.fleet().state().backends()).extracting(BackendInfo::id, BackendInfo::pool).containsExactly(
                tuple("api/s1", "api"), tuple("app/s1", "app"),
                tuple("s2", "app"));
        assertThat(m.ids()).containsEntry("api/s1", new ServerKey("api", "s1"));
        assertThat(m.fleet().state().pools().get("api").strategy()).containsEntry("type", "haproxy:leastconn");
        assertThat(m.fleet().state().strategy()).as("the first backend's").containsEntry("type", "haproxy:roundrobin");
    }

    // ------------------------------------------------------------------ fixtures

    /** A and then B (attach order). */
    private static FleetMerge.Merged merge(Map<String, FleetMerge.Counters> previous, String i1, FleetMerge.InstancePoll p1,
                                           String i2, FleetMerge.InstancePoll p2) {
        Map<String, FleetMerge.InstancePoll> answered = new LinkedHashMap<>();
        answered.put(i1, p1);
        answered.put(i2, p2);
        return FleetMerge.merge("haproxy://fleet", answered, Map.of(), previous);
    }

    private static FleetMerge.Merged merge(Map<String, FleetMerge.Counters> previous, String i1, FleetMerge.InstancePoll p1) {
        Map<String, FleetMerge.InstancePoll> answered = new LinkedHashMap<>();
        answered.put(i1, p1);
        return FleetMerge.merge("haproxy://fleet", answered, Map.of(), previous);
    }

    /** Server s1 on A (admin bits, sessions) and on B (admin bits, no sessions). */
    private static FleetMerge.Merged adminStates(int adminA, int sessionsA, int adminB) {
        return merge(Map.of(), A, poll(0, List.of(up("s1", 1, sessionsA, 0, 0)), List.of(adminA)),
                B, poll(0, List.of(up("s1", 1, 0, 0, 0)), List.of(adminB)));
    }

    /** Backend {@code app} with these servers, all ready, and {@code backendSessions} on its BACKEND row. */
    private static FleetMerge.InstancePoll poll(int backendSessions, ServerStat... servers) {
        return poll(backendSessions, List.of(servers), List.of(servers).stream().map(s -> READY).toList());
    }

    private static FleetMerge.InstancePoll poll(int backendSessions, List<ServerStat> servers, List<Integer> adminBits) {
        List<ServerState> states = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            ServerStat s = servers.get(i);
            states.add(new ServerState(s.backend(), s.server(), "127.0.0.1", 8000, 2, adminBits.get(i), s.userWeight(),
                    s.userWeight()));
        }
        return new FleetMerge.InstancePoll(new HaproxyRuntime.Stats(servers,
                List.of(new BackendStat("app", "roundrobin", "UP", backendSessions))), states);
    }

    private static ServerStat up(String server, int weight, int sessions, long total, long failures) {
        return stat(server, "UP", weight, sessions, total, failures, "L7OK");
    }

    private static ServerStat stat(String backend, String server) {
        return new ServerStat(backend, server, "UP", 1, 1, 0, 0, 0, 0, 0, 0, 0, "L7OK", 200, 1, 5, false,
                "127.0.0.1:8001", null, 3, false);
    }

    /** Failures are counted as connect errors; a server's rate is 1 session per second. */
    private static ServerStat stat(String server, String status, int weight, int sessions, long total, long failures,
                                   String check) {
        return new ServerStat("app", server, status, weight, weight, sessions, 0, 1, total, failures, 0, 0, check,
                check.equals("L7OK") ? 200 : null, 1, 5, false, "127.0.0.1:" + (8000 + Integer.parseInt(server.substring(1))),
                null, 3, false);
    }
}
