package dev.fulcrum.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.engine.sim.KeyDistribution;
import dev.fulcrum.engine.sim.SideBySide;
import dev.fulcrum.engine.sim.SideBySideReport;
import dev.fulcrum.engine.sim.SimBackend;
import dev.fulcrum.engine.sim.SimRequest;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.time.ManualClock;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Record live traffic, then replay it through the proxy faster and into the simulator. Send times are
 * checked the robust way round: a send is never early (the pacer waits until it is due), and a 4x replay of
 * six seconds ends well before six seconds even on a busy machine.
 */
class TrafficReplayTest {
    private static RunningFulcrum fulcrum;
    private static URI proxy;

    @TempDir
    Path dir;

    @BeforeAll
    static void startFulcrum() throws Exception {
        fulcrum = RunningFulcrum.wholeApp(FulcrumConfig.of(StrategySpec.of("consistent-hash"), List.of(),
                        List.of(DemoBackendConfig.of("d1", 0, 1), DemoBackendConfig.of("d2", 0, 1),
                                DemoBackendConfig.of("d3", 0, 1)))
                .withProxyPort(0).withAdminPort(0)).start();
        proxy = URI.create(fulcrum.url());
        // warm-up (class loading, JIT, first connections), so the first replayed send is not late for that
        try (TrafficGenerator g = TrafficGenerator.create(TrafficSettings.defaults(proxy).withRate(50)
                .withDuration(Duration.ofSeconds(2)))) {
            g.start().done().get(60, TimeUnit.SECONDS);
        }
    }

    @AfterAll
    static void stopFulcrum() {
        if (fulcrum != null) {
            fulcrum.close();
        }
    }

    @Test
    void theScheduleDividesEachRecordedOffsetByTheSpeed() {
        List<TrafficRequest> trace = List.of(new TrafficRequest(3_000_000, "GET", "/", "k2"),
                new TrafficRequest(0, "GET", "/", "k0"), new TrafficRequest(1_000_000, "POST", "/", "k1"));
        assertThat(TrafficReplay.scheduleNanos(trace, 1)).containsExactly(0, 1_000_000_000L, 3_000_000_000L);
        assertThat(TrafficReplay.scheduleNanos(trace, 4)).containsExactly(0, 250_000_000L, 750_000_000L);
        assertThat(TrafficReplay.scheduleNanos(trace, 0.5)).containsExactly(0, 2_000_000_000L, 6_000_000_000L);
        assertThat(TrafficReplay.toSimTrace(trace, 2)).containsExactly(new SimRequest(0, "GET", "k0"),
                new SimRequest(500_000_000L, "POST", "k1"), new SimRequest(1_500_000_000L, "GET", "k2"));
        assertThatThrownBy(() -> TrafficReplay.scheduleNanos(trace, 0))
                .hasMessage("speed: must be between 0.01 and 1000 (got: 0.0)");
    }

    @Test
    @Tag("long") // 6 s of traffic recorded in real time, then replayed
    void liveTrafficIsRecordedThenReplayedFourTimesFasterWithTheSameKeysInTheSameOrder() throws Exception {
        // record: 20 req/s for 6 s, Zipf keys, some POSTs
        Path file = dir.resolve("recorded.jsonl");
        TrafficSettings s = TrafficSettings.defaults(proxy).withRate(20).withDuration(Duration.ofSeconds(6))
                .withKeys(new KeyDistribution.Zipf(30, 1.0)).withPostShare(0.2).withSeed(99);
        TrafficSnapshot recordedRun;
        try (TrafficRecorder recorder = TrafficRecorder.open(file);
             TrafficGenerator g = TrafficGenerator.create(s).recordTo(recorder)) {
            recordedRun = g.start().done().get(60, TimeUnit.SECONDS);
        }
        List<TrafficRequest> trace = TrafficRecorder.read(file);
        assertThat(trace).hasSize((int) recordedRun.sent());
        assertThat(trace).extracting(TrafficRequest::offsetMicros).isSorted();
        assertThat(trace.get(trace.size() - 1).offsetMicros()).isGreaterThan(5_000_000);

        // replay at 4x, recording what is actually sent and when
        List<TrafficRequest> replayed = Collections.synchronizedList(new ArrayList<>());
        TrafficSnapshot last;
        try (TrafficGenerator r = TrafficReplay.through(TrafficSettings.defaults(proxy), trace, 4)
                .recordTo(replayed::add)) {
            assertThat(r.snapshot().durationNanos()).isLessThan(Duration.ofSeconds(2).toNanos());
            last = r.start().done().get(60, TimeUnit.SECONDS);
        }
        assertThat(last.sent()).isEqualTo(trace.size());
        assertThat(last.completed()).isEqualTo(trace.size());
        assertThat(last.targetRate()).isBetween(75.0, 85.0); // 20 req/s recorded, 4x
        assertThat(replayed).extracting(TrafficRequest::key)
                .containsExactlyElementsOf(trace.stream().map(TrafficRequest::key).toList());
        assertThat(replayed).extracting(TrafficRequest::method)
                .containsExactlyElementsOf(trace.stream().map(TrafficRequest::method).toList());
        long[] due = TrafficReplay.scheduleNanos(trace, 4);
        for (int i = 0; i < due.length; i++) {
            assertThat(replayed.get(i).offsetMicros()).as("send %d", i).isGreaterThanOrEqualTo(due[i] / 1000);
        }
        long lastSend = replayed.get(replayed.size() - 1).offsetMicros();
        assertThat(lastSend).isGreaterThanOrEqualTo(trace.get(trace.size() - 1).offsetMicros() / 4)
                .isLessThan(trace.get(trace.size() - 1).offsetMicros() * 3 / 4);
    }

