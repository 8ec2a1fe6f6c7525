package dev.fulcrum.admin.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.HttpEngineClient;
import dev.fulcrum.admin.Json;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.etcd.EtcdAddress;
import dev.fulcrum.etcd.KeyValue;
import dev.fulcrum.testkit.EtcdCluster;
import dev.fulcrum.testkit.EtcdFleetApps;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fleet client against a real etcd and real Fulcrums registered in it: the instances listed, a killed one shown
 * gone, the figures summed, a change on a stale view refused with nothing overwritten, drain as a mark in etcd.
 */
@Timeout(120)
class EtcdFleetClientTest {
    private static final Duration WITHIN = Duration.ofSeconds(10);
    private static EtcdCluster etcd;
    private static final AtomicInteger PREFIXES = new AtomicInteger();

    @BeforeAll
    static void startEtcd() {
        etcd = EtcdCluster.single();
    }

    @AfterAll
    static void stopEtcd() {
        if (etcd != null) { // null when etcd could not start: that failure is the one to report
            etcd.close();
        }
    }

    /** A fleet of {@code n} under a prefix of its own, and the client attached to it. */
    private static EtcdFleetApps fleet(int n) {
        return EtcdFleetApps.start(etcd, "/fleet" + PREFIXES.incrementAndGet(), n);
    }

    private static EtcdFleetClient attach(EtcdFleetApps f) {
        return EtcdFleetClient.attach(f.address(), EtcdAddress.parse(f.address()), etcd.options());
    }

    /** Instance {@code i}'s own {@code /api/state}. */
    private static EngineState stateOf(EtcdFleetApps f, int i, String token) {
        try (HttpEngineClient c = new HttpEngineClient(URI.create(f.adminUrl(i)), token)) {
            return c.state();
        }
    }

    @Test
    void listsTheInstancesAndSumsTheirFigures() {
        try (EtcdFleetApps f = fleet(2); EtcdFleetClient client = attach(f)) {
            await().atMost(WITHIN).until(() -> client.fleet().stream()
                    .filter(i -> i.up() && i.configRevision() == f.configRevision()).count() == 2);
            List<FleetInstance> listed = client.fleet();
            assertThat(listed).extracting(FleetInstance::id).containsExactlyElementsOf(f.ids());
            for (int i = 0; i < 2; i++) {
                FleetInstance in = listed.get(i);
                assertThat(in.proxy()).isEqualTo(f.proxyUrl(i));
                assertThat(in.admin()).isEqualTo(f.adminUrl(i));
                assertThat(in.version()).isEqualTo("0.1.0");
                assertThat(in.configRevision()).isEqualTo(f.configRevision());
                assertThat(in.refused()).isFalse();
            }
            for (int i = 0; i < 10; i++) {
                assertThat(f.proxied(0, "/one/" + i)).isEqualTo(200);
            }
            for (int i = 0; i < 7; i++) {
                assertThat(f.proxied(1, "/two/" + i)).isEqualTo(200);
            }
            await().atMost(WITHIN).until(() -> client.state().requests().total() == 17);
            EngineState one = stateOf(f, 0, null);
            EngineState two = stateOf(f, 1, null);
            EngineState merged = client.state();

            assertThat(merged.requests().total()).isEqualTo(17)
                    .isEqualTo(one.requests().total() + two.requests().total());
            for (String id : List.of("b1", "b2")) {
                assertThat(merged.backend(id).totalRequests()).as(id)
                        .isEqualTo(one.backend(id).totalRequests() + two.backend(id).totalRequests());
                assertThat(merged.backend(id).failures()).isZero();
                assertThat(merged.backend(id).state()).isEqualTo("UP");
            }
            assertThat(merged.backend("b1").totalRequests() + merged.backend("b2").totalRequests()).isEqualTo(17);
            assertThat(merged.pools()).containsOnlyKeys("default");
            assertThat(merged.pools().get("default").strategy()).containsEntry("type", "round-robin");
            assertThat(merged.proxy()).isIn(f.proxyUrl(0), f.proxyUrl(1));
        }
    }

