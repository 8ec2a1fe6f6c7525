package dev.fulcrum.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.testkit.EtcdCluster;
import dev.fulcrum.testkit.FreePort;
import dev.fulcrum.testkit.RawBackend;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client against one real etcd member: each test works under a prefix of its own. */
@Timeout(60)
class EtcdClientTest {
    private static EtcdCluster etcd;
    private static EtcdClient client;

    @BeforeAll
    static void start() {
        etcd = EtcdCluster.single();
        client = new EtcdClient(etcd.options());
    }

    @AfterAll
    static void stop() {
        if (etcd != null) {
            etcd.close();
        }
    }

    @Test
    void putThenGetGivesTheValueAndItsRevisions() {
        long rev = client.put("/get/a", "héllo");
        Range r = client.get("/get/a");
        assertThat(r.revision()).isEqualTo(rev);
        KeyValue kv = r.first();
        assertThat(kv.key()).isEqualTo("/get/a");
        assertThat(kv.value()).isEqualTo("héllo");
        assertThat(kv.modRevision()).isEqualTo(rev);
        assertThat(kv.createRevision()).isEqualTo(rev);
        assertThat(kv.version()).isEqualTo(1);
        assertThat(kv.lease()).isZero();

        Range none = client.get("/get/missing");
        assertThat(none.kvs()).isEmpty();
        assertThat(none.revision()).isGreaterThanOrEqualTo(rev);
    }

    @Test
    void getPrefixGivesOnlyTheKeysUnderItInKeyOrder() {
        client.put("/pre/b", "2");
        client.put("/pre/a", "1");
        client.put("/pre0", "outside: the byte after '/'");
        client.put("/pr", "outside: shorter");
        assertThat(client.getPrefix("/pre/").kvs()).extracting(KeyValue::key, KeyValue::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("/pre/a", "1"),
                        org.assertj.core.groups.Tuple.tuple("/pre/b", "2"));

        assertThat(client.deletePrefix("/pre/")).isEqualTo(2);
        assertThat(client.getPrefix("/pre/").kvs()).isEmpty();
        assertThat(client.get("/pre0").kvs()).hasSize(1);
        assertThat(client.delete("/pre0")).isEqualTo(1);
        assertThat(client.delete("/pre0")).isZero();
    }

    @Test
    void putIfSucceedsOnTheCurrentRevisionAndFailsOnAStaleOne() {
        Swap created = client.putIf("/cas/k", "v1", 0);
        assertThat(created.succeeded()).isTrue();
        assertThat(client.putIf("/cas/k", "again", 0).succeeded()).as("0 = must not exist").isFalse();

        Swap second = client.putIf("/cas/k", "v2", created.revision());
        assertThat(second.succeeded()).isTrue();
        assertThat(client.get("/cas/k").first().modRevision()).isEqualTo(second.revision());

        Swap stale = client.putIf("/cas/k", "lost", created.revision());
        assertThat(stale.succeeded()).isFalse();
        assertThat(stale.revision()).isEqualTo(second.revision());
        assertThat(client.get("/cas/k").first().value()).isEqualTo("v2");

        assertThat(client.deleteIf("/cas/k", created.revision()).succeeded()).isFalse();
        assertThat(client.get("/cas/k").kvs()).hasSize(1);
        assertThat(client.deleteIf("/cas/k", second.revision()).succeeded()).isTrue();
        assertThat(client.get("/cas/k").kvs()).isEmpty();
    }

    @Test
    void aKeyUnderALeaseGoesWhenTheLeaseExpiresOrIsRevoked() {
        long lease = client.grantLease(2);
        assertThat(lease).isNotZero();
        client.put("/lease/short", "x", lease);
        assertThat(client.get("/lease/short").first().lease()).isEqualTo(lease);
        assertThat(client.keepAlive(lease)).isBetween(1L, 2L);
        await().atMost(Duration.ofSeconds(10)).until(() -> client.get("/lease/short").kvs().isEmpty());
        assertThat(client.keepAlive(lease)).as("an expired lease").isLessThanOrEqualTo(0);

        long other = client.grantLease(60);
        client.put("/lease/revoked", "x", other);
        client.revoke(other);
        assertThat(client.get("/lease/revoked").kvs()).isEmpty();
        assertThat(client.keepAlive(other)).isLessThanOrEqualTo(0);
    }