    @Test
    void aRecordedTraceFeedsTheSideBySideSimulator() {
        List<TrafficRequest> trace = new ArrayList<>();
        for (int i = 0; i < 700; i++) {
            trace.add(new TrafficRequest(i * 10_000L, "GET", "/", "k" + (i % 7)));
        }
        SideBySideReport r = SideBySide.run(SideBySide.Settings.of(List.of(SimBackend.of("a", 5, 10),
                        SimBackend.of("b", 1, 10), SimBackend.of("c", 1, 10)))
                .withStrategies(List.of(StrategySpec.of("smooth-weighted-round-robin"))),
                TrafficReplay.toSimTrace(trace, 1));
        assertThat(r.requests()).isEqualTo(700);
        assertThat(r.result("smooth-weighted-round-robin").requestsPerBackend())
                .containsEntry("a", 500L).containsEntry("b", 100L).containsEntry("c", 100L);
    }

    @Test
    void onAManualClockAReplaySendsEachRequestAtItsOffsetDividedByTheSpeed() throws Exception {
        ManualClock clock = new ManualClock();
        List<TrafficRequest> trace = List.of(new TrafficRequest(0, "GET", "/", "k0"),
                new TrafficRequest(1_000_000, "POST", "/", "k1"), new TrafficRequest(3_000_000, "GET", "/", "k2"));
        List<TrafficRequest> sent = Collections.synchronizedList(new ArrayList<>());
        try (TrafficGenerator r = TrafficReplay.through(TrafficSettings.defaults(proxy), trace, 4, clock)
                .recordTo(sent::add)) {
            r.start();
            assertThat(sent).extracting(TrafficRequest::key).containsExactly("k0");
            clock.advanceMillis(249);
            assertThat(sent).hasSize(1);
            clock.advanceMillis(1);
            assertThat(sent).extracting(TrafficRequest::key).containsExactly("k0", "k1");
            clock.advanceMillis(500);
            assertThat(sent).extracting(TrafficRequest::offsetMicros).containsExactly(0L, 250_000L, 750_000L);
            TrafficSnapshot last = r.done().get(30, TimeUnit.SECONDS); // a replay ends after its last answer
            assertThat(last.sent()).isEqualTo(3);
            assertThat(last.completed()).isEqualTo(3);
        }
    }

    @Test
    void oneUnsendableTraceLineDoesNotEndTheReplay() throws Exception {
        try (DemoBackend demo = DemoBackend.start(DemoSpec.of("d", 0, 1))) {
            List<TrafficRequest> trace = List.of(
                    new TrafficRequest(0, "GET", "/", "k0"),
                    new TrafficRequest(1_000, "GET", "/a b", "k1"),
                    new TrafficRequest(2_000, "GET", "/", "k2"),
                    new TrafficRequest(3_000, "GET", "/", "k3"));
            TrafficSettings base = TrafficSettings.defaults(URI.create(demo.url()))
                    .withKeyPlacement(TrafficSettings.KeyPlacement.query("user"));
            TrafficSnapshot end = TrafficReplay.through(base, trace, 1).start().done().get(10, TimeUnit.SECONDS);
            assertThat(demo.counters().requests()).as("requests that reached the backend").isGreaterThanOrEqualTo(3);
            assertThat(end.sent()).isEqualTo(4);
            assertThat(end.connectionErrors()).isEqualTo(1); // the line that is no request
        }
    }
}
