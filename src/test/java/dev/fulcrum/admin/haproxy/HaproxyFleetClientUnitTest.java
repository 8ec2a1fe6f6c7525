package dev.fulcrum.admin.haproxy;

import static dev.fulcrum.admin.haproxy.HaproxyRuntimeParsingTest.BACKEND;
import static dev.fulcrum.admin.haproxy.HaproxyRuntimeParsingTest.HEADER;
import static dev.fulcrum.admin.haproxy.HaproxyRuntimeParsingTest.S1_DOWN;
import static dev.fulcrum.admin.haproxy.HaproxyRuntimeParsingTest.S2_DRAIN;
import static dev.fulcrum.admin.haproxy.HaproxyRuntimeParsingTest.SERVERS_STATE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.EngineException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fleet client's pure parts, and versions and failures played by {@link FakeStatsSocket}. */
class HaproxyFleetClientUnitTest {

    @Test
    void attachUrisListInstancesIncludingIpv6() {
        assertThat(HaproxyFleetClient.parseAttach("haproxy://127.0.0.1:9001,127.0.0.1:9002/"))
                .containsExactly(new InetSocketAddress("127.0.0.1", 9001), new InetSocketAddress("127.0.0.1", 9002));
        assertThat(HaproxyFleetClient.parseAttach("HAPROXY://[::1]:9999"))
                .containsExactly(new InetSocketAddress("::1", 9999));
    }

    @Test
    void malformedAttachUrisAreRefusedWithTheExpectedForm() {
        for (String bad : List.of("http://h:1", "haproxy://h", "haproxy://h:1,", "haproxy://h:0", "haproxy://h:1/x",
                "haproxy://h:99999")) {
            assertThatThrownBy(() -> HaproxyFleetClient.parseAttach(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("attach: expected haproxy://HOST:PORT[,HOST:PORT...] (got: " + bad + ")");
        }
        assertThatThrownBy(() -> HaproxyFleetClient.connect(List.of())).hasMessageContaining("at least one");
    }

    @Test
    void idsAreServerNamesUnlessTwoBackendsShareOne() {
        Map<String, HaproxyFleetClient.ServerKey> ids = HaproxyFleetClient.assignIds(Set.of(
                new HaproxyFleetClient.ServerKey("app", "s1"), new HaproxyFleetClient.ServerKey("app", "s2"),
                new HaproxyFleetClient.ServerKey("api", "s1")));
        assertThat(ids).containsOnlyKeys("s2", "app/s1", "api/s1");
        assertThat(ids.get("api/s1")).isEqualTo(new HaproxyFleetClient.ServerKey("api", "s1"));
    }

    @Test
    void serverUrlsMustBePlainHttpHostAndPort() {
        assertThat(HaproxyFleetClient.hostPort("http://127.0.0.1:8081")).isEqualTo("127.0.0.1:8081");
        // a name is resolved: HAProxy would register a server without an address
        assertThat(HaproxyFleetClient.hostPort("http://localhost/")).isIn("127.0.0.1:80", "[0:0:0:0:0:0:0:1]:80");
        assertThat(HaproxyFleetClient.hostPort("http://[::1]:8081")).isEqualTo("[::1]:8081");
        assertThatThrownBy(() -> HaproxyFleetClient.hostPort("http://no-such-host.invalid:1"))
                .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.getMessage())
                        .startsWith("url: the host does not resolve").contains("no-such-host.invalid"));
        for (String bad : List.of("https://h:1", "http://h:1/app", "h:1", "::")) {
            assertThatThrownBy(() -> HaproxyFleetClient.hostPort(bad)).as(bad)
                    .isInstanceOfSatisfying(EngineException.class, e -> {
                        assertThat(e.status()).isEqualTo(400);
                        assertThat(e.getMessage()).startsWith("url: must be http://HOST:PORT").contains(bad);
                    });
        }
    }

    @Test
    void eventsAreDerivedFromTwoPolls() {
        EngineState before = state(info("s1", 1, "UP", "UP"), info("s2", 1, "UP", "UP"), info("s3", 1, "UP", "UP"));
        EngineState after = state(info("s1", 4, "UP", "UP"), info("s2", 1, "DRAINING", "UP"), info("s4", 1, "UP", "UNKNOWN"));
        assertThat(HaproxyFleetClient.diff(before, after, 42)).containsExactly(
                new EngineEvent("weight", "app", "s1", "1", "4", 42),
                new EngineEvent("drain", "app", "s2", "UP", "DRAINING", 42),
                new EngineEvent("membership", "app", "s4", null, "added", 42),
                new EngineEvent("membership", "app", "s3", "present", "removed", 42));

        EngineState down = state(info("s1", 4, "DOWN", "DOWN"), info("s2", 1, "DRAINING", "DOWN"), info("s4", 1, "UP", "UNKNOWN"));
        assertThat(HaproxyFleetClient.diff(after, down, 43)).containsExactly(
                new EngineEvent("health", "app", "s1", "UP", "DOWN", 43),
                new EngineEvent("health", "app", "s2", "UP", "DOWN", 43));
        assertThat(HaproxyFleetClient.diff(down, down, 44)).isEmpty();
    }

