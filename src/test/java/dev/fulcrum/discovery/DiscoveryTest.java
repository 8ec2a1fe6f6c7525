package dev.fulcrum.discovery;

import dev.fulcrum.engine.BackendSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import dev.fulcrum.config.DiscoveryConfig;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.time.ManualClock;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Type;

/**
 * Discovery against a real DNS server on loopback (answers built with dnsjava) and a real watched file. Its
 * refreshes run on a {@link ManualClock}: a test refreshes by hand ({@link Discovery#refreshNow}) or moves the
 * clock past {@code refreshMs}. The engine runs on its own clock; a drained backend leaves it on the engine's tick.
 */
class DiscoveryTest extends DnsDiscoveryFixture {
    private Runnable detach = () -> { };

    @AfterEach
    void detach() {
        detach.run();
    }

    @Test
    void everyAddressOfANameBecomesABackendAndChangesAreFollowed() throws Exception {
        dns.answers = List.of(InetAddress.getByName("127.0.0.11"), InetAddress.getByName("127.0.0.12"),
                InetAddress.getByName("::1"));
        discovery.configure(Map.of(Engine.DEFAULT_POOL, List.of(DiscoveryConfig.dns("api.test", 3000, 60_000, dns.address()))));
        discovery.refreshNow();
        Map<String, BackendView> b = backends();
        assertThat(b.keySet()).containsExactlyInAnyOrder("api.test-127.0.0.11-3000", "api.test-127.0.0.12-3000",
                "api.test-0.0.0.0.0.0.0.1-3000");
        assertThat(b.get("api.test-127.0.0.11-3000").url()).isEqualTo("http://127.0.0.11:3000");
        assertThat(b.get("api.test-0.0.0.0.0.0.0.1-3000").url()).isEqualTo("http://[0:0:0:0:0:0:0:1]:3000");
        // new addresses join with slow start
        assertThat(b.get("api.test-127.0.0.11-3000").effectiveWeight()).isLessThan(1.0);

        dns.answers = List.of(InetAddress.getByName("127.0.0.12"), InetAddress.getByName("127.0.0.13"));
        discovery.refreshNow();
        b = backends();
        assertThat(b).containsKey("api.test-127.0.0.13-3000");
        // vanished ones drain (and, with nothing in flight, are removed)
        await().atMost(Duration.ofSeconds(5)).until(() -> !backends().containsKey("api.test-127.0.0.11-3000"));
        assertThat(backends().keySet()).containsExactlyInAnyOrder("api.test-127.0.0.12-3000", "api.test-127.0.0.13-3000");
        assertThat(dns.queries).isGreaterThanOrEqualTo(4);
    }

    @Test
    void aDnsOutageKeepsTheLastGoodSetAndSaysSo() throws Exception {
        List<EngineEvent> events = new CopyOnWriteArrayList<>();
        engine.subscribe(events::add);
        dns.answers = List.of(InetAddress.getByName("127.0.0.21"));
        discovery.configure(Map.of(Engine.DEFAULT_POOL, List.of(DiscoveryConfig.dns("svc.test", 8080, 60_000, dns.address()))));
        discovery.refreshNow();
        assertThat(backends()).containsKey("svc.test-127.0.0.21-8080");
        dns.close(); // the server goes away: queries time out
        discovery.refreshNow();
        assertThat(backends()).containsKey("svc.test-127.0.0.21-8080");
        await().atMost(Duration.ofSeconds(5)).until(() -> events.stream()
                .anyMatch(e -> e.type().equals("discovery") && e.to().startsWith("failed: dns:svc.test")));
    }

    @Test
    void aWatchedFileAddsReweightsAndRemovesBackends(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("backends.json");
        Files.writeString(file, "[{\"id\":\"f1\",\"url\":\"http://127.0.0.1:7001\",\"weight\":2},"
                + "{\"id\":\"f2\",\"url\":\"http://127.0.0.1:7002\"}]");
        discovery.configure(Map.of(Engine.DEFAULT_POOL, List.of(DiscoveryConfig.file(file.toString(), 60_000))));
        discovery.refreshNow();
        assertThat(backends().keySet()).containsExactlyInAnyOrder("f1", "f2");
        assertThat(backends().get("f1").weight()).isEqualTo(2);

        Files.writeString(file, "[{\"id\":\"f1\",\"url\":\"http://127.0.0.1:7001\",\"weight\":5}]");
        discovery.refreshNow();
        assertThat(backends().get("f1").weight()).isEqualTo(5);
        await().atMost(Duration.ofSeconds(5)).until(() -> !backends().containsKey("f2"));

        // a half-written file keeps the last good list
        Files.writeString(file, "[{\"id\":\"f1\",\"url\":");
        discovery.refreshNow();
        assertThat(backends().keySet()).containsExactly("f1");
        // and a bad entry names the field and value
        Files.writeString(file, "[{\"id\":\"f1\",\"url\":\"http://127.0.0.1:7001\",\"weight\":-1}]");
        discovery.refreshNow();
        assertThat(backends().get("f1").weight()).isEqualTo(5);
    }

