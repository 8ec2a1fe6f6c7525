package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.etcd.KeyValue;
import dev.fulcrum.testkit.EtcdCluster;
import dev.fulcrum.testkit.EtcdFleetApps;
import dev.fulcrum.config.FulcrumConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two Fulcrums on one config kept in a real one-member etcd (docs/REFERENCE.md §8): a change written to etcd is
 * applied by both, a drain reaches both and outlives a later config, each registers its URLs and the revision it
 * applied, and a config put by hand that is invalid is refused by both, which keep serving and say why.
 */
class EtcdSharedConfigTest {
    private static final String PREFIX = "/fulcrum/test";
    private EtcdCluster etcd;
    private EtcdFleetApps fleet;
    private EtcdFleetApps.Instance a;
    private EtcdFleetApps.Instance b;
    private long firstRevision;

    @BeforeEach
    void start() {
        fleet = EtcdFleetApps.owning(EtcdCluster.single(), PREFIX, "a", "b");
        etcd = fleet.cluster();
        a = fleet.instance("a");
        b = fleet.instance("b");
        firstRevision = fleet.configRevision();
    }

    @AfterEach
    void stop() {
        if (fleet != null) {
            fleet.close(); // and etcd with it
        }
    }

    @Test
    void aWeightWrittenToEtcdReachesBothInstances() {
        long rev = fleet.putConfig(fleet.config(7));
        long written = System.currentTimeMillis();
        fleet.awaitWeight(7);
        long applied = List.of(a, b).stream().mapToLong(i -> i.events().stream()
                .filter(e -> e.type().equals("weight") && "b1".equals(e.backend()) && "7".equals(e.to()))
                .mapToLong(EngineEvent::at).findFirst().orElseThrow()).max().orElseThrow();
        System.out.printf("etcd write to applied on both instances: %d ms%n", applied - written);

        for (EtcdFleetApps.Instance i : List.of(a, b)) {
            EngineState.ConfigSourceInfo source = fleet.state(i).configSource();
            assertThat(source.state()).isEqualTo("ok");
            assertThat(source.revision()).isEqualTo(rev);
            assertThat(source.key()).isEqualTo(PREFIX + "/config");
            assertThat(source.instance()).isEqualTo(i.id());
            assertThat(source.rejected()).isNull();
            assertThat(i.events()).anySatisfy(e -> assertThat(e).extracting(EngineEvent::type, EngineEvent::to)
                    .containsExactly("config", "applied revision " + rev));
            // the command line's ports hold over the config's 18080/18081 on every config applied
            assertThat(i.proxy()).doesNotEndWith(":18080");
            assertThat(fleet.proxied(i, "/w")).isEqualTo(200);
        }
    }

    @Test
    void theWindowOnAnEtcdConfigFollowsItToo() {
        // what the window does with what the command hands it: EmbeddedFulcrum.start (ui/connect/EngineConnector)
        WindowLauncher window = new WindowLauncher() {
            @Override
            public int embedded(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides) {
                try (EmbeddedFulcrum engine = EmbeddedFulcrum.start(config, configFile, overrides)) {
                    EngineClient c = engine.client();
                    assertThat(c.state().configSource().instance()).isEqualTo("window");
                    assertThat(c.state().proxy()).as("--proxy-port 0 over the config's").doesNotEndWith(":18080");
                    fleet.putConfig(fleet.config(8));
                    await().atMost(Duration.ofSeconds(10)).until(() -> c.state().backend("b1").weight() == 8);
                    assertThat(c.state().proxy()).as("and over every config applied").doesNotEndWith(":18080");
                    assertThat(fleet.registrations()).containsKey("window");
                }
                return 0;
            }

            @Override
            public int attach(String url, String token) {
                throw new AssertionError("not attaching");
            }
        };
        assertThat(FulcrumCommand.run(new String[] {"--config", fleet.address(), "--instance-id", "window",
                "--proxy-port", "0", "--admin-port", "0"}, window)).isZero();
        assertThat(fleet.registrations()).doesNotContainKey("window");
    }

    @Test
    void aDrainReachesBothInstancesAndOutlivesTheNextConfig() {
        fleet.etcd().put(PREFIX + "/drained/b1", "{\"at\":" + System.currentTimeMillis() + "}");
        await().atMost(Duration.ofSeconds(10)).until(() -> List.of(a, b).stream()
                .allMatch(i -> isDrained(fleet.state(i).backend("b1").state())));

        fleet.putConfig(fleet.config(5));
        fleet.awaitWeight(5);
        for (EtcdFleetApps.Instance i : List.of(a, b)) {
            assertThat(fleet.state(i).backend("b1").state()).matches(EtcdSharedConfigTest::isDrained);
            int before = fleet.b1().requests.get();
            for (int n = 0; n < 10; n++) {
                assertThat(fleet.proxied(i, "/d")).isEqualTo(200);
            }
            assertThat(fleet.b1().requests.get()).as("a drained b1 gets no new requests").isEqualTo(before);
        }

        fleet.etcd().delete(PREFIX + "/drained/b1");
        await().atMost(Duration.ofSeconds(10)).until(() -> List.of(a, b).stream()
                .allMatch(i -> fleet.state(i).backend("b1").state().equals("UP")));
    }

    private static boolean isDrained(String state) {
        return state.equals("DRAINING") || state.equals("DRAINED");
    }

