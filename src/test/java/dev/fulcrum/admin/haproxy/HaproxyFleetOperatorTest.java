package dev.fulcrum.admin.haproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.demo.DemoBackend;
import dev.fulcrum.demo.DemoSpec;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.testkit.RawBackend;
import java.net.InetSocketAddress;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an operator driving real HAProxy instances meets (loopback only). */
class HaproxyFleetOperatorTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    @TempDir
    Path dir;

    @BeforeEach
    void needHaproxy() {
        Assumptions.assumeTrue(HaproxyProcess.available(), "haproxy is not on PATH");
    }

    @AfterEach
    void stopAll() {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            try {
                toClose.get(i).close();
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    // ------------------------------------------------------------------ what HAProxy does, the fleet shows

    /** A server 'disabled' in the config and enabled at runtime serves traffic, and the fleet shows it in rotation. */
    @Test
    void aServerDisabledInTheConfigAndThenEnabledIsShownInRotation() throws Exception {
        DemoBackend s1 = demo("s1");
        DemoBackend spare = demo("spare");
        // instance a still has the spare 'disabled' in its config, instance b already had it enabled there
        HaproxyProcess a = haproxy("a", """
                backend app
                  balance roundrobin
                  server s1 127.0.0.1:%d
                  server spare 127.0.0.1:%d disabled
                """.formatted(s1.port(), spare.port()));
        HaproxyProcess b = haproxy("b", """
                backend app
                  balance roundrobin
                  server s1 127.0.0.1:%d
                  server spare 127.0.0.1:%d
                """.formatted(s1.port(), spare.port()));
        HaproxyFleetClient fleet = fleet(a, b);

        fleet.enable("spare");

        assertThat(count(a, 10)).containsKey("spare"); // HAProxy does send it traffic
        assertThat(fleet.fleetState().servers()).filteredOn(s -> s.id().equals("spare"))
                .extracting(InstanceServer::admin).containsOnly(AdminState.READY);
        assertThat(fleet.state().backend("spare").state()).isEqualTo("UP");
        assertThat(fleet.divergence()).isEmpty();
    }

    /** A server that tracks another one ('track app/s1') is DOWN in HAProxy when s1 is, and in the fleet too. */
    @Test
    void aTrackingServerIsDownWhenHaproxySaysSo() throws Exception {
        DemoBackend s1 = demo("s1");
        DemoBackend t1 = demo("t1");
        HaproxyProcess a = haproxy("a", """
                backend app
                  balance roundrobin
                  option httpchk GET /health
                  server s1 127.0.0.1:%d check inter 200 rise 1 fall 1
                  server t1 127.0.0.1:%d track app/s1
                """.formatted(s1.port(), t1.port()));
        HaproxyFleetClient fleet = fleet(a);

        s1.update(null, null, true);
        await().atMost(DEADLINE).until(() -> a.runtime().showStat().servers().stream()
                .filter(s -> s.server().equals("t1")).findFirst().orElseThrow().status().equals("DOWN"));

        BackendInfo t = fleet.state().backend("t1");
        assertThat(t.state()).as("HAProxy's status of t1 is DOWN").isEqualTo("DOWN");
    }

    /** remove() refused by HAProxy (a 'track' refers to the server) leaves the server in rotation everywhere. */
    @Test
    void aRefusedRemoveLeavesTheServerInRotation() throws Exception {
        DemoBackend s1 = demo("s1");
        DemoBackend t1 = demo("t1");
        String cfg = """
                backend app
                  balance roundrobin
                  option httpchk GET /health
                  server s1 127.0.0.1:%d check inter 200 rise 1 fall 1
                  server t1 127.0.0.1:%d track app/s1
                """.formatted(s1.port(), t1.port());
        HaproxyProcess a = haproxy("a", cfg);
        HaproxyProcess b = haproxy("b", cfg);
        HaproxyFleetClient fleet = fleet(a, b);
        await().atMost(DEADLINE).until(() -> fleet.state().backend("s1").state().equals("UP"));

        assertThatThrownBy(() -> fleet.remove("s1")).isInstanceOfSatisfying(EngineException.class,
                e -> assertThat(e.getMessage()).contains("cannot be removed"));

        assertThat(fleet.state().backend("s1").state()).as("s1 after a refused remove").isEqualTo("UP");
        assertThat(count(a, 10)).as("traffic through a after a refused remove").containsKey("s1");
    }

    /**
     * addBackend with a host name: HAProxy would register a server without an address, shown UP while clients get
     * 503. Either the server takes traffic (the name is resolved first) or the addition is refused.
     */
    @Test
    void aServerAddedByHostNameTakesTrafficOrIsRefused() throws Exception {
        DemoBackend s1 = demo("s1");
        DemoBackend s3 = demo("s3");
        HaproxyProcess a = haproxy("a", """
                backend app
                  balance roundrobin
                  server s1 127.0.0.1:%d
                """.formatted(s1.port()));
        HaproxyFleetClient fleet = fleet(a);
        fleet.drain("s1");

        try {
            fleet.addBackend("app", "s3", "http://localhost:" + s3.port(), 1);
        } catch (EngineException refused) {
            return; // refusing a name HAProxy cannot use would be fine too
        }

        assertThat(fleet.state().backend("s3").state()).isEqualTo("UP");
        HttpResponse<String> r = http.send(get(a), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("the only server in rotation is s3, shown UP").isEqualTo(200);
    }

    /** Undoing a remove re-adds the server as it was, its 'maxconn' included. */
    @Test
    void aRemovedServerWithMaxconnCanBeAddedBackAsItWas() throws Exception {
        DemoBackend s1 = demo("s1");
        DemoBackend s2 = demo("s2");
        HaproxyProcess a = haproxy("a", """
                backend app
                  balance roundrobin
                  server s1 127.0.0.1:%d
                  server s2 127.0.0.1:%d maxconn 50
                """.formatted(s1.port(), s2.port()));
        HaproxyFleetClient fleet = fleet(a);
        BackendInfo before = fleet.state().backend("s2");
        assertThat(before.maxInFlight()).isEqualTo(50);

        fleet.remove("s2");
        // what BackendCommands.remove records as its undo
        fleet.addBackend(before.pool(), before.id(), before.url(), before.weight(), before.maxInFlight(), before.backup());

        BackendInfo after = fleet.state().backend("s2");
        assertThat(after).isNotNull();
        assertThat(after.maxInFlight()).isEqualTo(50);
    }

    /**
     * A healthy server whose check takes a while: HAProxy prints "* L7OK" while a check runs. Nothing changes, so
     * polls that alternate between a running and a finished check add nothing to the history.
     */
    @Test
    void probeHistoryRecordsOnlyRealChangesWhileChecksAreInProgress() throws Exception {
        // a /health slow on purpose: each check's answer comes 250 ms after its request
        RawBackend slow = RawBackend.scripted(req -> List.of("<pause 250>",
                "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok", RawBackend.CLOSE));
        toClose.add(slow);
        HaproxyProcess a = haproxy("a", """
                backend app
                  balance roundrobin
                  option httpchk GET /health
                  timeout check 2s
                  server s1 127.0.0.1:%d check inter 250 rise 1 fall 1
                """.formatted(slow.port()));
        HaproxyFleetClient fleet = fleet(a);
        await().atMost(DEADLINE).until(() -> fleet.state().backend("s1").health().equals("UP"));
        // settled once the polls have seen two checks start and end
        ChecksSeen seen = new ChecksSeen(fleet, "s1");
        await().atMost(DEADLINE).until(() -> seen.poll() >= 4);
        int settled = fleet.probeHistory().getOrDefault("s1", List.of()).size();

        int before = seen.turns;
        await().atMost(DEADLINE).until(() -> seen.poll() >= before + 8);

        List<Map<String, Object>> h = fleet.probeHistory().get("s1");
        assertThat(h).as("history " + h).hasSize(settled);
        assertThat(h).extracting(p -> (String) p.get("checkStatus")).noneMatch(s -> s.startsWith("* "));
    }

    /** An instance that goes away is named in what the window reads. */
    @Test
    void anInstanceThatStopsAnsweringIsNamedSomewhereTheWindowReads() throws Exception {
        DemoBackend s1 = demo("s1");
        String cfg = """
                backend app
                  balance roundrobin
                  server s1 127.0.0.1:%d
                """.formatted(s1.port());
        HaproxyProcess a = haproxy("a", cfg);
        HaproxyProcess b = haproxy("b", cfg);
        HaproxyFleetClient fleet = fleet(a, b);
        b.close();

        assertThat(fleet.fleetState().unreachable()).containsKey(b.name());
        // the window's status bar shows fleet.problems()
        assertThat(fleet.problems()).as("problems() with " + b.name() + " gone").startsWith(b.name() + " not answering: ");
    }

    // ------------------------------------------------------------------ fixtures

    /** Polls the fleet and counts the turns of one server's check between running and finished, as polls see them. */
    private static final class ChecksSeen {
        private final HaproxyFleetClient fleet;
        private final String id;
        private Boolean running;
        int turns;

        ChecksSeen(HaproxyFleetClient fleet, String id) {
            this.fleet = fleet;
            this.id = id;
        }

        /** One poll (which records probes as any poll does); returns the turns seen so far. */
        int poll() {
            boolean now = fleet.fleetState().servers().stream().filter(s -> s.id().equals(id))
                    .anyMatch(s -> s.stat().checkRunning());
            if (running != null && running != now) {
                turns++;
            }
            running = now;
            return turns;
        }
    }

    private DemoBackend demo(String id) {
        DemoBackend d = DemoBackend.start(DemoSpec.of(id, 0, 1));
        toClose.add(d);
        return d;
    }

    private HaproxyFleetClient fleet(HaproxyProcess... hs) {
        List<InetSocketAddress> l = new ArrayList<>();
        for (HaproxyProcess h : hs) {
            l.add(h.stats());
        }
        HaproxyFleetClient f = HaproxyFleetClient.connect(l);
        toClose.add(f);
        return f;
    }

    private HttpRequest get(HaproxyProcess h) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + h.frontendPort() + "/")).timeout(Duration.ofSeconds(10)).build();
    }

    private Map<String, Integer> count(HaproxyProcess h, int n) throws Exception {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < n; i++) {
            HttpResponse<String> r = http.send(get(h), HttpResponse.BodyHandlers.ofString());
            counts.merge(r.statusCode() + ":" + r.headers().firstValue(DemoBackend.HEADER).orElse("?"), 1, Integer::sum);
        }
        Map<String, Integer> byBackend = new HashMap<>();
        counts.forEach((k, v) -> byBackend.merge(k.startsWith("200:") ? k.substring(4) : k, v, Integer::sum));
        return byBackend;
    }

    private HaproxyProcess haproxy(String name, String backends) throws Exception {
        HaproxyProcess h = HaproxyProcess.start(dir, name, backends);
        toClose.add(h);
        return h;
    }
}