    @Test
    void aWatchedFileLabelsItsBackendsAndRelabelsThemInPlace(@TempDir Path dir) throws Exception {
        // given a file with a labelled backend and one without labels
        Path file = dir.resolve("backends.json");
        Files.writeString(file, "[{\"id\":\"f1\",\"url\":\"http://127.0.0.1:7001\",\"weight\":2,"
                + "\"labels\":{\"zone\":\"a\",\"cost\":\"0.2\"}},{\"id\":\"f2\",\"url\":\"http://127.0.0.1:7002\"}]");
        discovery.configure(Map.of(Engine.DEFAULT_POOL, List.of(DiscoveryConfig.file(file.toString(), 60_000))));
        discovery.refreshNow();
        assertThat(backends().get("f1").labels()).containsExactly(Map.entry("cost", "0.2"), Map.entry("zone", "a"));
        assertThat(backends().get("f2").labels()).isEmpty();
        dev.fulcrum.engine.Backend f1 = engine.allBackends().stream().filter(b -> b.id().equals("f1")).findFirst()
                .orElseThrow();
        List<EngineEvent> events = new CopyOnWriteArrayList<>();
        engine.subscribe(events::add);

        // when only its labels change in the file
        Files.writeString(file, "[{\"id\":\"f1\",\"url\":\"http://127.0.0.1:7001\",\"weight\":2,"
                + "\"labels\":{\"zone\":\"b\"}},{\"id\":\"f2\",\"url\":\"http://127.0.0.1:7002\"}]");
        discovery.refreshNow();

        // then the same backend has them, nothing else about it changed
        assertThat(backends().get("f1").labels()).isEqualTo(Map.of("zone", "b"));
        assertThat(engine.allBackends()).contains(f1);
        assertThat(f1.label("zone")).isEqualTo("b");
        assertThat(backends().get("f1").weight()).isEqualTo(2);
        assertThat(events).noneMatch(e -> "f1".equals(e.backend()));

        // and a bad label keeps the last good list, labels included
        Files.writeString(file, "[{\"id\":\"f1\",\"url\":\"http://127.0.0.1:7001\",\"labels\":{\"Zone\":\"c\"}}]");
        discovery.refreshNow();
        assertThat(backends().keySet()).containsExactlyInAnyOrder("f1", "f2");
        assertThat(backends().get("f1").labels()).isEqualTo(Map.of("zone", "b"));
    }

    @Test
    void addressesFromDnsHaveNoLabels() throws Exception {
        dns.answers = List.of(InetAddress.getByName("127.0.0.31"));
        discovery.configure(Map.of(Engine.DEFAULT_POOL, List.of(DiscoveryConfig.dns("svc.test", 8080, 60_000,
                dns.address()))));
        discovery.refreshNow();

        assertThat(backends().get("svc.test-127.0.0.31-8080").labels()).isEmpty();
    }

    @Test
    void removingASourceRetiresWhatItBrought(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("b.json");
        Files.writeString(file, "[{\"id\":\"g1\",\"url\":\"http://127.0.0.1:7101\"}]");
        discovery.configure(Map.of(Engine.DEFAULT_POOL, List.of(DiscoveryConfig.file(file.toString(), 60_000))));
        discovery.refreshNow();
        assertThat(backends()).containsKey("g1");
        discovery.configure(Map.of(Engine.DEFAULT_POOL, List.of()));
        await().atMost(Duration.ofSeconds(5)).until(() -> backends().isEmpty());
        assertThat(discovery.ownedIds()).isEmpty();
    }

