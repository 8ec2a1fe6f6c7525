package dev.fulcrum.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.config.DiscoveryConfig;
import dev.fulcrum.discovery.LoopbackDns.Srv;
import dev.fulcrum.engine.BackendState;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Rcode;

/**
 * DNS SRV discovery against a real DNS server on loopback ({@link LoopbackDns}, UDP), refreshed by hand on a
 * {@link ManualClock}: each record a backend {@code http://TARGET:PORT} with id {@code TARGET-PORT}, its weight the
 * record's clamped to 1..1000, higher priority numbers as backups.
 */
class DnsSrvDiscoveryTest extends DnsDiscoveryFixture {
    private static final String NAME = "_api._tcp.example.test";

    @BeforeEach
    void configure() {
        discovery.configure(Map.of(Engine.DEFAULT_POOL, List.of(DiscoveryConfig.dnsSrv(NAME, 60_000, dns.address()))));
    }

    @Test
    void everySrvRecordIsABackendWithItsWeightAndHigherPrioritiesAreBackups() {
        dns.srv = List.of(new Srv(10, 60, 8080, "api-1.example.test."), new Srv(10, 20, 8081, "api-2.example.test."),
                new Srv(20, 0, 9000, "spare.example.test."), new Srv(10, 65535, 8080, "big.example.test."));

        discovery.refreshNow();

        Map<String, BackendView> b = backends();
        assertThat(b.keySet()).containsExactlyInAnyOrder("api-1.example.test-8080", "api-2.example.test-8081",
                "spare.example.test-9000", "big.example.test-8080");
        assertThat(b.get("api-1.example.test-8080").url()).isEqualTo("http://api-1.example.test:8080");
        assertThat(b.get("api-1.example.test-8080").weight()).isEqualTo(60);
        assertThat(b.get("api-2.example.test-8081").weight()).isEqualTo(20);
        assertThat(b.get("spare.example.test-9000").weight()).as("weight 0: a small chance, not none").isEqualTo(1);
        assertThat(b.get("big.example.test-8080").weight()).as("clamped to the largest weight").isEqualTo(1000);
        assertThat(b.get("spare.example.test-9000").backup()).isTrue();
        assertThat(b.get("api-1.example.test-8080").backup()).isFalse();
        assertThat(b.get("api-1.example.test-8080").labels()).isEmpty();
        assertThat(dns.queries).isEqualTo(1);
    }

    @Test
    void changesAreFollowedAReweightInPlaceAVanishedRecordDrainsAndPrioritiesMove() {
        dns.srv = List.of(new Srv(10, 5, 8080, "a.example.test."), new Srv(10, 5, 8080, "b.example.test."),
                new Srv(20, 5, 8080, "c.example.test."));
        discovery.refreshNow();
        dev.fulcrum.engine.Backend a = engine.backend("a.example.test-8080");

        // a reweighted, b gone, c now of the lowest priority: no longer a backup
        dns.srv = List.of(new Srv(10, 50, 8080, "a.example.test."), new Srv(10, 5, 8080, "c.example.test."));
        discovery.refreshNow();

        assertThat(backends().get("a.example.test-8080").weight()).isEqualTo(50);
        assertThat(engine.backend("a.example.test-8080")).as("reweighted in place").isSameAs(a);
        assertThat(backends().get("c.example.test-8080").backup()).isFalse();
        await().atMost(Duration.ofSeconds(5)).until(() -> !backends().containsKey("b.example.test-8080"));
        assertThat(discovery.ownedIds()).containsExactlyInAnyOrder("a.example.test-8080", "c.example.test-8080");

        // a record of a higher priority number than the rest becomes a backup in place of the running one
        dns.srv = List.of(new Srv(10, 50, 8080, "a.example.test."), new Srv(30, 5, 8080, "c.example.test."));
        discovery.refreshNow();
        assertThat(backends().get("c.example.test-8080").backup()).isTrue();
    }