    @Test
    void eachInstanceRegistersItsUrlsAndTheRevisionItApplied() {
        await().atMost(Duration.ofSeconds(10)).until(() -> fleet.registrations().keySet().containsAll(List.of("a", "b")));
        Map<String, JsonNode> first = fleet.registrations();
        for (EtcdFleetApps.Instance i : List.of(a, b)) {
            JsonNode r = first.get(i.id());
            assertThat(r.get("id").asText()).isEqualTo(i.id());
            assertThat(r.get("proxy").asText()).isEqualTo(i.proxy());
            assertThat(r.get("admin").asText()).isEqualTo(i.admin());
            assertThat(r.get("version").asText()).isEqualTo(FulcrumCommand.VERSION);
            assertThat(r.get("configRevision").asLong()).isEqualTo(firstRevision);
            assertThat(r.get("configState").asText()).isEqualTo("ok");
            assertThat(r.get("startedAt").asLong()).isPositive();
        }
        KeyValue key = fleet.etcd().get(PREFIX + "/instances/a").first();
        assertThat(key.lease()).as("registered under a lease").isNotZero();

        long rev = fleet.putConfig(fleet.config(3));
        await().atMost(Duration.ofSeconds(10)).until(() -> fleet.registrations().values().stream()
                .filter(r -> r.get("configRevision").asLong() == rev).count() == 2);
        assertThat(fleet.etcd().get(PREFIX + "/instances/a").first().lease())
                .as("re-put under the same lease").isEqualTo(key.lease());

        a.app().close();
        assertThat(fleet.registrations()).as("a stopped instance leaves at once").containsOnlyKeys("b");
    }

    @Test
    void anInstanceWhoseLeaseWasLostRegistersAgainUnderANewOne() {
        await().atMost(Duration.ofSeconds(10)).until(() -> fleet.registrations().containsKey("a"));
        long lost = fleet.etcd().get(PREFIX + "/instances/a").first().lease();
        fleet.etcd().revoke(lost); // as etcd does when a lease outlives its TTL unrenewed
        assertThat(fleet.registrations()).doesNotContainKey("a");

        await().atMost(Duration.ofSeconds(10)).until(() -> fleet.registrations().containsKey("a"));
        assertThat(fleet.etcd().get(PREFIX + "/instances/a").first().lease()).isNotIn(0L, lost);
    }

    @Test
    void anInvalidConfigPutByHandIsRefusedByEveryInstanceWhichKeepsServing() {
        String invalid = fleet.config(2).replace("\"weight\": 1}", "\"weight\": -4}");
        long rev = Long.parseLong(etcdctlPut(invalid));

        String problem = "backends[1].weight: must be between 0 and 1000 (got: -4)";
        await().atMost(Duration.ofSeconds(10)).until(() -> List.of(a, b).stream()
                .allMatch(i -> fleet.state(i).configSource().rejected() != null));
        for (EtcdFleetApps.Instance i : List.of(a, b)) {
            EngineState.ConfigSourceInfo source = fleet.state(i).configSource();
            assertThat(source.rejected().revision()).isEqualTo(rev);
            assertThat(source.rejected().problems()).containsExactly(problem);
            assertThat(source.revision()).as("the running config kept").isEqualTo(firstRevision);
            assertThat(i.events()).anySatisfy(e -> assertThat(e).extracting(EngineEvent::type, EngineEvent::to)
                    .containsExactly("config", "refused revision " + rev + ": " + problem));
            assertThat(fleet.proxied(i, "/still")).isEqualTo(200);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> fleet.registrations().values().stream()
                .filter(r -> r.get("configState").asText().equals("refused")).count() == 2);

        long fixed = fleet.putConfig(fleet.config(4));
        fleet.awaitWeight(4);
        for (EtcdFleetApps.Instance i : List.of(a, b)) {
            EngineState.ConfigSourceInfo source = fleet.state(i).configSource();
            assertThat(source.rejected()).isNull();
            assertThat(source.revision()).isEqualTo(fixed);
        }
    }

    @Test
    void aDeletedConfigIsRefusedAndTheRunningOneKept() {
        fleet.etcd().delete(PREFIX + "/config");
        String problem = PREFIX + "/config: no config at this key, the running config stays (got: deleted)";
        await().atMost(Duration.ofSeconds(10)).until(() -> List.of(a, b).stream()
                .allMatch(i -> fleet.state(i).configSource().rejected() != null));
        for (EtcdFleetApps.Instance i : List.of(a, b)) {
            EngineState.ConfigSourceInfo source = fleet.state(i).configSource();
            assertThat(source.rejected().problems()).containsExactly(problem);
            assertThat(source.revision()).isEqualTo(firstRevision);
            assertThat(fleet.proxied(i, "/kept")).isEqualTo(200);
        }
        long back = fleet.putConfig(fleet.config(2));
        fleet.awaitWeight(2);
        assertThat(fleet.state(a).configSource().revision()).isEqualTo(back);
    }

    /** {@code etcdctl put} by hand, as an operator would; returns the revision it wrote. */
    private String etcdctlPut(String value) {
        etcd.etcdctl("put", PREFIX + "/config", value);
        return Long.toString(fleet.etcd().get(PREFIX + "/config").first().modRevision());
    }
}
