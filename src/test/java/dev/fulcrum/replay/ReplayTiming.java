package dev.fulcrum.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.demo.DemoBackend;
import dev.fulcrum.demo.DemoSpec;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.TestSettings;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A timing harness, not a test of speed: replays a 10,000-request recording (Poisson arrivals at 500 req/s, so 20 s
 * as recorded) through the proxy to two demo backends at 1x and at 10x, and logs the achieved rate against the
 * recorded one, the late count and the send lateness (mean, p99, max). No threshold: timings depend on the machine.
 * Run with {@code mvn -q -o test -Dtest=ReplayTiming}; the figures are in
 * target/surefire-reports/dev.fulcrum.replay.ReplayTiming-output.txt (BENCHMARKS.md, "Replay timing").
 */
@Timeout(180)
class ReplayTiming {
    private static final Logger LOG = LoggerFactory.getLogger(ReplayTiming.class);

    @Test
    void replaysTenThousandRequestsAtOneAndTenTimesTheRecordedSpeed() throws Exception {
        List<RecordedRequest> recording = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(33);
        double at = 0;
        for (int i = 0; i < 10_000; i++) {
            at += -Math.log(1 - random.nextDouble()) / 500 * 1e6;
            boolean post = i % 5 == 0;
            recording.add(new RecordedRequest(1_764_918_000_000_000L + (long) at, post ? "POST" : "GET",
                    "/api/items/" + (i % 97) + "?page=" + (i % 7),
                    List.of(Map.entry("Accept", "application/json"), Map.entry("X-User", "u" + (i % 31)),
                            Map.entry("Authorization", "Bearer t")),
                    post ? ("{\"n\":" + i + "}").getBytes() : null, Double.NaN, null, 200, null, i + 1));
        }
        try (DemoBackend a = DemoBackend.start(new DemoSpec("demo-a", 0, 1, 0, 0));
             DemoBackend b = DemoBackend.start(new DemoSpec("demo-b", 0, 1, 0, 0));
             RunningFulcrum proxy = RunningFulcrum.bareProxy(TestSettings.proxy().build())
                     .backend("demo-a", a.url()).backend("demo-b", b.url()).start()) {
            for (double speed : new double[] {1, 10, 1, 10}) {
                ReplayProgress p = LiveReplay.of(LiveReplay.Source.of(recording), URI.create(proxy.url()), speed)
                        .start().done().get(120, TimeUnit.SECONDS);
                LOG.info("speed {}x: {} | recorded {} req/s, achieved {} req/s; late {} (waited for a slot {});"
                                + " lateness mean {} ms, p99 {} ms, max {} ms; statuses {}", speed, p.summaryLine(),
                        String.format("%.1f", p.recordedRate()), String.format("%.1f", p.achievedRate()), p.late(),
                        p.waitedForSlot(), String.format("%.3f", p.latenessMeanMs()),
                        String.format("%.3f", p.latenessP99Ms()), String.format("%.3f", p.latenessMaxMs()),
                        p.byStatus());
                assertThat(p.sent()).isEqualTo(10_000);
            }
        }
    }
}