    @Test
    void aRecordBackWhileItsOldSelfStillDrainsReplacesIt() {
        dns.srv = List.of(new Srv(10, 5, 8080, "a.example.test."));
        discovery.refreshNow();
        dev.fulcrum.engine.Backend old = engine.backend("a.example.test-8080");
        assertThat(dev.fulcrum.engine.TestBackends.tryAcquire(old)).as("a request in flight").isNotNegative();

        dns.srv = List.of();
        discovery.refreshNow();
        assertThat(backends().get("a.example.test-8080").state()).isEqualTo(BackendState.DRAINING);

        // a flapping record: back before its last request ended; without the replacement its id would stay taken
        dns.srv = List.of(new Srv(10, 9, 8080, "a.example.test."));
        discovery.refreshNow();
        assertThat(backends().get("a.example.test-8080").state()).isEqualTo(BackendState.UP);
        assertThat(backends().get("a.example.test-8080").weight()).isEqualTo(9);
        assertThat(engine.backend("a.example.test-8080")).isNotSameAs(old);
        assertThat(discovery.ownedIds()).containsExactly("a.example.test-8080");
    }

    @Test
    void aTargetOfDotAndDuplicatesAreNotBackends() {
        // "." says the service is not offered at this name (RFC 2782); the same target and port twice is one backend,
        // at the better priority
        dns.srv = List.of(new Srv(10, 5, 8080, "."), new Srv(20, 5, 8080, "a.example.test."),
                new Srv(5, 7, 8080, "a.example.test."), new Srv(30, 1, 8080, "z.example.test."));
        discovery.refreshNow();

        assertThat(backends().keySet()).containsExactlyInAnyOrder("a.example.test-8080", "z.example.test-8080");
        assertThat(backends().get("a.example.test-8080").backup()).isFalse();
        assertThat(backends().get("a.example.test-8080").weight()).isEqualTo(7);
        assertThat(backends().get("z.example.test-8080").backup()).isTrue();
    }

    @Test
    void nxdomainAndATimeoutKeepTheLastGoodSetAndSaySoOnceButNoRecordsEmptiesIt() {
        List<EngineEvent> events = new CopyOnWriteArrayList<>();
        engine.subscribe(events::add);
        dns.srv = List.of(new Srv(10, 5, 8080, "a.example.test."));
        discovery.refreshNow();
        assertThat(discovery.ownedIds()).containsExactly("a.example.test-8080");

        dns.rcode = Rcode.NXDOMAIN;
        discovery.refreshNow();
        discovery.refreshNow();
        assertThat(discovery.ownedIds()).containsExactly("a.example.test-8080");
        await().atMost(Duration.ofSeconds(5)).until(() -> events.stream().filter(e -> e.type().equals("discovery")
                && e.to().startsWith("failed: dns-srv:" + NAME + ": SRV lookup")).count() == 1);

        dns.rcode = Rcode.NOERROR;
        dns.srv = List.of();
        discovery.refreshNow();
        assertThat(discovery.ownedIds()).isEmpty();
        await().atMost(Duration.ofSeconds(5)).until(() -> backends().isEmpty());
        assertThat(events).anyMatch(e -> e.type().equals("discovery") && e.to().equals("ok: dns-srv:" + NAME));

        dns.srv = List.of(new Srv(10, 5, 8080, "b.example.test."));
        discovery.refreshNow();
        dns.close(); // no server: the query times out
        discovery.refreshNow();
        assertThat(discovery.ownedIds()).containsExactly("b.example.test-8080");
    }

    @Test
    void anIdIsTargetDashPortInTheIdAlphabetAndAtMost64Characters() {
        assertThat(DnsSrvSource.id("api-1.example.test", 8080)).isEqualTo("api-1.example.test-8080");
        String longTarget = "a-very-long-host-name-for-a-service-instance.in-a-zone.example.test";
        String longId = DnsSrvSource.id(longTarget, 8080);
        assertThat(longId).hasSizeLessThanOrEqualTo(64).matches("[A-Za-z0-9._-]{1,64}")
                .startsWith("a-very-long-host-name").endsWith("-8080");
        assertThat(DnsSrvSource.id(longTarget.replace("zone", "zonf"), 8080)).isNotEqualTo(longId);
    }
}
