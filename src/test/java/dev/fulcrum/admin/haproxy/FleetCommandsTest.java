package dev.fulcrum.admin.haproxy;

import static dev.fulcrum.admin.haproxy.HaproxyRuntimeParsingTest.BACKEND;
import static dev.fulcrum.admin.haproxy.HaproxyRuntimeParsingTest.HEADER;
import static dev.fulcrum.admin.haproxy.HaproxyRuntimeParsingTest.S1_DOWN;
import static dev.fulcrum.admin.haproxy.HaproxyRuntimeParsingTest.S2_DRAIN;
import static dev.fulcrum.admin.haproxy.HaproxyRuntimeParsingTest.SERVERS_STATE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.engine.EngineException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Commands to every instance, played against {@link FakeStatsSocket}s: the order, what is sent, and what the caller
 * hears when some instances refuse.
 */
class FleetCommandsTest {
    private static final String NO_SUCH_SERVER = "No such server.\n";
    private final List<FakeStatsSocket> sockets = new ArrayList<>();

    @AfterEach
    void closeSockets() throws Exception {
        for (FakeStatsSocket s : sockets) {
            s.close();
        }
    }

    @Test
    void serverUrlsMustBePlainHttpHostAndPort() {
        assertThat(FleetCommands.hostPort("http://127.0.0.1:8081")).isEqualTo("127.0.0.1:8081");
        // a name is resolved: HAProxy would register a server without an address
        assertThat(FleetCommands.hostPort("http://localhost/")).isIn("127.0.0.1:80", "[0:0:0:0:0:0:0:1]:80");
        assertThat(FleetCommands.hostPort("http://[::1]:8081")).isEqualTo("[::1]:8081");
        assertThatThrownBy(() -> FleetCommands.hostPort("http://no-such-host.invalid:1"))
                .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.getMessage())
                        .startsWith("url: the host does not resolve").contains("no-such-host.invalid"));
        for (String bad : List.of("https://h:1", "http://h:1/app", "h:1", "::")) {
            assertThatThrownBy(() -> FleetCommands.hostPort(bad)).as(bad)
                    .isInstanceOfSatisfying(EngineException.class, e -> {
                        assertThat(e.status()).isEqualTo(400);
                        assertThat(e.getMessage()).startsWith("url: must be http://HOST:PORT").contains(bad);
                    });
        }
        assertThatThrownBy(() -> FleetCommands.hostPort(null)).isInstanceOfSatisfying(EngineException.class,
                e -> assertThat(e.getMessage()).isEqualTo("url: must be http://HOST:PORT (got: null)"));
    }

    @Test
    void weightDrainAndEnableReachEveryInstance() throws Exception {
        FakeStatsSocket a = socket("2.6.12");
        FakeStatsSocket b = socket("2.6.12");
        FleetCommands c = commands(a, b);

        c.setWeight("s1", 3);
        c.drain("s1");
        c.enable("s1");

        for (FakeStatsSocket s : List.of(a, b)) {
            assertThat(s.received).containsSubsequence("set server app/s1 weight 3", "set server app/s1 state drain",
                    "set server app/s1 state ready");
        }
    }

    @Test
    void aRefusalOnOneInstanceDoesNotStopTheOthersAndIsReportedWithThoseThatApplied() throws Exception {
        FakeStatsSocket a = socket("2.6.12").answer("set server app/s1 weight 3", NO_SUCH_SERVER);
        FakeStatsSocket b = socket("2.6.12");

        assertThatThrownBy(() -> commands(a, b).setWeight("s1", 3)).isInstanceOfSatisfying(EngineException.class, e -> {
            assertThat(e.status()).isEqualTo(404);
            assertThat(e.getMessage()).isEqualTo("set weight of s1 to 3 failed on " + a.name() + " (HAProxy " + a.name()
                    + ": set server app/s1 weight 3: No such server.); applied on " + b.name());
        });
        assertThat(b.received).contains("set server app/s1 weight 3");
    }

    @Test
    void whenEveryInstanceRefusesTheStatusIsTheFirstRefusals() throws Exception {
        FakeStatsSocket a = socket("2.6.12").answer("set server app/s1 state drain", NO_SUCH_SERVER);
        FakeStatsSocket b = socket("2.6.12").answer("set server app/s1 state drain", "Permission denied\n");

        assertThatThrownBy(() -> commands(a, b).drain("s1")).isInstanceOfSatisfying(EngineException.class, e -> {
            assertThat(e.status()).isEqualTo(404);
            assertThat(e.getMessage()).startsWith("drain s1 failed on " + a.name() + " (")
                    .contains(", " + b.name() + " (HAProxy " + b.name() + ": set server app/s1 state drain: Permission denied")
                    .doesNotContain("applied on");
        });
    }

    @Test
    void aWeightOutsideHaproxysRangeReachesNoInstance() throws Exception {
        FakeStatsSocket a = socket("2.6.12");

        assertThatThrownBy(() -> commands(a).setWeight("s1", 257)).isInstanceOfSatisfying(EngineException.class,
                e -> assertThat(e.getMessage()).isEqualTo("weight: must be between 0 and 256 for HAProxy (got: 257)"));
        assertThatThrownBy(() -> commands(a).setWeight("s1", -1)).isInstanceOf(EngineException.class);
        assertThat(a.received).noneMatch(c -> c.startsWith("set server"));
    }

    @Test
    void aRemoveIsDoneOnAnInstanceThatNoLongerHasTheServer() throws Exception {
        FakeStatsSocket a = socket("2.6.12").answer("del server app/s1", NO_SUCH_SERVER);
        FakeStatsSocket b = socket("2.6.12");

        commands(a, b).remove("s1");

        assertThat(b.received).containsSubsequence("set server app/s1 state maint", "del server app/s1");
    }

    @Test
    void aRemoveNoInstanceHasIsA404NamingTheFleet() throws Exception {
        FakeStatsSocket a = socket("2.6.12").answer("del server app/s1", NO_SUCH_SERVER);
        FakeStatsSocket b = socket("2.6.12").answer("del server app/s1", NO_SUCH_SERVER);

        assertThatThrownBy(() -> commands(a, b).remove("s1")).isInstanceOfSatisfying(EngineException.class, e -> {
            assertThat(e.status()).isEqualTo(404);
            assertThat(e.getMessage()).isEqualTo("id: no HAProxy server 's1' on haproxy://fleet");
        });
    }

    @Test
    void aRemoveRefusedWhileSessionsRemainIsA409NamingWhereItWasApplied() throws Exception {
        FakeStatsSocket a = socket("2.6.12").answer("del server app/s1",
                "Server still has connections attached to it, cannot remove it.\n");
        FakeStatsSocket b = socket("2.6.12");

        assertThatThrownBy(() -> commands(a, b).remove("s1")).isInstanceOfSatisfying(EngineException.class, e -> {
            assertThat(e.status()).isEqualTo(409);
            assertThat(e.getMessage()).startsWith("remove s1 failed on " + a.name()).endsWith("applied on " + b.name());
        });
        assertThat(a.received).as("left in maintenance to drain").doesNotContain("set server app/s1 state ready");
    }

    @Test
    void addAndRemoveNeedDynamicServersOnEveryInstanceAndReachNoneOtherwise() throws Exception {
        FakeStatsSocket a = socket("2.6.12");
        FakeStatsSocket b = socket("2.4.22");
        FleetCommands c = commands(a, b);

        assertThatThrownBy(() -> c.add("app", "s9", "http://127.0.0.1:8089", 1, null, false))
                .isInstanceOfSatisfying(EngineException.class, e -> {
                    assertThat(e.status()).isEqualTo(501);
                    assertThat(e.getMessage()).isEqualTo("HAProxy " + b.name() + ": 'add server' is not supported by "
                            + "HAProxy 2.4 (dynamic servers need HAProxy 2.5 or newer; this instance runs 2.4.22)");
                });
        assertThatThrownBy(() -> c.remove("s1")).isInstanceOfSatisfying(EngineException.class,
                e -> assertThat(e.status()).isEqualTo(501));
        for (FakeStatsSocket s : List.of(a, b)) {
            assertThat(s.received).noneMatch(x -> x.startsWith("add server") || x.startsWith("del server")
                    || x.startsWith("set server"));
        }
    }

    @Test
    void anAddedServerIsCheckedWhenItsSiblingsAreAndKeepsItsCapAndBackupFlag() throws Exception {
        FakeStatsSocket a = socket("2.6.12");
        FakeStatsSocket b = socket("2.6.12");

        commands(a, b).add("app", "s9", "http://127.0.0.1:8089", 3, 50, true);

        for (FakeStatsSocket s : List.of(a, b)) {
            assertThat(s.received).containsSubsequence("add server app/s9 127.0.0.1:8089 weight 3 check maxconn 50 backup",
                    "enable health app/s9", "enable server app/s9");
        }
    }

    @Test
    void anAddedServerIsUncheckedWhenItsSiblingsAre() throws Exception {
        FakeStatsSocket a = socket("2.6.12");
        String unchecked = "# pxname,svname,scur,status,weight,bck,addr,algo\napp,s1,0,UP,1,0,10.0.0.1:80,\n"
                + "app,BACKEND,0,UP,1,0,,roundrobin\n";
        FleetCommands c = new FleetCommands(List.of(new HaproxyRuntime(a.address())), "haproxy://fleet",
                id -> new ServerKey("app", id), () -> fleet(a.name(), unchecked));

        c.add(null, "s9", "http://127.0.0.1:8089", 1, null, false);

        assertThat(a.received).contains("add server app/s9 127.0.0.1:8089 weight 1", "enable server app/s9")
                .doesNotContain("enable health app/s9");
    }

    @Test
    void anAdditionNamesTheBackendItCannotFindOrCannotChoose() throws Exception {
        FakeStatsSocket a = socket("2.6.12");
        FleetCommands c = commands(a);

        assertThatThrownBy(() -> c.add("nope", "s9", "http://127.0.0.1:1", 1, null, false))
                .isInstanceOfSatisfying(EngineException.class, e -> {
                    assertThat(e.status()).isEqualTo(404);
                    assertThat(e.getMessage()).isEqualTo("pool: no HAProxy backend named 'nope' (have: app)");
                });
        assertThatThrownBy(() -> c.add("app", "api/s9", "http://127.0.0.1:1", 1, null, false))
                .isInstanceOfSatisfying(EngineException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).isEqualTo("pool: 'app' differs from the backend in id 'api/s9'");
                });
        assertThatThrownBy(() -> c.add("app", "s;9", "http://127.0.0.1:1", 1, null, false))
                .isInstanceOfSatisfying(EngineException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).startsWith("id: ").endsWith("(got: s;9)");
                });
        assertThat(a.received).noneMatch(x -> x.startsWith("add server"));
    }

    // ------------------------------------------------------------------ fixtures

    private FakeStatsSocket socket(String version) throws Exception {
        FakeStatsSocket s = new FakeStatsSocket(version).answer("show servers state", SERVERS_STATE);
        sockets.add(s);
        return s;
    }

    /** Commands to these sockets; ids are servers of {@code app}; the fleet's poll is the parsing test's capture. */
    private static FleetCommands commands(FakeStatsSocket... fakes) {
        List<HaproxyRuntime> rts = new ArrayList<>();
        for (FakeStatsSocket f : fakes) {
            rts.add(new HaproxyRuntime(f.address()));
        }
        return new FleetCommands(rts, "haproxy://fleet", id -> new ServerKey("app", id),
                () -> fleet(fakes[0].name(), HEADER + S1_DOWN + S2_DRAIN + BACKEND));
    }

    private static FleetState fleet(String instance, String showStat) {
        FleetMerge.InstancePoll p = new FleetMerge.InstancePoll(HaproxyRuntime.parseStat(instance, showStat),
                HaproxyRuntime.parseServersState(instance, SERVERS_STATE));
        return FleetMerge.merge("haproxy://fleet", Map.of(instance, p), Map.of(), Map.of()).fleet();
    }
}
