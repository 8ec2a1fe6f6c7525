package dev.fulcrum.admin.haproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.demo.DemoBackend;
import dev.fulcrum.demo.DemoSpec;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.time.ManualClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.core.ThrowingRunnable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real HAProxy processes on loopback in front of two demo backends, managed as one fleet. Skipped when
 * {@code haproxy} is not installed (CI installs it). The fleet polls for events on a {@link ManualClock}: a test
 * moves it to start a poll and waits for the poll's real I/O.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HaproxyFleetClientTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private DemoBackend s1;
    private DemoBackend s2;
    private DemoBackend s3;
    private HaproxyProcess a;
    private HaproxyProcess b;
    private HaproxyFleetClient fleet;
    private final ManualClock clock = new ManualClock();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void startFleet(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(HaproxyProcess.available(), "haproxy is not on PATH");
        s1 = DemoBackend.start(DemoSpec.of("s1", 0, 1));
        s2 = DemoBackend.start(DemoSpec.of("s2", 0, 1));
        s3 = DemoBackend.start(DemoSpec.of("s3", 0, 1));
        a = HaproxyProcess.start(dir, "a", s1.port(), s2.port());
        b = HaproxyProcess.start(dir, "b", s1.port(), s2.port());
        fleet = HaproxyFleetClient.connect(List.of(a.stats(), b.stats()), clock);
    }

    @AfterAll
    void stopFleet() {
        for (AutoCloseable c : new AutoCloseable[]{fleet, a, b, s1, s2, s3}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // best effort: the next resource must still be closed
                }
            }
        }
    }

    /** Every test starts from weights 1/1, all ready, all demo backends up and fast, no extra servers. */
    @BeforeEach
    void reset() {
        s1.update(0.0, 0.0, false);
        s2.update(0.0, 0.0, false);
        for (HaproxyProcess h : List.of(a, b)) {
            HaproxyRuntime rt = h.runtime();
            for (String s : List.of("s1", "s2")) {
                rt.setWeight("app", s, 1);
                rt.setState("app", s, AdminState.READY);
            }
            for (String extra : List.of("s3", "only-a")) {
                try {
                    rt.deleteServer("app", extra);
                } catch (EngineException ignored) {
                    // not there: nothing to clean
                }
            }
        }
        await().atMost(DEADLINE).untilAsserted(() -> {
            EngineState st = fleet.state();
            assertThat(st.backends()).extracting(BackendInfo::id).contains("s1", "s2").doesNotContain("s3");
            assertThat(st.backend("s1").state()).isEqualTo("UP");
            assertThat(st.backend("s2").state()).isEqualTo("UP");
            assertThat(fleet.divergence()).isEmpty();
        });
    }

    @Test
    void describesTheFleetWithItsVersionAndWhatItCannotShow() {
        String version = a.runtime().version().text();
        assertThat(fleet.describe()).isEqualTo("HAProxy fleet: " + a.name() + ", " + b.name() + " (HAProxy " + version + ")");
        EngineClient.Capabilities caps = fleet.capabilities();
        assertThat(caps.ring()).isFalse();
        assertThat(caps.breakerWindow()).isFalse();
        assertThat(caps.demo()).isFalse();
        assertThat(caps.strategies()).isFalse();
        assertThat(caps.addRemove()).isEqualTo(a.runtime().version().supportsDynamicServers());
        assertThat(fleet.ring("app")).isNull();
        assertThatThrownBy(() -> fleet.lookup("app", "k")).isInstanceOfSatisfying(EngineException.class,
                e -> assertThat(e.status()).isEqualTo(501));
        assertThatThrownBy(() -> fleet.setStrategy("app", Map.of("type", "round-robin")))
                .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.status()).isEqualTo(501));
    }

    @Test
    void stateShowsBothServersUpWithWeightsPoolsAndNoBreaker() {
        EngineState st = fleet.state();
        BackendInfo one = st.backend("s1");
        assertThat(one.pool()).isEqualTo("app");
        assertThat(one.url()).isEqualTo("http://127.0.0.1:" + s1.port());
        assertThat(one.weight()).isEqualTo(1);
        assertThat(one.state()).isEqualTo("UP");
        assertThat(one.health()).isEqualTo("UP");
        assertThat(one.breaker()).isNull();
        assertThat(st.pools()).containsKeys("app", "st");
        assertThat(st.pools().get("app").strategy()).containsEntry("type", "haproxy:roundrobin");
        // the st backend's server "a" is not checked: its health is unknown, not made up
        assertThat(st.backend("a").health()).isEqualTo("UNKNOWN");
        assertThat(fleet.fleetState().servers()).filteredOn(s -> s.id().equals("s1"))
                .extracting(InstanceServer::instance).containsExactly(a.name(), b.name());
    }

    @Test
    void requestsInFlightAreSummedAcrossInstances() throws Exception {
        s1.update(8000.0, null, null);
        s2.update(8000.0, null, null);
        List<CompletableFuture<HttpResponse<String>>> slow = new ArrayList<>();
        for (HaproxyProcess h : List.of(a, b)) {
            for (int i = 0; i < 2; i++) {
                slow.add(http.sendAsync(get(h), HttpResponse.BodyHandlers.ofString()));
            }
        }
        try {
            // round robin sends one of each pair to each server: 2 sessions per server, one per instance
            await().atMost(DEADLINE).untilAsserted(() -> {
                EngineState st = fleet.state();
                assertThat(st.backend("s1").activeRequests() + st.backend("s2").activeRequests()).isEqualTo(4);
                assertThat(st.pools().get("app").inFlight()).isEqualTo(4);
            });
        } finally {
            s1.update(0.0, null, null);
            s2.update(0.0, null, null);
            CompletableFuture.allOf(slow.toArray(CompletableFuture[]::new)).exceptionally(t -> null).join();
        }
    }

    @Test
    void reweightReachesBothInstancesAndSplitsTraffic() throws Exception {
        fleet.setWeight("s1", 3);

        for (HaproxyProcess h : List.of(a, b)) {
            ServerStat stat = h.runtime().showStat().servers().stream()
                    .filter(s -> s.server().equals("s1")).findFirst().orElseThrow();
            assertThat(stat.userWeight()).as(h.name()).isEqualTo(3);
            assertThat(stat.weight()).as(h.name()).isEqualTo(3);
        }
        assertThat(fleet.state().backend("s1").weight()).isEqualTo(3);

        Map<String, Integer> counts = countBackends(a, 400);
        assertThat((double) counts.getOrDefault("s1", 0)).isCloseTo(300, within(30.0));
        assertThat((double) counts.getOrDefault("s2", 0)).isCloseTo(100, within(30.0));
    }

    @Test
    void weightsOutsideHaproxysRangeAreRefusedWithTheField() {
        assertThatThrownBy(() -> fleet.setWeight("s1", 300)).isInstanceOfSatisfying(EngineException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.getMessage()).isEqualTo("weight: must be between 0 and 256 for HAProxy (got: 300)");
        });
        assertThatThrownBy(() -> fleet.setWeight("nope", 2)).isInstanceOfSatisfying(EngineException.class,
                e -> assertThat(e.status()).isEqualTo(404));
    }

    @Test
    void drainLetsSessionsFinishAndSendsNoNewRequests() throws Exception {
        s1.update(8000.0, null, null);
        List<CompletableFuture<HttpResponse<String>>> slow = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            slow.add(http.sendAsync(get(a), HttpResponse.BodyHandlers.ofString()));
        }
        try {
            await().atMost(DEADLINE).until(() -> fleet.state().backend("s1").activeRequests() > 0);

            fleet.drain("s1");

            assertThat(fleet.state().backend("s1").state()).isEqualTo("DRAINING");
            s1.update(0.0, null, null); // new requests would be fast; none may reach s1
            assertThat(countBackends(a, 20)).containsOnlyKeys("s2");
            assertThat(countBackends(b, 20)).containsOnlyKeys("s2");
            await().atMost(DEADLINE).untilAsserted(() -> {
                BackendInfo s = fleet.state().backend("s1");
                assertThat(s.activeRequests()).isZero();
                assertThat(s.state()).isEqualTo("DRAINED");
            });
            assertThat(slow).allSatisfy(f -> assertThat(f.join().statusCode()).isEqualTo(200));

            fleet.enable("s1");
            assertThat(fleet.state().backend("s1").state()).isEqualTo("UP");
            assertThat(countBackends(a, 20)).containsOnlyKeys("s1", "s2");
        } finally {
            s1.update(0.0, null, null);
        }
    }

    @Test
    void aBackendThatGoesDownIsSeenByTheChecksAndAnnouncedAsAnEvent() {
        List<EngineEvent> events = new CopyOnWriteArrayList<>();
        fleet.subscribe(events::add);
        try {
            s2.update(null, null, true);
            await().atMost(DEADLINE).untilAsserted(() -> {
                BackendInfo s = fleet.state().backend("s2");
                assertThat(s.state()).isEqualTo("DOWN");
                assertThat(s.health()).isEqualTo("DOWN");
            });
            pollUntil(() -> assertThat(events).anySatisfy(e -> {
                assertThat(e.type()).isEqualTo("health");
                assertThat(e.backend()).isEqualTo("s2");
                assertThat(e.to()).isEqualTo("DOWN");
            }));

            s2.update(null, null, false);
            await().atMost(DEADLINE).until(() -> fleet.state().backend("s2").state().equals("UP"));
            fleet.setWeight("s2", 4);
            pollUntil(() -> assertThat(events).anySatisfy(e -> {
                assertThat(e.type()).isEqualTo("weight");
                assertThat(e.from()).isEqualTo("1");
                assertThat(e.to()).isEqualTo("4");
            }));
        } finally {
            s2.update(null, null, false);
        }
    }

    @Test
    void aChangeBehindTheClientsBackIsReportedUntilTheClientConvergesTheFleet() {
        a.runtime().run("set server app/s1 weight 7");
        b.runtime().setState("app", "s2", AdminState.DRAIN);

        List<Divergence> div = fleet.divergence();
        assertThat(div).containsExactlyInAnyOrder(
                new Divergence("s1", "weight", Map.of(a.name(), "7", b.name(), "1")),
                new Divergence("s2", "admin", Map.of(a.name(), "ready", b.name(), "drain")));
        assertThat(div.get(0).describe()).contains(a.name() + "=7");

        fleet.setWeight("s1", 2);
        fleet.enable("s2");

        assertThat(fleet.divergence()).isEmpty();
        for (HaproxyProcess h : List.of(a, b)) {
            assertThat(h.runtime().showStat().servers()).filteredOn(s -> s.server().equals("s1"))
                    .extracting(ServerStat::userWeight).containsExactly(2);
        }
    }

    @Test
    void aRefusalOnOneInstanceIsReportedAfterTryingAll() {
        Assumptions.assumeTrue(fleet.capabilities().addRemove(), "dynamic servers need HAProxy 2.5+");
        a.runtime().addServer("app", "only-a", "127.0.0.1:" + s3.port(), 1, false);
        assertThat(fleet.divergence()).contains(
                new Divergence("only-a", "presence", Map.of(a.name(), "present", b.name(), "absent")));

        assertThatThrownBy(() -> fleet.setWeight("only-a", 5)).isInstanceOfSatisfying(EngineException.class, e -> {
            assertThat(e.status()).isEqualTo(404);
            assertThat(e.getMessage()).contains("failed on " + b.name(), "No such server", "applied on " + a.name());
        });
        assertThat(a.runtime().showServersState()).filteredOn(s -> s.server().equals("only-a"))
                .extracting(ServerState::userWeight).containsExactly(5);
    }

    @Test
    void addAndRemoveAServerOnEveryInstance() throws Exception {
        HaproxyVersion v = a.runtime().version();
        if (!v.supportsDynamicServers()) {
            assertThatThrownBy(() -> fleet.addBackend("app", "s3", "http://127.0.0.1:" + s3.port(), 1))
                    .isInstanceOfSatisfying(EngineException.class, e -> {
                        assertThat(e.status()).isEqualTo(501);
                        assertThat(e.getMessage()).contains("not supported by HAProxy " + v.shortName());
                    });
            return;
        }
        fleet.addBackend("app", "s3", "http://127.0.0.1:" + s3.port(), 2);

        await().atMost(DEADLINE).untilAsserted(() -> {
            BackendInfo s = fleet.state().backend("s3");
            assertThat(s).isNotNull();
            assertThat(s.pool()).isEqualTo("app");
            assertThat(s.weight()).isEqualTo(2);
            assertThat(s.state()).isEqualTo("UP");
            assertThat(s.health()).isEqualTo("UP"); // checked like its siblings
        });
        assertThat(fleet.divergence()).isEmpty();
        assertThat(countBackends(b, 40)).containsKey("s3");
        assertThatThrownBy(() -> fleet.addBackend("app", "s3", "http://127.0.0.1:" + s3.port(), 2))
                .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.status()).isEqualTo(409));

        fleet.drain("s3");
        await().atMost(DEADLINE).until(() -> fleet.state().backend("s3").activeRequests() == 0);
        fleet.remove("s3");

        assertThat(fleet.state().backends()).extracting(BackendInfo::id).doesNotContain("s3");
        for (HaproxyProcess h : List.of(a, b)) {
            assertThat(h.runtime().showServersState()).extracting(ServerState::server).doesNotContain("s3");
        }
    }

    @Test
    void removingAServerWithSessionsLeftIsRefusedUntilTheyFinishThenCompletes() throws Exception {
        Assumptions.assumeTrue(fleet.capabilities().addRemove(), "dynamic servers need HAProxy 2.5+");
        fleet.addBackend("app", "s3", "http://127.0.0.1:" + s3.port(), 1);
        await().atMost(DEADLINE).until(() -> {
            BackendInfo s = fleet.state().backend("s3");
            return s != null && s.state().equals("UP");
        });
        fleet.setWeight("s1", 0);
        fleet.setWeight("s2", 0);
        s3.update(8000.0, null, null);
        CompletableFuture<HttpResponse<String>> slow = http.sendAsync(get(a), HttpResponse.BodyHandlers.ofString());
        try {
            await().atMost(DEADLINE).until(() -> fleet.state().backend("s3").activeRequests() > 0);

            assertThatThrownBy(() -> fleet.remove("s3")).isInstanceOfSatisfying(EngineException.class, e -> {
                assertThat(e.status()).isEqualTo(409);
                assertThat(e.getMessage()).startsWith("remove s3 failed on " + a.name())
                        .endsWith("applied on " + b.name());
            });
            assertThat(fleet.state().backend("s3").state()).isEqualTo("DRAINING"); // in maintenance, one session left
            s3.update(0.0, null, null);
            assertThat(slow.get(DEADLINE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            await().atMost(DEADLINE).until(() -> fleet.state().backend("s3").state().equals("DRAINED"));

            fleet.remove("s3"); // b has already removed it: done there

            assertThat(fleet.state().backends()).extracting(BackendInfo::id).doesNotContain("s3");
            assertThatThrownBy(() -> fleet.remove("app/s3")).isInstanceOfSatisfying(EngineException.class,
                    e -> assertThat(e.status()).isEqualTo(404));
        } finally {
            s3.update(0.0, null, null);
        }
    }

    @Test
    void aBackendWhoseAlgorithmCannotTakeDynamicServersIsA501NamingTheVersion() {
        Assumptions.assumeTrue(fleet.capabilities().addRemove(), "dynamic servers need HAProxy 2.5+");
        String v = a.runtime().version().shortName();
        assertThatThrownBy(() -> fleet.addBackend("st", "b9", "http://127.0.0.1:" + s3.port(), 1))
                .isInstanceOfSatisfying(EngineException.class, e -> {
                    assertThat(e.status()).isEqualTo(501);
                    assertThat(e.getMessage()).contains("not supported by HAProxy " + v, a.name(), b.name());
                });
    }

    /**
     * Moves the fleet's clock one poll period at a time, each move starting a poll (or finding one still under way),
     * until {@code assertion} holds on what the polls reported; the polls' I/O to HAProxy is real, hence the deadline.
     */
    private void pollUntil(ThrowingRunnable assertion) {
        await().atMost(DEADLINE).untilAsserted(() -> {
            clock.advanceMillis(FleetPoller.POLL_MS);
            assertion.run();
        });
    }

    private HttpRequest get(HaproxyProcess h) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + h.frontendPort() + "/"))
                .timeout(Duration.ofSeconds(20)).build();
    }

    /** Sends n requests one after the other through an instance's frontend; counts answers per X-Demo-Backend. */
    private Map<String, Integer> countBackends(HaproxyProcess h, int n) throws Exception {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < n; i++) {
            HttpResponse<String> r = http.send(get(h), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            counts.merge(r.headers().firstValue(DemoBackend.HEADER).orElse("?"), 1, Integer::sum);
        }
        return counts;
    }
}
