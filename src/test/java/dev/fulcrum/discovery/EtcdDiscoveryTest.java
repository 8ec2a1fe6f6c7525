package dev.fulcrum.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import dev.fulcrum.config.DiscoveryConfig;
import dev.fulcrum.config.DiscoveryTlsConfig;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.etcd.EtcdClient;
import dev.fulcrum.testkit.EtcdCluster;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * etcd discovery against a real etcd on loopback ({@link EtcdCluster}): every key under the prefix a backend, watched
 * (a change applies in well under the 5 s {@code refreshMs}, so only the watch can have brought it), a bad key named
 * and left out, etcd's absence survived with the last good set. Discovery runs on its own system scheduler: the watch
 * is real time.
 */
class EtcdDiscoveryTest {
    private static final String PREFIX = "/services/api/";
    private static final String A = "{\"url\": \"http://127.0.0.1:7601\", \"weight\": 3, \"labels\": {\"zone\": \"a\"}}";
    private static final String B = "{\"url\": \"http://127.0.0.1:7602\"}";

    private EtcdCluster etcd;
    private EtcdClient client;
    private Engine engine;
    private Discovery discovery;
    private final List<EngineEvent> events = new CopyOnWriteArrayList<>();
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private Runnable detach = () -> { };

    @BeforeEach
    void setUp() {
        etcd = EtcdCluster.single();
        client = new EtcdClient(etcd.options());
        engine = Engine.start(EngineSettings.DEFAULT.withSlowStartMs(10_000));
        engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.SMOOTH_WRR));
        engine.subscribe(events::add);
        captureWarnings();
        discovery = new Discovery(engine);
    }

    @AfterEach
    void tearDown() throws Exception {
        detach.run();
        for (AutoCloseable opened : new AutoCloseable[] {discovery, engine, client, etcd}) {
            if (opened != null) { // what setUp opened before etcd could not start
                opened.close();
            }
        }
    }

    private void watch(DiscoveryConfig config) {
        discovery.configure(Map.of(Engine.DEFAULT_POOL, List.of(config)));
    }

    private DiscoveryConfig plain() {
        return DiscoveryConfig.etcd(etcd.endpoints().stream().map(URI::toString).toList(), PREFIX);
    }

    private Map<String, BackendView> backends() {
        return engine.backends().stream().collect(Collectors.toMap(BackendView::id, v -> v));
    }

    private List<EngineEvent> discoveryEvents(String startingWith) {
        return events.stream().filter(e -> e.type().equals("discovery") && e.to() != null
                && e.to().startsWith(startingWith)).toList();
    }

    @Test
    void aKeyPutAppearsWithinASecondAChangeAppliesInPlaceAndADeleteDrainsAndRemoves() {
        client.put(PREFIX + "a", A);
        watch(plain());
        await().atMost(Duration.ofSeconds(5)).until(() -> backends().containsKey("a"));
        BackendView a = backends().get("a");
        assertThat(a.url()).isEqualTo("http://127.0.0.1:7601");
        assertThat(a.weight()).isEqualTo(3);
        assertThat(a.labels()).isEqualTo(Map.of("zone", "a"));
        assertThat(a.effectiveWeight()).as("joins with slow start").isLessThan(3.0);

        long put = System.nanoTime();
        client.put(PREFIX + "b", B);
        await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(5))
                .until(() -> backends().containsKey("b"));
        System.out.printf("etcd discovery: put to backend present in %d ms%n", (System.nanoTime() - put) / 1_000_000);

        dev.fulcrum.engine.Backend running = engine.backend("a");
        client.put(PREFIX + "a", "{\"url\": \"http://127.0.0.1:7601\", \"weight\": 7, \"labels\": {\"zone\": \"b\"}}");
        await().atMost(Duration.ofSeconds(1)).until(() -> backends().get("a").weight() == 7
                && backends().get("a").labels().equals(Map.of("zone", "b")));
        assertThat(engine.backend("a")).as("reweighted and relabelled in place").isSameAs(running);

        long delete = System.nanoTime();
        client.delete(PREFIX + "b");
        await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(5))
                .until(() -> !backends().containsKey("b"));
        System.out.printf("etcd discovery: delete to backend drained and removed in %d ms%n",
                (System.nanoTime() - delete) / 1_000_000);
        assertThat(events).anyMatch(e -> "b".equals(e.backend()) && e.type().equals("drain"));
        assertThat(discovery.ownedIds()).containsExactly("a");
    }

    @Test
    void aKeyWhoseLeaseExpiresIsRemoved() {
        watch(plain());
        long lease = client.grantLease(2);
        client.put(PREFIX + "leased", B, lease);
        client.put(PREFIX + "kept", A);
        await().atMost(Duration.ofSeconds(5)).until(() -> backends().keySet().containsAll(List.of("leased", "kept")));

        long granted = System.nanoTime();
        // nobody renews the lease (the service crashed): etcd deletes its key when the TTL runs out
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> !backends().containsKey("leased"));
        long ms = (System.nanoTime() - granted) / 1_000_000;
        System.out.printf("etcd discovery: a 2 s lease's backend removed %d ms after it was last seen%n", ms);
        assertThat(ms).as("not before the TTL").isGreaterThanOrEqualTo(1000);
        assertThat(backends()).containsKey("kept");
    }

    @Test
    void aBadKeyIsRefusedNamingTheKeyOnceAndTheRestApply() {
        client.put(PREFIX + "good", A);
        client.put(PREFIX + "bad-json", "{\"url\": ");
        client.put(PREFIX + "bad-weight", "{\"url\": \"http://127.0.0.1:7603\", \"weight\": -1}");
        client.put(PREFIX + "nested/id", B);
        watch(plain());
        await().atMost(Duration.ofSeconds(5)).until(() -> backends().containsKey("good"));

        // another change, so that the bad keys are read again: still said once each
        client.put(PREFIX + "other", B);
        await().atMost(Duration.ofSeconds(1)).until(() -> backends().containsKey("other"));
        assertThat(backends().keySet()).containsExactlyInAnyOrder("good", "other");
        assertThat(warnings).hasSize(3);
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("key " + PREFIX + "bad-json refused: "
                + PREFIX + "bad-json: invalid JSON"));
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("key " + PREFIX + "bad-weight refused: "
                + PREFIX + "bad-weight.weight: must be between 0 and 1000 (got: -1)"));
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("key " + PREFIX + "nested/id refused: its id "
                + "after the prefix must be 1-64 characters of A-Z a-z 0-9 . _ - (got: nested/id)"));

        // fixed: it joins
        client.put(PREFIX + "bad-weight", "{\"url\": \"http://127.0.0.1:7603\", \"weight\": 2}");
        await().atMost(Duration.ofSeconds(1)).until(() -> backends().containsKey("bad-weight"));
    }

    @Test
    void etcdGoneKeepsTheLastGoodSetAndSaysSoOnceAndBackItCatchesUp() {
        client.put(PREFIX + "a", A);
        client.put(PREFIX + "b", B);
        watch(plain());
        await().atMost(Duration.ofSeconds(5)).until(() -> backends().keySet().containsAll(List.of("a", "b")));

        long killed = System.nanoTime();
        etcd.member(0).kill();
        await().atMost(Duration.ofSeconds(15)).until(() -> !discoveryEvents("failed: etcd:" + PREFIX).isEmpty());
        System.out.printf("etcd discovery: etcd killed to the discovery event in %d ms%n",
                (System.nanoTime() - killed) / 1_000_000);
        assertThat(discoveryEvents("failed: etcd:" + PREFIX).get(0).to())
                .startsWith("failed: etcd:" + PREFIX + ": etcd " + etcd.endpoints().get(0));
        // the set stays while etcd is gone, through refreshes and retries
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                .until(() -> backends().keySet().containsAll(List.of("a", "b")));
        assertThat(discoveryEvents("failed: etcd:" + PREFIX)).as("said once").hasSize(1);
        assertThat(discovery.ownedIds()).containsExactlyInAnyOrder("a", "b");

        // the same member back on its data dir; what is written at once is caught up
        etcd.member(0).start();
        long back = System.nanoTime();
        client.put(PREFIX + "c", B.replace("7602", "7604"));
        client.delete(PREFIX + "a");
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                .until(() -> backends().containsKey("c") && !backends().containsKey("a"));
        System.out.printf("etcd discovery: etcd back to the keys written since applied in %d ms%n",
                (System.nanoTime() - back) / 1_000_000);
        assertThat(discoveryEvents("ok: etcd:" + PREFIX)).hasSize(1);
        assertThat(discovery.ownedIds()).containsExactlyInAnyOrder("b", "c");
    }

    @Test
    void anEtcdDownWhenTheSourceStartsIsSaidAndReadWhenItComes() {
        client.put(PREFIX + "a", A);
        etcd.member(0).kill();
        watch(plain());

        await().atMost(Duration.ofSeconds(10)).until(() -> !discoveryEvents("failed: etcd:" + PREFIX).isEmpty());
        assertThat(backends()).isEmpty();

        etcd.member(0).start();
        await().atMost(Duration.ofSeconds(10)).until(() -> backends().containsKey("a"));
        assertThat(discoveryEvents("ok: etcd:" + PREFIX)).hasSize(1);
        assertThat(discoveryEvents("failed: etcd:" + PREFIX)).hasSize(1);
    }

    @Test
    void aSecureEtcdIsReadWithItsCaClientCertificateAndUser() {
        etcd.close();
        client.close();
        etcd = EtcdCluster.secure();
        client = new EtcdClient(etcd.options());
        client.put(PREFIX + "s", A);
        watch(DiscoveryConfig.etcd(etcd.endpoints().stream().map(URI::toString).toList(), PREFIX,
                new DiscoveryTlsConfig(etcd.ca().toString(), etcd.clientCert().toString(), etcd.clientKey().toString()),
                etcd.user(), etcd.password()));
        await().atMost(Duration.ofSeconds(5)).until(() -> backends().containsKey("s"));

        // and a wrong password is a failing source that names etcd's refusal, not a crash
        discovery.configure(Map.of(Engine.DEFAULT_POOL, List.of(DiscoveryConfig.etcd(
                etcd.endpoints().stream().map(URI::toString).toList(), PREFIX,
                new DiscoveryTlsConfig(etcd.ca().toString(), etcd.clientCert().toString(), etcd.clientKey().toString()),
                etcd.user(), "wrong"))));
        await().atMost(Duration.ofSeconds(10)).until(() -> !discoveryEvents("failed: etcd:" + PREFIX).isEmpty());
    }

    @Test
    void closingStopsTheWatch() {
        watch(plain());
        client.put(PREFIX + "a", A);
        await().atMost(Duration.ofSeconds(5)).until(() -> backends().containsKey("a"));
        discovery.close();
        client.put(PREFIX + "late", B);
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(2))
                .until(() -> !backends().containsKey("late"));
        await().atMost(Duration.ofSeconds(5)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith("etcd-mirror") && t.isAlive()));
        discovery = null;
    }

    @Test
    void aPrefixWithNoKeyIsSaidNamingItAndAKeyPutLaterStillJoins() {
        captureWarnings(EtcdSource.class);
        DiscoveryConfig typo = DiscoveryConfig.etcd(etcd.endpoints().stream().map(URI::toString).toList(),
                "/services/apii/");
        watch(typo);
        await().atMost(Duration.ofSeconds(5)).until(() -> !warnings.isEmpty());
        assertThat(warnings).containsExactly("discovery etcd:/services/apii/: no key under /services/apii/ at "
                + etcd.endpoints().get(0) + ": no backend comes from it until one is put (is the prefix right?)");
        client.put("/services/apii/a", A);
        await().atMost(Duration.ofSeconds(5)).until(() -> backends().containsKey("a"));
        assertThat(warnings).hasSize(1);
    }

    /** Every WARN the discovery logs from now until the test ends, as formatted text. */
    private void captureWarnings() {
        captureWarnings(Discovery.class);
    }

    /** Every WARN {@code source}'s logger logs from now until the test ends, as formatted text. */
    private void captureWarnings(Class<?> source) {
        Logger logger = (Logger) LoggerFactory.getLogger(source);
        AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent e) {
                if (e.getLevel() == Level.WARN) {
                    warnings.add(e.getFormattedMessage());
                }
            }
        };
        appender.start();
        logger.addAppender(appender);
        detach = () -> logger.detachAppender(appender);
    }
}
