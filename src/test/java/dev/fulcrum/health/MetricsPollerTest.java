package dev.fulcrum.health;

import dev.fulcrum.engine.BackendMetrics;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.demo.DemoBackend;
import dev.fulcrum.demo.DemoSpec;
import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.FreePort;
import dev.fulcrum.testkit.RawBackend;
import dev.fulcrum.time.ManualClock;
import io.undertow.Undertow;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MetricsPollerTest {
    private final ManualClock clock = new ManualClock(1_000_000_000L, 1_000L);
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private Engine engine;

    @BeforeEach
    void startEngine() {
        engine = Engine.start(EngineSettings.DEFAULT);
        engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.ADAPTIVE));
    }

    @AfterEach
    void stopAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        engine.close();
    }

    private Backend add(String id, String url) {
        engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec(id, url, 1, null, false), false);
        return engine.backend(id);
    }

    private DemoBackend demo(DemoSpec spec) {
        DemoBackend d = DemoBackend.start(spec);
        toClose.add(d);
        return d;
    }

    /** A server whose every answer is {@code status} with {@code body}, counting requests. */
    private String fixedServer(int status, String body, AtomicInteger hits) {
        Undertow u = Undertow.builder().addHttpListener(0, "127.0.0.1").setIoThreads(1).setWorkerThreads(1)
                .setHandler(ex -> {
                    hits.incrementAndGet();
                    ex.setStatusCode(status);
                    ex.getResponseSender().send(body);
                }).build();
        u.start();
        toClose.add(u::stop);
        return "http://127.0.0.1:" + ((InetSocketAddress) u.getListenerInfo().get(0).getAddress()).getPort();
    }

    @Test
    void backendsOfAPoolThatDoesNotUseTheMetricsAreNotAskedUntilItDoes() {
        AtomicInteger hits = new AtomicInteger();
        engine.addPool("web", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addBackend("web", new BackendSpec("dev-server", fixedServer(404, "not found", hits), 1, null, false), false);
        MetricsPoller poller = new MetricsPoller(engine, 1000, 0, clock);
        toClose.add(poller);

        poller.pollAll().join();
        poller.pollAll().join();
        assertThat(hits).hasValue(0);

        engine.setStrategy("web", StrategySpec.of(StrategySpec.ADAPTIVE));
        poller.pollAll().join();
        assertThat(hits).hasValue(1);
    }

    @Test
    void feedsADemoBackendsLiveMetricsToItsEngineBackend() {
        DemoBackend d = demo(new DemoSpec("d", 0, 1, 60_000, 0));
        Backend b = add("d", d.url());
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<CompletableFuture<HttpResponse<Void>>> parked = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            parked.add(http.sendAsync(HttpRequest.newBuilder(URI.create(d.url() + "/slow")).build(),
                    HttpResponse.BodyHandlers.discarding()));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> d.inFlight() == 3);

        MetricsPoller poller = new MetricsPoller(engine, 1000, 60_000, clock);
        toClose.add(poller);
        long before = engine.ticker().nanos();
        poller.pollAll().join();

        BackendMetrics m = b.metrics();
        assertThat(m).isNotNull();
        assertThat(m.inflight()).isEqualTo(3);
        assertThat(m.cpu()).isCloseTo(d.cpu(), Offset.offset(0.001)).isGreaterThan(0);
        assertThat(m.latencyMs()).isEqualTo(60_000.0); // nothing completed yet: the setting
        assertThat(m.atNanos()).isBetween(before, engine.ticker().nanos());
        assertThat(poller.isBackedOff("d")).isFalse();
        parked.forEach(f -> f.cancel(true));
    }

    @Test
    void aBackendWithoutMetricsIsLeftAloneForAMinuteThenAskedAgain() {
        AtomicInteger hits = new AtomicInteger();
        Backend b = add("plain", fixedServer(404, "not found", hits));
        MetricsPoller poller = new MetricsPoller(engine, 1000, 60_000, clock);
        toClose.add(poller);

        poller.pollAll().join();
        assertThat(hits).hasValue(1);
        assertThat(poller.isBackedOff("plain")).isTrue();
        assertThat(b.metrics()).isNull();

        clock.advanceMillis(59_000);
        poller.pollAll().join();
        assertThat(hits).hasValue(1);

        clock.advanceMillis(1_001);
        assertThat(poller.isBackedOff("plain")).isFalse();
        poller.pollAll().join();
        assertThat(hits).hasValue(2);
    }

    @Test
    void anAnswerWithoutTheThreeNumbersIsNotReported() {
        AtomicInteger hits = new AtomicInteger();
        Backend b = add("odd", fixedServer(200, "{\"cpu\":0.5}", hits));
        MetricsPoller poller = new MetricsPoller(engine, 1000, 60_000, clock);
        toClose.add(poller);
        poller.pollAll().join();
        assertThat(hits).hasValue(1);
        assertThat(b.metrics()).isNull();
        assertThat(poller.isBackedOff("odd")).isTrue();
    }

    @Test
    void outOfRangeNumbersAreClamped() {
        Backend b = add("wild", fixedServer(200, "{\"cpu\":7,\"inflight\":-2,\"latencyMs\":-1}", new AtomicInteger()));
        MetricsPoller poller = new MetricsPoller(engine, 1000, 60_000, clock);
        toClose.add(poller);
        poller.pollAll().join();
        assertThat(b.metrics().cpu()).isEqualTo(1.0);
        assertThat(b.metrics().inflight()).isZero();
        assertThat(b.metrics().latencyMs()).isZero();
    }

    @Test
    void aRefusedConnectionBacksOffToo() throws Exception {
        int port = FreePort.loopback();
        add("gone", "http://127.0.0.1:" + port);
        MetricsPoller poller = new MetricsPoller(engine, 1000, 60_000, clock);
        toClose.add(poller);
        poller.pollAll().join();
        assertThat(poller.isBackedOff("gone")).isTrue();
    }

    @Test
    void aStartedPollerKeepsTheMetricsFresh() {
        DemoBackend d = demo(DemoSpec.of("fresh", 0, 1));
        Backend b = add("fresh", d.url());
        MetricsPoller poller = new MetricsPoller(engine, 100, 60_000, clock).start();
        toClose.add(poller);
        clock.runDue(); // the first round, due at once
        await().atMost(Duration.ofSeconds(10)).until(() -> b.metrics() != null);
        long first = b.metrics().atNanos();
        clock.advanceMillis(100); // the next round
        await().atMost(Duration.ofSeconds(10)).until(() -> b.metrics().atNanos() > first);
        poller.close();
        assertThat(clock.pending()).as("its rounds, cancelled; the clock it was given goes on").isZero();
    }

    @Test
    void aBackendThatDoesNotAnswerWithinThePeriodIsAskedAgainThenLeftAloneLongerAfterEachMiss() throws Exception {
        RawBackend hung = RawBackend.start(RawBackend.hung(""));
        toClose.add(hung);
        Backend b = add("hung", hung.url());
        MetricsPoller poller = new MetricsPoller(engine, 1000, 60_000, clock);
        toClose.add(poller);
        CompletableFuture<Void> round = poller.pollAll();
        await().atMost(Duration.ofSeconds(10)).until(() -> hung.accepted.get() == 1);
        clock.advanceMillis(999);
        assertThat(round).as("a poll out for less than its period").isNotDone();
        assertThat(poller.isBackedOff("hung")).isFalse();
        clock.advanceMillis(1);
        assertThat(round).as("a poll out for its period").isDone();
        assertThat(poller.isBackedOff("hung")).as("one miss: asked again in the next round").isFalse();

        missAgain(poller, hung.accepted::get, 2);
        assertThat(poller.isBackedOff("hung")).as("two in a row: left alone for a period").isTrue();
        assertThat(poller.pollAll()).as("a round while it is left alone asks nothing").isDone();
        assertThat(hung.accepted.get()).isEqualTo(2);
        clock.advanceMillis(1000);
        assertThat(poller.isBackedOff("hung")).isFalse();

        missAgain(poller, hung.accepted::get, 3);
        clock.advanceMillis(2999);
        assertThat(poller.isBackedOff("hung")).as("three in a row: three periods").isTrue();
        clock.advanceMillis(1);
        assertThat(poller.isBackedOff("hung")).isFalse();
        assertThat(b.metrics()).isNull();
    }

    /** One more round whose poll goes unanswered for the period; {@code asked} counts to {@code nth} once it is sent. */
    private void missAgain(MetricsPoller poller, java.util.function.IntSupplier asked, int nth) {
        CompletableFuture<Void> round = poller.pollAll();
        await().atMost(Duration.ofSeconds(10)).until(() -> asked.getAsInt() == nth);
        clock.advanceMillis(1000);
        assertThat(round).isDone();
    }

    @Test
    void anAnswerStartsTheCountOfMissesAgain() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        Set<Integer> unanswered = Set.of(1, 2, 4);
        RawBackend backend = RawBackend.start(peer -> {
            while (peer.readMessage() != null) {
                if (unanswered.contains(requests.incrementAndGet())) {
                    RawBackend.hung("").serve(peer); // no answer on this connection, ever
                    return;
                }
                peer.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 42\r\n\r\n"
                        + "{\"cpu\":0.25,\"inflight\":1,\"latencyMs\":12.5}");
            }
        });
        toClose.add(backend);
        Backend b = add("flaky", backend.url());
        MetricsPoller poller = new MetricsPoller(engine, 1000, 60_000, clock);
        toClose.add(poller);
        missAgain(poller, requests::get, 1);
        missAgain(poller, requests::get, 2);
        assertThat(poller.isBackedOff("flaky")).isTrue();
        clock.advanceMillis(1000);

        poller.pollAll().get(10, TimeUnit.SECONDS);
        assertThat(requests.get()).isEqualTo(3);
        assertThat(b.metrics().cpu()).isEqualTo(0.25);
        missAgain(poller, requests::get, 4);
        assertThat(poller.isBackedOff("flaky")).as("a first miss again, not a third").isFalse();
    }
}