    @Test
    void aNameThatStopsExistingKeepsTheLastGoodSetButAnEmptyAnswerEmptiesIt() throws Exception {
        List<EngineEvent> events = new CopyOnWriteArrayList<>();
        engine.subscribe(events::add);
        dns.answers = List.of(InetAddress.getByName("127.0.0.31"));
        discovery.configure(Map.of(Engine.DEFAULT_POOL, List.of(DiscoveryConfig.dns("gone.test", 8080, 60_000, dns.address()))));
        discovery.refreshNow();
        assertThat(backends()).containsKey("gone.test-127.0.0.31-8080");

        // NXDOMAIN (a zone pushed half-way, a registrar slip) is a failed lookup, not "no backends"
        dns.rcode = Rcode.NXDOMAIN;
        discovery.refreshNow();
        discovery.refreshNow();
        assertThat(backends()).containsKey("gone.test-127.0.0.31-8080");
        assertThat(discovery.ownedIds()).containsExactly("gone.test-127.0.0.31-8080");
        assertThat(events).filteredOn(e -> e.type().equals("discovery") && e.to().startsWith("failed: dns:gone.test"))
                .hasSize(1);

        // one family failing while the other has no records is a failed lookup too (the A records are unknown)
        dns.rcode = Rcode.NOERROR;
        dns.servfailType = Type.A;
        discovery.refreshNow();
        assertThat(discovery.ownedIds()).containsExactly("gone.test-127.0.0.31-8080");

        // the name exists and has no address records: a valid, empty answer
        dns.servfailType = 0;
        dns.answers = List.of();
        discovery.refreshNow();
        assertThat(discovery.ownedIds()).isEmpty();
        await().atMost(Duration.ofSeconds(5)).until(() -> !backends().containsKey("gone.test-127.0.0.31-8080"));
    }

    @Test
    void aDeletedFileKeepsTheLastGoodSetButAnEmptyListEmptiesIt(@TempDir Path dir) throws Exception {
        List<EngineEvent> events = new CopyOnWriteArrayList<>();
        engine.subscribe(events::add);
        Path file = dir.resolve("backends.json");
        Files.writeString(file, "[{\"id\":\"h1\",\"url\":\"http://127.0.0.1:7201\"}]");
        discovery.configure(Map.of(Engine.DEFAULT_POOL, List.of(DiscoveryConfig.file(file.toString(), 60_000))));
        discovery.refreshNow();
        assertThat(backends()).containsKey("h1");

        // deleted (a deploy tool replacing it, a volume unmounted): keep what it said last
        Files.delete(file);
        discovery.refreshNow();
        assertThat(backends()).containsKey("h1");
        assertThat(discovery.ownedIds()).containsExactly("h1");
        assertThat(events).anyMatch(e -> e.type().equals("discovery") && e.to().startsWith("failed: file:")
                && e.to().contains("backends.json"));
        // unreadable (here: a directory in its place) is the same
        Files.createDirectory(file);
        discovery.refreshNow();
        assertThat(discovery.ownedIds()).containsExactly("h1");
        Files.delete(file);

        // a file that exists and lists nobody means nobody
        Files.writeString(file, "[]");
        discovery.refreshNow();
        assertThat(discovery.ownedIds()).isEmpty();
        await().atMost(Duration.ofSeconds(5)).until(() -> !backends().containsKey("h1"));
        assertThat(events).anyMatch(e -> e.type().equals("discovery") && "failed".equals(e.from()));
    }

    @Test
    void aBackendRemovedByAnOperatorDuringARefreshDoesNotStopTheSourcesRefreshes(@TempDir Path dir) throws Exception {
        // an operator's DELETE can land between a refresh's look at the engine and its own removal of a vanished
        // backend: the removal then finds no such backend. That must not end the source's schedule (a JDK scheduled
        // executor silently cancels a task that throws): the next refresh still comes.
        Path file = dir.resolve("backends.json");
        Files.writeString(file, "[{\"id\":\"x1\",\"url\":\"http://127.0.0.1:7401\"},"
                + "{\"id\":\"x2\",\"url\":\"http://127.0.0.1:7402\"}]");
        discovery.configure(Map.of(Engine.DEFAULT_POOL, List.of(DiscoveryConfig.file(file.toString(), 100))));
        clock.runDue(); // the first refresh, due at once
        assertThat(backends()).containsKeys("x1", "x2");
        // the engine tells its subscribers on its control thread, inside the removal: the "operator" removes x2 there,
        // after the refresh looked at the engine and before it removes x2 itself
        engine.subscribe(e -> {
            if ("x1".equals(e.backend()) && backends().containsKey("x2")) {
                engine.remove("x2");
            }
        });
        Files.writeString(file, "[]");
        clock.advanceMillis(100);
        await().atMost(Duration.ofSeconds(5)).until(() -> backends().isEmpty());
        Files.writeString(file, "[{\"id\":\"x3\",\"url\":\"http://127.0.0.1:7403\"}]");
        clock.advanceMillis(100);
        assertThat(backends()).as("the source still refreshes").containsKey("x3");
    }

