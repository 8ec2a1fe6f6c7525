package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.testkit.EtcdCluster;
import dev.fulcrum.testkit.EtcdFleetApps;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35 §3 on a real three-member etcd: with one member killed, changes still reach every instance; with every
 * member gone, each instance keeps serving on its last good config with no failed request and says
 * {@code unreachable} since when; when the members are back, a change written after is applied without a restart.
 */
class EtcdConfigFaultsTest {
    private static final String PREFIX = "/fulcrum/test";
    private EtcdCluster etcd;
    private EtcdFleetApps fleet;
    private EtcdFleetApps.Instance a;
    private EtcdFleetApps.Instance b;

    @BeforeEach
    void start() {
        fleet = EtcdFleetApps.owning(EtcdCluster.of(3), PREFIX, "a", "b");
        etcd = fleet.cluster();
        a = fleet.instance("a");
        b = fleet.instance("b");
    }

    @AfterEach
    void stop() {
        if (fleet != null) {
            fleet.close(); // and etcd with it
        }
    }

    @Test
    void withOneMemberKilledChangesStillReachEveryInstance() {
        etcd.member(0).kill(); // the first endpoint each instance tries
        fleet.putConfig(fleet.config(6));
        fleet.awaitWeight(6);
        fleet.etcd().put(PREFIX + "/drained/b2", "{\"at\":1}");
        await().atMost(Duration.ofSeconds(10)).until(() -> List.of(a, b).stream()
                .allMatch(i -> !fleet.state(i).backend("b2").state().equals("UP")));
        for (EtcdFleetApps.Instance i : List.of(a, b)) {
            assertThat(fleet.state(i).configSource().state()).isEqualTo("ok");
        }
    }

    @Test
    void withEveryMemberGoneEachInstanceServesSaysSoAndCatchesUpWhenTheyReturn() {
        long before = System.currentTimeMillis();
        etcd.stopAll();
        await().atMost(Duration.ofSeconds(20)).until(() -> List.of(a, b).stream()
                .allMatch(i -> !fleet.state(i).configSource().reachable()));
        for (EtcdFleetApps.Instance i : List.of(a, b)) {
            EngineState.ConfigSourceInfo source = fleet.state(i).configSource();
            assertThat(source.state()).isEqualTo("unreachable");
            assertThat(source.since()).isBetween(before, System.currentTimeMillis());
            assertThat(i.events()).anySatisfy(e -> {
                assertThat(e.type()).isEqualTo("config");
                assertThat(e.from()).isEqualTo("ok");
                assertThat(e.to()).startsWith("unreachable: ");
            });
        }
        // a bounded stream of requests through each proxy while etcd is gone: every one answered
        int failed = 0;
        int sent = 0;
        for (int n = 0; n < 200; n++) {
            for (EtcdFleetApps.Instance i : List.of(a, b)) {
                sent++;
                if (fleet.proxied(i, "/outage/" + n) != 200) {
                    failed++;
                }
            }
        }
        assertThat(failed).as("failed of " + sent + " requests during the outage").isZero();

        etcd.startAll();
        await().atMost(Duration.ofSeconds(20)).until(() -> List.of(a, b).stream()
                .allMatch(i -> fleet.state(i).configSource().reachable()));
        long written = System.nanoTime();
        long rev = fleet.putConfig(fleet.config(9));
        fleet.awaitWeight(9);
        System.out.printf("after the outage, etcd write to applied on both instances: %.0f ms%n",
                (System.nanoTime() - written) / 1e6);
        for (EtcdFleetApps.Instance i : List.of(a, b)) {
            assertThat(fleet.state(i).configSource().revision()).isEqualTo(rev);
            assertThat(i.events()).anySatisfy(e -> assertThat(e).extracting(EngineEvent::type, EngineEvent::from,
                    EngineEvent::to).containsExactly("config", "unreachable", "ok"));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> fleet.registrations().keySet().containsAll(List.of("a", "b"))
                && fleet.registrations().values().stream().allMatch(r -> r.get("configRevision").asLong() == rev));
    }
}
