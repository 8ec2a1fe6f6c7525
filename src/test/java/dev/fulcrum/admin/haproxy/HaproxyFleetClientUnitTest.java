package dev.fulcrum.admin.haproxy;

import static dev.fulcrum.admin.haproxy.HaproxyRuntimeParsingTest.BACKEND;
import static dev.fulcrum.admin.haproxy.HaproxyRuntimeParsingTest.HEADER;
import static dev.fulcrum.admin.haproxy.HaproxyRuntimeParsingTest.S1_DOWN;
import static dev.fulcrum.admin.haproxy.HaproxyRuntimeParsingTest.S2_DRAIN;
import static dev.fulcrum.admin.haproxy.HaproxyRuntimeParsingTest.SERVERS_STATE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The fleet client against {@link FakeStatsSocket}s: versions and failures the installed HAProxy cannot play, and
 * its event polls on a {@link ManualClock}.
 */
class HaproxyFleetClientUnitTest {
    private static final Duration DEADLINE = Duration.ofSeconds(10);

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

    @Test
    void eventsArePolledWhenTheClockReachesThePollPeriodAndStampedWithItsTime() throws Exception {
        ManualClock clock = new ManualClock();
        List<EngineEvent> events = new CopyOnWriteArrayList<>();
        try (FakeStatsSocket a = stats(new FakeStatsSocket("2.6.12"));
             HaproxyFleetClient fleet = HaproxyFleetClient.connect(List.of(a.address()), clock)) {
            fleet.subscribe(events::add);
            int baseline = showStats(a);
            assertThat(baseline).as("the baseline poll, before subscribe returns").isEqualTo(1);
            a.answer("show servers state", serversState().replace("2 s2 127.0.0.1 2 8 5", "2 s2 127.0.0.1 2 8 6"));

            clock.advanceMillis(FleetPoller.POLL_MS);

            await().atMost(DEADLINE).untilAsserted(() -> assertThat(events).containsExactly(new EngineEvent(
                    "weight", "app", "s2", "5", "6", ManualClock.WALL_START_MILLIS + FleetPoller.POLL_MS)));
            assertThat(showStats(a)).isEqualTo(baseline + 1);
        }
        assertThat(clock.pending()).as("close cancels the client's polls").isZero();
        AtomicBoolean ran = new AtomicBoolean();
        clock.schedule(() -> ran.set(true), 1, TimeUnit.MILLISECONDS);
        clock.advanceMillis(1);
        assertThat(ran).as("a scheduler the client was given keeps running").isTrue();
    }

    @Test
    void probeResultsAreStampedWithTheClocksWallTime() throws Exception {
        ManualClock clock = new ManualClock();
        try (FakeStatsSocket a = stats(new FakeStatsSocket("2.6.12"));
             HaproxyFleetClient fleet = HaproxyFleetClient.connect(List.of(a.address()), clock)) {
            clock.advanceMillis(2500);
            assertThat(fleet.probeHistory().get("s2")).extracting(p -> p.get("at"))
                    .containsExactly(ManualClock.WALL_START_MILLIS + 2500);
        }
    }

    @Test
    void aClientWithItsOwnSchedulerStopsItsThreadOnClose() throws Exception {
        try (FakeStatsSocket a = stats(new FakeStatsSocket("2.6.12"))) {
            List<Thread> before = pollerThreads();
            HaproxyFleetClient fleet = HaproxyFleetClient.connect(List.of(a.address()));
            fleet.subscribe(e -> { });
            List<Thread> own = pollerThreads().stream().filter(t -> !before.contains(t)).toList();
            assertThat(own).hasSize(1);

            fleet.close();

            await().atMost(DEADLINE).until(() -> own.stream().noneMatch(Thread::isAlive));
            assertThatThrownBy(fleet::state).isInstanceOf(IllegalStateException.class).hasMessageContaining("is closed");
        }
    }

    private static List<Thread> pollerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("haproxy-fleet-poller") && t.isAlive()).toList();
    }

    private static int showStats(FakeStatsSocket f) {
        return (int) f.received.stream().filter("show stat"::equals).count();
    }

    private static FakeStatsSocket stats(FakeStatsSocket f) {
        return f.answer("show stat", HEADER + S1_DOWN + S2_DRAIN + BACKEND + "\n")
                .answer("show servers state", serversState());
    }

    /** The captured servers state without s3, which the captured stats do not have. */
    private static String serversState() {
        return SERVERS_STATE.replace("3 app 3 s3 127.0.0.1 0 1 2 2 0 1 0 0 0 0 0 0 - 19995 - 0 0 - - 0\n", "");
    }
}