    @Test
    void aSourceIsAskedAgainEveryRefreshMsAndNoMoreAfterClose(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("backends.json");
        Files.writeString(file, "[{\"id\":\"r1\",\"url\":\"http://127.0.0.1:7501\"}]");
        discovery.configure(Map.of(Engine.DEFAULT_POOL, List.of(DiscoveryConfig.file(file.toString(), 1000))));
        clock.runDue(); // the first refresh, due at once
        assertThat(discovery.ownedIds()).containsExactly("r1");

        Files.writeString(file, "[{\"id\":\"r1\",\"url\":\"http://127.0.0.1:7501\",\"weight\":3}]");
        clock.advanceMillis(999);
        assertThat(backends().get("r1").weight()).as("before refreshMs").isEqualTo(1);
        clock.advanceMillis(1);
        assertThat(backends().get("r1").weight()).as("at refreshMs").isEqualTo(3);

        discovery.close();
        assertThat(clock.pending()).as("its refreshes, cancelled; the clock it was given goes on").isZero();
        Files.writeString(file, "[{\"id\":\"r1\",\"url\":\"http://127.0.0.1:7501\",\"weight\":4}]");
        clock.advanceMillis(5000);
        assertThat(backends().get("r1").weight()).isEqualTo(3);
    }

    @Test
    void aRefusedEntryIsLoggedOnceWhileItStaysRefused(@TempDir Path dir) throws Exception {
        List<String> warnings = captureWarnings();
        engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec("taken", "http://127.0.0.1:7301", 1, null, false), false);
        Path file = dir.resolve("backends.json");
        String ok = "{\"id\":\"k1\",\"url\":\"http://127.0.0.1:7302\"}";
        String clash = "{\"id\":\"taken\",\"url\":\"http://127.0.0.1:7303\"}";
        String noCap = "{\"id\":\"k2\",\"url\":\"http://127.0.0.1:7304\",\"maxInFlight\":0}";
        Files.writeString(file, "[" + ok + "," + clash + "]");
        discovery.configure(Map.of(Engine.DEFAULT_POOL, List.of(DiscoveryConfig.file(file.toString(), 60_000))));
        for (int i = 0; i < 3; i++) {
            discovery.refreshNow();
        }
        assertThat(discovery.ownedIds()).containsExactly("k1");
        assertThat(backends().get("taken").url()).isEqualTo("http://127.0.0.1:7301");
        assertThat(warnings).singleElement().asString().contains("taken", "already in use");

        // gone, then back: said again, once
        Files.writeString(file, "[" + ok + "]");
        discovery.refreshNow();
        Files.writeString(file, "[" + ok + "," + clash + "]");
        discovery.refreshNow();
        discovery.refreshNow();
        assertThat(warnings).hasSize(2);
        assertThat(discovery.ownedIds()).containsExactly("k1");

        // a bad entry refuses the file, said once per problem, and the last good list stays
        warnings.clear();
        Files.writeString(file, "[" + ok + "," + noCap + "]");
        discovery.refreshNow();
        discovery.refreshNow();
        assertThat(warnings).singleElement().asString().contains("backends.json[1].maxInFlight", "(got: 0)");
        assertThat(discovery.ownedIds()).containsExactly("k1");
        Files.writeString(file, "[" + ok + ",{\"id\":\"k3\",\"url\":\"http://127.0.0.1:7305\",\"weight\":-1}]");
        discovery.refreshNow();
        discovery.refreshNow();
        assertThat(warnings).hasSize(2);
        assertThat(warnings.get(1)).contains("weight", "(got: -1)");
        assertThat(discovery.ownedIds()).containsExactly("k1");
    }

    /** Every WARN the discovery logs from now until the test ends, as formatted text. */
    private List<String> captureWarnings() {
        Logger logger = (Logger) LoggerFactory.getLogger(Discovery.class);
        List<String> out = new CopyOnWriteArrayList<>();
        AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent e) {
                if (e.getLevel() == Level.WARN) {
                    out.add(e.getFormattedMessage());
                }
            }
        };
        appender.start();
        logger.addAppender(appender);
        detach = () -> logger.detachAppender(appender);
        return out;
    }
}