    @Test
    void everyInstancesEventsAndRequestsReachTheFleetsListeners() {
        try (EtcdFleetApps f = fleet(2); EtcdFleetClient client = attach(f)) {
            await().atMost(WITHIN).until(() -> client.fleet().stream().filter(FleetInstance::up).count() == 2);
            List<EngineEvent> events = new CopyOnWriteArrayList<>();
            client.subscribe(events::add);
            try (dev.fulcrum.admin.RequestSource requests = client.requests()) {
                f.app(1).engine().setWeight("b2", 4); // behind the fleet's back, on one instance
                assertThat(f.proxied(0, "/from-one")).isEqualTo(200);
                assertThat(f.proxied(1, "/from-two")).isEqualTo(200);

                await().atMost(WITHIN).until(() -> events.stream().anyMatch(e -> e.type().equals("weight")
                        && "b2".equals(e.backend()) && "4".equals(e.to())));
                List<String> paths = new java.util.ArrayList<>();
                await().atMost(WITHIN).until(() -> {
                    requests.poll().requests().forEach(r -> paths.add(r.path()));
                    return paths.containsAll(List.of("/from-one", "/from-two"));
                });
                assertThat(requests.recent(10)).extracting(dev.fulcrum.requests.RequestSample::path)
                        .contains("/from-one", "/from-two");
            }
        }
    }

    @Test
    void theInstancesAreReadWithTheConfigsAdminToken() {
        try (EtcdFleetApps f = EtcdFleetApps.start(etcd, "/fleet" + PREFIXES.incrementAndGet(), 1, "s3cret");
             EtcdFleetClient client = attach(f)) {
            await().atMost(WITHIN).until(() -> client.fleet().stream().anyMatch(FleetInstance::up));
            assertThat(f.proxied(0, "/with-token")).isEqualTo(200);
            // without the token the instance answers 401 and is left out of the view: no request would be counted
            await().atMost(WITHIN).until(() -> client.state().requests().total() == 1);
        }
    }

    @Test
    void aKilledInstanceStaysListedAsGoneOnceItsKeyGoes() {
        try (EtcdFleetApps f = fleet(2); EtcdFleetClient client = attach(f)) {
            List<EngineEvent> events = new CopyOnWriteArrayList<>();
            client.subscribe(events::add);
            await().atMost(WITHIN).until(() -> client.fleet().stream().filter(FleetInstance::up).count() == 2);
            String killed = f.ids().get(1);

            f.kill(killed);

            await().atMost(WITHIN).until(() -> client.fleet().stream()
                    .anyMatch(i -> i.id().equals(killed) && !i.up()));
            assertThat(client.fleet()).hasSize(2);
            assertThat(client.fleet().get(0).up()).isTrue();
            assertThat(events).anySatisfy(e -> {
                assertThat(e.type()).isEqualTo("membership");
                assertThat(e.backend()).isEqualTo("instance:" + killed);
                assertThat(e.to()).isEqualTo("removed");
            });
            // the view goes on with the instance that is left
            assertThat(f.proxied(0, "/still")).isEqualTo(200);
            // the proxy counts an answer once it is sent: the figure follows the client's answer shortly after
            await().atMost(WITHIN).until(() -> client.state().requests().total() == 1);
        }
    }

    @Test
    void aChangeOnAStaleViewIsRefusedAndOverwritesNothing() throws Exception {
        try (EtcdFleetApps f = fleet(2); EtcdFleetClient client = attach(f)) {
            client.state(); // what the operator sees
            KeyValue before = f.configKey();
            JsonNode theirs = Json.MAPPER.readTree(before.value());
            ((com.fasterxml.jackson.databind.node.ObjectNode) theirs.get("backends").get(1)).put("weight", 7);
            String written = Json.MAPPER.writeValueAsString(theirs);
            f.etcd().put(f.prefix() + "/config", written); // someone else, meanwhile

            assertThatThrownBy(() -> client.setWeight("b1", 5))
                    .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.status()).isEqualTo(409))
                    .hasMessage("changed by someone else; reloaded");
            assertThat(f.configKey().value()).isEqualTo(written);

            EngineState reloaded = client.state();
            assertThat(reloaded.backend("b2").weight()).isEqualTo(7);
            assertThat(reloaded.backend("b1").weight()).isEqualTo(1);

