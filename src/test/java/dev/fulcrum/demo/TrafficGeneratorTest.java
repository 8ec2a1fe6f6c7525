package dev.fulcrum.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.hash.KeySpace;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.engine.sim.KeyDistribution;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.time.ManualClock;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The generator against a real Fulcrum (proxy + three demo backends, round robin) on loopback. Rates are
 * measured over the whole run with the 10% tolerance the workshop issue states; the machine may be busy,
 * so nothing depends on a single instant. The pacing itself is checked exactly on a {@link ManualClock}.
 */
class TrafficGeneratorTest {
    private static RunningFulcrum fulcrum;
    private static URI proxy;

    @BeforeAll
    static void startFulcrum() {
        fulcrum = RunningFulcrum.wholeApp(FulcrumConfig.of(StrategySpec.of("round-robin"), List.of(),
                        List.of(DemoBackendConfig.of("d1", 0, 1), DemoBackendConfig.of("d2", 0, 1),
                                DemoBackendConfig.of("d3", 0, 1)))
                .withProxyPort(0).withAdminPort(0)).start();
        proxy = URI.create(fulcrum.url());
        // warm-up: the first requests of a fresh JVM (class loading, JIT, first connections) take seconds on a
        // busy machine; the rate test measures the generator, not that
        try (TrafficGenerator g = TrafficGenerator.create(TrafficSettings.defaults(proxy).withRate(100)
                .withDuration(Duration.ofSeconds(3)))) {
            g.start().done().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterAll
    static void stopFulcrum() {
        if (fulcrum != null) {
            fulcrum.close();
        }
    }

    @Test
    void reachesTwoHundredRequestsPerSecondWithinTenPercentAndStopsAtItsDuration() throws Exception {
        TrafficSettings s = TrafficSettings.defaults(proxy).withRate(200).withDuration(Duration.ofSeconds(3))
                .withMaxConcurrency(500).withKeys(new KeyDistribution.Uniform(50)).withPostShare(0.25).withSeed(7);
        List<TrafficSnapshot> seen = Collections.synchronizedList(new ArrayList<>());
        try (TrafficGenerator g = TrafficGenerator.create(s)) {
            g.addListener(seen::add);
            g.start();
            TrafficSnapshot last = g.done().get(60, TimeUnit.SECONDS);

            assertThat(last.state()).isEqualTo(TrafficSnapshot.State.DONE);
            // sends i = 0..599 are due before 3 s: each was either sent or skipped, and nothing after the end
            assertThat(last.sent() + last.skipped()).isEqualTo(600);
            assertThat(last.elapsedNanos()).isGreaterThanOrEqualTo(Duration.ofSeconds(3).toNanos());
            assertThat(last.progress()).isEqualTo(1.0);
            assertThat(last.inFlight()).isZero();
            // achieved: answers over the planned 3 s, and the reported overall rate, both within 10% of 200
            assertThat(last.completed() / 3.0).as(last.toString()).isCloseTo(200.0, within(20.0));
            assertThat(last.rateOverall()).isCloseTo(200.0, within(20.0));
            assertThat(last.byStatus()).containsOnlyKeys(200);
            assertThat(last.errors()).isZero();
            assertThat(last.byBackend()).containsOnlyKeys("d1", "d2", "d3");
            last.byBackend().values().forEach(n -> assertThat(n).isBetween(last.completed() / 3 - 10,
                    last.completed() / 3 + 10));
            assertThat(last.latency().count()).isEqualTo(last.completed());
            assertThat(last.latency().p50Ms()).isPositive().isLessThanOrEqualTo(last.latency().p99Ms());
            assertThat(last.posts() + last.gets()).isEqualTo(last.sent());
            assertThat((double) last.posts() / last.sent()).isCloseTo(0.25, within(0.06));

            // listeners: several progress reports while running (4 Hz over 3 s), the last one DONE
            assertThat(seen.size()).isGreaterThanOrEqualTo(5);
            assertThat(seen.get(seen.size() - 1)).isEqualTo(last);
            assertThat(seen).extracting(TrafficSnapshot::state).contains(TrafficSnapshot.State.RUNNING);
            assertThat(seen).extracting(TrafficSnapshot::sent).isSorted();
            // once a full second has passed, the last-second rate reached the target (within 10%)
            assertThat(seen.stream().filter(x -> x.elapsedNanos() > 1_200_000_000L)
                    .mapToDouble(TrafficSnapshot::rateLastSecond).max().orElse(0)).isGreaterThanOrEqualTo(180);
        }
    }

    @Test
    void onAManualClockEachSendGoesAtItsTimeAndListenersHearFourTimesASecond() throws Exception {
        ManualClock clock = new ManualClock();
        TrafficSettings s = TrafficSettings.defaults(proxy).withRate(10).withDuration(Duration.ofSeconds(2)).withSeed(5);
        List<TrafficSnapshot> seen = Collections.synchronizedList(new ArrayList<>());
        List<TrafficRequest> recorded = Collections.synchronizedList(new ArrayList<>());
        try (TrafficGenerator g = TrafficGenerator.create(s, clock).recordTo(recorded::add)) {
            g.addListener(seen::add);
            g.start();
            assertThat(g.snapshot().sent()).as("send 0, due at the start").isEqualTo(1);
            clock.advanceMillis(999);
            assertThat(g.snapshot().sent()).as("sends 0..9, due by 900 ms").isEqualTo(10);
            assertThat(seen).as("reports at 250, 500 and 750 ms").hasSize(3);
            clock.advanceMillis(1);
            assertThat(g.snapshot().sent()).isEqualTo(11);
            clock.advanceMillis(999);
            assertThat(g.snapshot().sent()).isEqualTo(20);
            assertThat(g.state()).as("a paced run lasts its whole duration").isEqualTo(TrafficSnapshot.State.RUNNING);

            clock.advanceMillis(1);
            TrafficSnapshot last = g.done().get(30, TimeUnit.SECONDS); // the answers come over the real network
            assertThat(last.state()).isEqualTo(TrafficSnapshot.State.DONE);
            assertThat(last.sent()).isEqualTo(20);
            assertThat(last.skipped()).isZero();
            assertThat(last.completed()).isEqualTo(20);
            assertThat(last.elapsedNanos()).isEqualTo(Duration.ofSeconds(2).toNanos());
            assertThat(last.progress()).isEqualTo(1.0);
            assertThat(recorded).extracting(TrafficRequest::offsetMicros)
                    .containsExactlyElementsOf(java.util.stream.LongStream.range(0, 20).map(i -> i * 100_000).boxed()
                            .toList());
            assertThat(seen.get(seen.size() - 1)).isEqualTo(last);
            assertThat(seen).extracting(TrafficSnapshot::sent).isSorted();
            assertThat(clock.pending()).as("its tasks, cancelled; the clock it was given goes on").isZero();
        }
    }

    @Test
    void onAManualClockStopEndsTheSendsAtThatInstant() throws Exception {
        ManualClock clock = new ManualClock();
        TrafficSettings s = TrafficSettings.defaults(proxy).withRate(10).withDuration(Duration.ofMinutes(10));
        try (TrafficGenerator g = TrafficGenerator.create(s, clock).start()) {
            clock.advanceMillis(450);
            g.stop();
            TrafficSnapshot last = g.done().get(30, TimeUnit.SECONDS);
            assertThat(last.sent()).as("sends at 0, 100, ..., 400 ms").isEqualTo(5);
            assertThat(last.completed()).isEqualTo(5);
            assertThat(last.elapsedNanos()).isEqualTo(Duration.ofMillis(450).toNanos());
            clock.advanceMillis(5000);
            assertThat(g.snapshot().sent()).isEqualTo(5);
            assertThat(clock.pending()).isZero();
        }
    }

    @Test
    void stopEndsALongRunEarlyAndWaitsForItsAnswers() throws Exception {
        TrafficSettings s = TrafficSettings.defaults(proxy).withRate(100).withDuration(Duration.ofMinutes(10));
        try (TrafficGenerator g = TrafficGenerator.create(s).start()) {
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> g.snapshot().completed() >= 20);
            g.stop();
            TrafficSnapshot last = g.done().get(30, TimeUnit.SECONDS);
            assertThat(last.state()).isEqualTo(TrafficSnapshot.State.DONE);
            assertThat(last.sent()).isLessThan(60_000);
            assertThat(last.completed() + last.connectionErrors() + last.timeouts()).isEqualTo(last.sent());
            assertThat(last.progress()).isLessThan(0.5);
            assertThat(g.snapshot().sent()).isEqualTo(last.sent());
        }
    }

    @Test
    void closeEndsTheRunAtOnceWithTheCountsSoFar() throws Exception {
        TrafficGenerator g = TrafficGenerator.create(TrafficSettings.defaults(proxy).withRate(100)
                .withDuration(Duration.ofMinutes(10))).start();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> g.snapshot().completed() >= 5);
        g.close();
        TrafficSnapshot last = g.done().get(5, TimeUnit.SECONDS);
        assertThat(last.state()).isEqualTo(TrafficSnapshot.State.DONE);
        assertThat(last.completed()).isGreaterThanOrEqualTo(5);
        assertThat(g.state()).isEqualTo(TrafficSnapshot.State.DONE);
        // a generator that never started closes as well
        TrafficGenerator idle = TrafficGenerator.create(TrafficSettings.defaults(proxy));
        idle.close();
        assertThat(idle.done().get(5, TimeUnit.SECONDS).sent()).isZero();
        org.assertj.core.api.Assertions.assertThatThrownBy(idle::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void eachKeyPlacementReachesTheHashingStrategyThatReadsIt() throws Exception {
        Engine engine = fulcrum.engine();
        try {
            for (TrafficSettings.KeyPlacement p : List.of(TrafficSettings.KeyPlacement.header("X-User"),
                    TrafficSettings.KeyPlacement.cookie("user"), TrafficSettings.KeyPlacement.query("user"),
                    TrafficSettings.KeyPlacement.path())) {
                // given: a ring reading exactly this placement
                engine.setStrategy(Engine.DEFAULT_POOL, StrategySpec.bare("consistent-hash").with("key", p.strategyKey()));
                KeySpace ring = engine.pool(Engine.DEFAULT_POOL).snapshot().primary().keySpace();
                List<String> keys = Collections.synchronizedList(new ArrayList<>());
                TrafficSettings s = TrafficSettings.defaults(proxy).withPath("/echo").withRate(100)
                        .withDuration(Duration.ofMillis(400)).withKeyPlacement(p)
                        .withKeys(new KeyDistribution.Uniform(30)).withSeed(3);
                // when
                TrafficSnapshot last;
                try (TrafficGenerator g = TrafficGenerator.create(s).recordTo(r -> keys.add(r.key()))) {
                    last = g.start().done().get(30, TimeUnit.SECONDS);
                }
                // then: every request went where the ring puts its key (had the key been lost, every request would
                // hash the client IP and land on one backend)
                Map<String, Long> expected = new TreeMap<>();
                for (String k : keys) {
                    String hashed = p.kind() == TrafficSettings.KeyPlacement.Kind.PATH ? "/k/" + k : k;
                    expected.merge(ring.owner(hashed), 1L, Long::sum);
                }
                assertThat(last.completed()).as(p.toString()).isEqualTo(40);
                assertThat(expected).as(p.toString()).hasSizeGreaterThan(1);
                assertThat(last.byBackend()).as(p.toString()).isEqualTo(expected);
            }
        } finally {
            engine.setStrategy(Engine.DEFAULT_POOL, StrategySpec.of("round-robin"));
        }
        assertThat(TrafficSettings.KeyPlacement.query("user").pathFor("/echo", "k 1")).isEqualTo("/echo?user=k+1");
        assertThat(TrafficSettings.KeyPlacement.path().pathFor("/ignored", "k1")).isEqualTo("/k/k1");
        assertThat(TrafficSettings.KeyPlacement.cookie("user").headerFor("k1")).containsExactly("Cookie", "user=k1");
        assertThat(TrafficSettings.KeyPlacement.forStrategyKey("header:X-User"))
                .isEqualTo(TrafficSettings.KeyPlacement.header("X-User"));
    }

    @Test
    void aSeededPlanSendsTheSameKeysAndMethodsAndRespectsThePostShare() {
        TrafficSettings s = TrafficSettings.defaults(proxy).withPostShare(0.3).withSeed(42)
                .withKeys(new KeyDistribution.HotKey(20, 0.5));
        TrafficGenerator.RatePlan a = new TrafficGenerator.RatePlan(s);
        TrafficGenerator.RatePlan b = new TrafficGenerator.RatePlan(s);
        int n = 20_000;
        int posts = 0;
        Map<String, Integer> keys = new HashMap<>();
        for (int i = 0; i < n; i++) {
            TrafficRequest x = a.request(i);
            assertThat(b.request(i)).isEqualTo(x);
            posts += x.method().equals("POST") ? 1 : 0;
            keys.merge(x.key(), 1, Integer::sum);
        }
        // 20,000 Bernoulli(0.3) draws: standard deviation 0.0032, so +-0.015 is over 4 sigma
        assertThat(posts / (double) n).isCloseTo(0.3, within(0.015));
        assertThat(keys.get("k0") / (double) n).isCloseTo(0.5, within(0.015));
        assertThat(a.offsetNanos(100)).isEqualTo(2_000_000_000L); // 50 req/s: send 100 at 2 s
    }

    @Test
    void settingsNameTheFieldAndTheValueWhenInvalid() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TrafficSettings.defaults(proxy).withRate(0))
                .hasMessage("ratePerSecond: must be between 0.1 and 100000 (got: 0.0)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TrafficSettings.defaults(proxy).withPostShare(1.5))
                .hasMessage("postShare: must be between 0 and 1 (got: 1.5)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TrafficSettings.KeyPlacement.header(""))
                .hasMessageStartingWith("keyPlacement.name:");
    }
}