    @Test
    void anHaproxyOlderThan25RefusesAddAndRemoveWith501NamingItsVersion() throws Exception {
        try (FakeStatsSocket old = new FakeStatsSocket("2.2.9-1");
             HaproxyFleetClient fleet = HaproxyFleetClient.connect(List.of(old.address()))) {
            assertThat(fleet.capabilities().addRemove()).isFalse();
            assertThatThrownBy(() -> fleet.remove("s1")).isInstanceOfSatisfying(EngineException.class, e -> {
                assertThat(e.status()).isEqualTo(501);
                assertThat(e.getMessage()).isEqualTo("HAProxy " + old.name() + ": 'del server' is not supported by "
                        + "HAProxy 2.2 (dynamic servers need HAProxy 2.5 or newer; this instance runs 2.2.9-1)");
            });
            assertThatThrownBy(() -> fleet.addBackend("app", "s9", "http://127.0.0.1:1", 1))
                    .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.status()).isEqualTo(501));
            assertThat(old.received).doesNotContain("del server app/s1").noneMatch(c -> c.startsWith("add server"));
        }
    }

    @Test
    void anUnknownCommandIsA501NamingTheVersion() throws Exception {
        try (FakeStatsSocket old = new FakeStatsSocket("1.8.30")) {
            old.answer("set server app/s1 weight 2", "Unknown command. Please enter one of the following commands only :\n");
            HaproxyRuntime rt = new HaproxyRuntime(old.address());
            assertThatThrownBy(() -> rt.setWeight("app", "s1", 2)).isInstanceOfSatisfying(EngineException.class, e -> {
                assertThat(e.status()).isEqualTo(501);
                assertThat(e.getMessage()).contains("'set server' is not supported by HAProxy 1.8");
            });
        }
    }

    @Test
    void fleetsOfMixedVersionsNameEachAndOfferAddRemoveOnlyIfAllCan() throws Exception {
        try (FakeStatsSocket a = new FakeStatsSocket("2.6.12");
             FakeStatsSocket b = new FakeStatsSocket("2.4.22");
             HaproxyFleetClient fleet = HaproxyFleetClient.connect(List.of(a.address(), b.address()))) {
            assertThat(fleet.describe()).isEqualTo("HAProxy fleet: " + a.name() + ", " + b.name() + " ("
                    + a.name() + " HAProxy 2.6.12, " + b.name() + " HAProxy 2.4.22)");
            assertThat(fleet.capabilities().addRemove()).isFalse();
            assertThat(fleet.attachUri()).isEqualTo("haproxy://" + a.name() + "," + b.name());
        }
    }

    @Test
    void mergedStateFollowsAdminStateSessionsAndChecks() throws Exception {
        try (FakeStatsSocket a = stats(new FakeStatsSocket("2.6.12"));
             HaproxyFleetClient fleet = HaproxyFleetClient.connect(List.of(a.address()))) {
            EngineState st = fleet.state();
            BackendInfo s1 = st.backend("s1");
            assertThat(s1.state()).isEqualTo("DOWN");
            assertThat(s1.health()).isEqualTo("DOWN");
            BackendInfo s2 = st.backend("s2"); // drain with 3 sessions left
            assertThat(s2.state()).isEqualTo("DRAINING");
            assertThat(s2.weight()).isEqualTo(5);
            assertThat(s2.effectiveWeight()).isZero();
            assertThat(s2.activeRequests()).isEqualTo(3);
            assertThat(s2.failures()).isEqualTo(2 + 1 + 4);
            assertThat(s2.breaker()).isNull();
            assertThat(s2.latencyP50Ms()).isNaN();
            assertThat(st.pools().get("app").inFlight()).isEqualTo(3);
        }
    }

    @Test
    void anInstanceThatStopsAnsweringIsNamedAndTheOthersStillShow() throws Exception {
        try (FakeStatsSocket a = stats(new FakeStatsSocket("2.6.12"))) {
            FakeStatsSocket b = stats(new FakeStatsSocket("2.6.12"));
            try (HaproxyFleetClient fleet = HaproxyFleetClient.connect(List.of(a.address(), b.address()))) {
                b.close();
                FleetState fs = fleet.fleetState();
                assertThat(fs.unreachable()).containsOnlyKeys(b.name());
                assertThat(fs.state().backend("s2").activeRequests()).isEqualTo(3);

                assertThatThrownBy(() -> fleet.setWeight("s2", 3)).isInstanceOfSatisfying(EngineException.class, e -> {
                    assertThat(e.status()).isEqualTo(502);
                    assertThat(e.getMessage()).startsWith("set weight of s2 to 3 failed on " + b.name())
                            .endsWith("applied on " + a.name());
                });
                assertThat(a.received).contains("set server app/s2 weight 3");
            }
        }
    }

    @Test
    void addingAServerSendsAddThenEnablesItAndItsChecksWhenSiblingsAreChecked() throws Exception {
        try (FakeStatsSocket a = stats(new FakeStatsSocket("2.6.12"));
             HaproxyFleetClient fleet = HaproxyFleetClient.connect(List.of(a.address()))) {
            fleet.addBackend("app", "s9", "http://127.0.0.1:8089", 3);
            assertThat(a.received).containsSubsequence("add server app/s9 127.0.0.1:8089 weight 3 check",
                    "enable health app/s9", "enable server app/s9");
            assertThatThrownBy(() -> fleet.addBackend("nope", "s9", "http://127.0.0.1:8089", 3))
                    .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.status()).isEqualTo(404));
        }
    }

    private static FakeStatsSocket stats(FakeStatsSocket f) {
        return f.answer("show stat", HEADER + S1_DOWN + S2_DRAIN + BACKEND + "\n")
                .answer("show servers state", SERVERS_STATE.replace("3 app 3 s3 127.0.0.1 0 1 2 2 0 1 0 0 0 0 0 0 - 19995 - 0 0 - - 0\n", ""));
    }

    private static EngineState state(BackendInfo... backends) {
        return new EngineState("haproxy://x:1", null, Map.of(), List.of(), List.of(backends));
    }

    private static BackendInfo info(String id, int weight, String state, String health) {
        return new BackendInfo(id, "app", "http://h:1", weight, weight, state, health, null, 0, 0, 0, 0, 0,
                Double.NaN, Double.NaN, false, null, 0, 0);
    }
}