    @Test
    void watchSeesPutsAndDeletesUnderThePrefixInOrder() throws Exception {
        long from = client.put("/watch/before", "0") + 1;
        List<EtcdClient.Event> seen = new CopyOnWriteArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<String> opened = new CopyOnWriteArrayList<>();
        Thread t = new Thread(() -> client.watch("/watch/", from, new EtcdClient.WatchListener() {
            @Override
            public void opened(String endpoint) {
                opened.add(endpoint);
            }

            @Override
            public void events(long revision, List<EtcdClient.Event> events) {
                seen.addAll(events);
            }

            @Override
            public void compacted(long compactRevision) {
                throw new AssertionError("no compaction here");
            }
        }, stop::get));
        t.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> !opened.isEmpty());
        assertThat(opened).containsExactly(etcd.endpoints().get(0).toString());
        long put = client.put("/watch/a", "1");
        client.put("/watchx", "outside");
        long del = client.delete("/watch/a") == 1 ? client.get("/watch/a").revision() : -1;
        // Idle longer than a request's timeout: a watch must stay open.
        await().pollDelay(EtcdClient.REQUEST_TIMEOUT.plusSeconds(1)).atMost(Duration.ofSeconds(10)).until(() -> true);
        long late = client.put("/watch/b", "2");
        await().atMost(Duration.ofSeconds(5)).until(() -> seen.size() >= 3);
        assertThat(seen).extracting(e -> e.kv().key(), EtcdClient.Event::deleted, e -> e.kv().modRevision())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("/watch/a", false, put),
                        org.assertj.core.groups.Tuple.tuple("/watch/a", true, del),
                        org.assertj.core.groups.Tuple.tuple("/watch/b", false, late));
        assertThat(seen.get(0).kv().value()).isEqualTo("1");
        assertThat(seen.get(1).kv().createRevision()).isZero();
        stop.set(true);
        t.join(2000);
        assertThat(t.isAlive()).as("watch returns once cancelled").isFalse();
    }

    @Test
    void aWatchFromACompactedRevisionSaysSo() {
        long first = client.put("/compact/a", "1");
        long now = client.put("/compact/a", "2");
        client.compact(now);
        AtomicLong compacted = new AtomicLong();
        client.watch("/compact/", first, new EtcdClient.WatchListener() {
            @Override
            public void events(long revision, List<EtcdClient.Event> events) {
                throw new AssertionError("events from a compacted revision: " + events);
            }

            @Override
            public void compacted(long compactRevision) {
                compacted.set(compactRevision);
            }
        }, () -> false);
        assertThat(compacted.get()).isEqualTo(now);
        assertThat(client.get("/compact/a").first().value()).isEqualTo("2");
        assertThatThrownBy(() -> client.compact(first))
                .isInstanceOf(EtcdException.class)
                .hasMessageContaining(etcd.endpoints().get(0).toString())
                .hasMessageContaining("compacted")
                .matches(e -> !((EtcdException) e).unreachable());
    }

    @Test
    void aRefusedConnectionIsUnreachableNamingTheEndpointAndTheNextOneIsTried() throws Exception {
        URI nobody = URI.create("http://127.0.0.1:" + FreePort.loopback());
        EtcdClient none = new EtcdClient(EtcdOptions.plain(List.of(nobody)));
        assertThatThrownBy(() -> none.get("/k"))
                .isInstanceOf(EtcdException.class)
                .hasMessage("etcd " + nobody + ": connection refused")
                .matches(e -> ((EtcdException) e).unreachable());

        EtcdClient second = new EtcdClient(EtcdOptions.plain(List.of(nobody, etcd.endpoints().get(0))));
        long rev = second.put("/fallback/k", "v");
        assertThat(second.get("/fallback/k").first().modRevision()).isEqualTo(rev);
    }

    @Test
    void aMemberRestartedSinceTheLastCallAnswersTheNextOne() {
        try (EtcdCluster own = EtcdCluster.single(); EtcdClient c = new EtcdClient(own.options())) {
            c.put("/restart/k", "before");
            // The client's kept-alive connection dies with the member; the next call must not fail on it.
            own.member(0).kill();
            own.member(0).start();
            assertThat(c.get("/restart/k").first().value()).isEqualTo("before");
            assertThat(c.put("/restart/k", "after")).isPositive();
        }
    }

    @Test
    void somethingElseThanEtcdAtTheEndpointIsAClearError() throws Exception {
        try (RawBackend web = RawBackend.scripted(req -> List.of(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 13\r\n\r\n<html></html>"))) {
            URI endpoint = URI.create("http://127.0.0.1:" + web.port());
            EtcdClient wrong = new EtcdClient(EtcdOptions.plain(List.of(endpoint)));
            assertThatThrownBy(() -> wrong.get("/k"))
                    .isInstanceOf(EtcdException.class)
                    .hasMessage("etcd " + endpoint + ": not an etcd v3 JSON answer (is this etcd's client URL?)"
                            + " (got: <html></html>)");
        }
    }

    @Test
    void badEndpointsAreRefusedNamingThem() {
        assertThatThrownBy(() -> new EtcdClient(EtcdOptions.plain(List.of(URI.create("ftp://127.0.0.1:2379")))))
                .hasMessage("endpoints: an etcd endpoint is http://HOST:PORT or https://HOST:PORT"
                        + " (got: ftp://127.0.0.1:2379)");
        assertThatThrownBy(() -> new EtcdClient(EtcdOptions.plain(List.of(URI.create("http://127.0.0.1")))))
                .hasMessageContaining("(got: http://127.0.0.1)");
        assertThatThrownBy(() -> new EtcdClient(EtcdOptions.plain(List.of())))
                .hasMessageStartingWith("endpoints: ");
    }
}
