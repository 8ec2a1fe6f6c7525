package dev.fulcrum.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.testkit.EtcdCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The mirror against real etcd: members killed under it, a compaction while it is away. */
@Timeout(120)
class EtcdMirrorTest {
    /**
     * What a member killed under a mirror looks like: refused, even when the first request after the kill went out
     * on a kept-alive connection the client had not yet seen closed (it is tried once more on a new one).
     */
    static final java.util.function.Function<String, String> DOWN =
            endpoint -> "unreachable: etcd " + java.util.regex.Pattern.quote(endpoint) + ": connection refused";

    /** What a mirror told, in order. */
    static final class Told implements EtcdMirror.Listener {
        final List<Map<String, KeyValue>> changes = new CopyOnWriteArrayList<>();
        final List<Long> revisions = new CopyOnWriteArrayList<>();
        final List<String> reachability = new CopyOnWriteArrayList<>();

        @Override
        public void changed(Map<String, KeyValue> keys, long revision) {
            changes.add(keys);
            revisions.add(revision);
        }

        @Override
        public void reachability(boolean reachable, long since, String problem) {
            assertThat(since).isPositive();
            reachability.add(reachable ? "reachable" : "unreachable: " + problem);
        }

        Map<String, String> last() {
            Map<String, String> out = new LinkedHashMap<>();
            if (!changes.isEmpty()) {
                changes.get(changes.size() - 1).forEach((k, v) -> out.put(k, v.value()));
            }
            return out;
        }
    }

    private static Map<String, String> values(EtcdClient client, String prefix) {
        Map<String, String> out = new LinkedHashMap<>();
        client.getPrefix(prefix).kvs().forEach(kv -> out.put(kv.key(), kv.value()));
        return out;
    }

    @Test
    void theFirstReadIsWholeAndEachChangeGivesTheWholeMap() {
        try (EtcdCluster etcd = EtcdCluster.single(); EtcdClient client = new EtcdClient(etcd.options())) {
            client.put("/m/a", "1");
            client.put("/other", "not mirrored");
            Told told = new Told();
            try (EtcdMirror mirror = EtcdMirror.start(client, "/m/", told)) {
                await().atMost(Duration.ofSeconds(5)).until(() -> told.last().equals(Map.of("/m/a", "1")));
                assertThat(told.reachability).containsExactly("reachable");
                long b = client.put("/m/b", "2");
                await().atMost(Duration.ofSeconds(5)).until(() -> told.last().equals(Map.of("/m/a", "1", "/m/b", "2")));
                assertThat(mirror.revision()).isEqualTo(b);
                client.delete("/m/a");
                await().atMost(Duration.ofSeconds(5)).until(() -> told.last().equals(Map.of("/m/b", "2")));
                assertThat(mirror.keys()).containsOnlyKeys("/m/b");
                assertThat(mirror.reachable()).isTrue();
            }
        }
    }

    @Test
    void aKilledMemberIsLeftForTheNextAndNothingWrittenMeanwhileIsMissed() {
        try (EtcdCluster etcd = EtcdCluster.of(3); EtcdClient mirrorClient = new EtcdClient(etcd.options());
                EtcdClient writer = new EtcdClient(EtcdOptions.plain(etcd.endpoints().subList(1, 3)))) {
            Told told = new Told();
            try (EtcdMirror mirror = EtcdMirror.start(mirrorClient, "/fleet/", told)) {
                for (int i = 0; i < 10; i++) {
                    writer.put("/fleet/k" + i, "v" + i);
                }
                await().atMost(Duration.ofSeconds(5)).until(() -> told.last().size() == 10);
                // The mirror watches on member 0, the first endpoint that answered.
                etcd.member(0).kill();
                List<Long> written = new ArrayList<>();
                for (int i = 10; i < 30; i++) {
                    written.add(writer.put("/fleet/k" + i, "v" + i));
                }
                writer.delete("/fleet/k0");
                Map<String, String> expected = values(writer, "/fleet/");
                await().atMost(Duration.ofSeconds(10)).until(() -> told.last().equals(expected));
                // Resumed from the last revision seen + 1: each write came as its own change, none skipped.
                assertThat(told.revisions).containsAll(written);
                assertThat(told.revisions).isSorted();
                assertThat(told.reachability).containsExactly("reachable");
                assertThat(mirror.revision()).isEqualTo(writer.get("/fleet/k1").revision());
            }
        }
    }

    @Test
    void aCompactionWhileAwayMakesItReadTheWholePrefixAgain() {
        try (EtcdCluster etcd = EtcdCluster.of(3);
                EtcdClient onlyFirst = new EtcdClient(EtcdOptions.plain(etcd.endpoints().subList(0, 1)));
                EtcdClient writer = new EtcdClient(EtcdOptions.plain(etcd.endpoints().subList(1, 3)))) {
            Told told = new Told();
            try (EtcdMirror mirror = EtcdMirror.start(onlyFirst, "/c/", told)) {
                writer.put("/c/gone", "deleted while away");
                writer.put("/c/kept", "1");
                await().atMost(Duration.ofSeconds(5)).until(() -> told.last().size() == 2);
                long seen = mirror.revision();

                etcd.member(0).kill();
                await().atMost(Duration.ofSeconds(5)).until(() -> told.reachability.size() == 2);
                writer.delete("/c/gone");
                writer.put("/c/kept", "2");
                for (int i = 0; i < 5; i++) {
                    writer.put("/c/new" + i, "n" + i);
                }
                long now = writer.put("/c/last", "x");
                writer.compact(now);
                Map<String, String> expected = values(writer, "/c/");

                etcd.member(0).start();
                await().atMost(Duration.ofSeconds(10)).until(() -> told.last().equals(expected));
                assertThat(mirror.revision()).isGreaterThanOrEqualTo(now).isGreaterThan(seen);
                assertThat(told.reachability).hasSize(3);
                assertThat(told.reachability.get(0)).isEqualTo("reachable");
                assertThat(told.reachability.get(1)).matches(DOWN.apply(etcd.endpoints().get(0).toString()));
                assertThat(told.reachability.get(2)).isEqualTo("reachable");
            }
        }
    }

    @Test
    void anUnreachableClusterIsToldNamingTheEndpointAndItsReturnToo() {
        try (EtcdCluster etcd = EtcdCluster.single(); EtcdClient client = new EtcdClient(etcd.options())) {
            Told told = new Told();
            try (EtcdMirror mirror = EtcdMirror.start(client, "/u/", told)) {
                await().atMost(Duration.ofSeconds(5)).until(() -> told.reachability.size() == 1);
                etcd.stopAll();
                await().atMost(Duration.ofSeconds(5)).until(() -> told.reachability.size() == 2);
                assertThat(told.reachability.get(1)).matches(DOWN.apply(etcd.endpoints().get(0).toString()));
                assertThat(mirror.reachable()).isFalse();

                etcd.startAll();
                client.put("/u/back", "yes");
                await().atMost(Duration.ofSeconds(5)).until(() -> told.last().equals(Map.of("/u/back", "yes")));
                assertThat(told.reachability).hasSize(3);
                assertThat(told.reachability.get(0)).isEqualTo("reachable");
                assertThat(told.reachability.get(1)).matches(DOWN.apply(etcd.endpoints().get(0).toString()));
                assertThat(told.reachability.get(2)).isEqualTo("reachable");
            }
        }
    }
}