            client.setWeight("b1", 5); // on the view that shows their change, it goes through, keeping it
            JsonNode now = Json.MAPPER.readTree(f.configKey().value());
            assertThat(now.get("backends").get(0).get("weight").asInt()).isEqualTo(5);
            assertThat(now.get("backends").get(1).get("weight").asInt()).isEqualTo(7);
            // and every instance applies it
            for (int i = 0; i < 2; i++) {
                int n = i;
                await().atMost(WITHIN).until(() -> stateOf(f, n, null).backend("b1").weight() == 5
                        && stateOf(f, n, null).backend("b2").weight() == 7);
            }
            // and one more without a new view: the window's own write is what it builds on
            client.setWeight("b1", 6);
            assertThat(Json.MAPPER.readTree(f.configKey().value()).get("backends").get(0).get("weight").asInt())
                    .isEqualTo(6);
        }
    }

    @Test
    void anInvalidChangeIsRefusedWithTheProblemAndNothingIsWritten() {
        try (EtcdFleetApps f = fleet(1); EtcdFleetClient client = attach(f)) {
            client.state();
            long revision = f.configKey().modRevision();
            assertThatThrownBy(() -> client.setWeight("b1", -3))
                    .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.status()).isEqualTo(400))
                    .hasMessageContaining("backends[0].weight").hasMessageContaining("-3");
            assertThatThrownBy(() -> client.setWeight("nope", 3))
                    .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.status()).isEqualTo(404))
                    .hasMessageContaining("nope");
            assertThat(f.configKey().modRevision()).isEqualTo(revision);
        }
    }

    @Test
    void aBackendTheConfigDoesNotListIsRefusedNamingIt() {
        try (EtcdFleetApps f = fleet(1); EtcdFleetClient client = attach(f)) {
            // one the instance has that the shared config does not (as one found by discovery)
            try (HttpEngineClient one = new HttpEngineClient(URI.create(f.adminUrl(0)), null)) {
                one.addBackend(null, "found", "http://127.0.0.1:9", 1);
            }
            await().atMost(WITHIN).until(() -> client.state().backend("found") != null);
            long revision = f.configKey().modRevision();
            for (Runnable change : List.<Runnable>of(() -> client.setWeight("found", 3), () -> client.drain("found"),
                    () -> client.remove("found"))) {
                assertThatThrownBy(change::run)
                        .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.status()).isEqualTo(400))
                        .hasMessageContaining("found").hasMessageContaining("not in the shared config");
            }
            assertThat(f.configKey().modRevision()).isEqualTo(revision);
            assertThat(f.etcd().get(f.prefix() + "/drained/found").first()).isNull();
        }
    }

    @Test
    void drainWritesTheMarkAndEnableDeletesIt() throws Exception {
        try (EtcdFleetApps f = fleet(2); EtcdFleetClient client = attach(f)) {
            client.state();
            long before = System.currentTimeMillis();
            client.drain("b2");
            KeyValue mark = f.etcd().get(f.prefix() + "/drained/b2").first();
            assertThat(mark).isNotNull();
            assertThat(Json.MAPPER.readTree(mark.value()).get("at").asLong()).isBetween(before,
                    System.currentTimeMillis());
            await().atMost(WITHIN).until(() -> client.state().backend("b2").state().equals("DRAINED"));
            assertThat(client.state().backend("b1").state()).isEqualTo("UP");
            for (int i = 0; i < 2; i++) { // every instance drains it
                int n = i;
                await().atMost(WITHIN).until(() -> stateOf(f, n, null).backend("b2").state().startsWith("DRAIN"));
            }

            client.enable("b2");
            assertThat(f.etcd().get(f.prefix() + "/drained/b2").first()).isNull();
            await().atMost(WITHIN).until(() -> client.state().backend("b2").state().equals("UP"));
            for (int i = 0; i < 2; i++) {
                int n = i;
                await().atMost(WITHIN).until(() -> stateOf(f, n, null).backend("b2").state().equals("UP"));
            }
        }
    }

    @Test
    void addAndRemoveEditTheSharedConfig() throws Exception {
        try (EtcdFleetApps f = fleet(1); EtcdFleetClient client = attach(f)) {
            client.state();
            client.addBackend(null, "c", "http://127.0.0.1:9", 3);
            JsonNode now = Json.MAPPER.readTree(f.configKey().value());
            assertThat(now.get("backends")).hasSize(3);
            assertThat(now.get("backends").get(2).get("id").asText()).isEqualTo("c");
            assertThat(now.get("backends").get(2).get("weight").asInt()).isEqualTo(3);
            assertThat(client.state().backend("c").url()).isEqualTo("http://127.0.0.1:9");

            client.remove("c");
            assertThat(Json.MAPPER.readTree(f.configKey().value()).get("backends")).hasSize(2);
            // a removal drains first on each instance (DELETE is 202 there too): the fleet shows c until every
            // instance has let it go
            await().atMost(Duration.ofSeconds(5)).until(() -> client.state().backend("c") == null);
        }
    }
}
