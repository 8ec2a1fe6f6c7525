package dev.fulcrum.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.fulcrum.engine.sim.ReplayBackend;
import dev.fulcrum.engine.sim.StrategyFigures;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The side by side over a recording (docs/REFERENCE.md §6): figures on small hand-made recordings. */
@DisplayName("Comparison: strategies side by side over a recording")
class ComparisonTest {
    static final String SHOP_FORMAT = "$remote_addr - $remote_user [$time_local] \"$request\" $status "
            + "$body_bytes_sent \"$http_referer\" \"$http_user_agent\" $request_time $upstream_response_time "
            + "\"$upstream_addr\"";

    @TempDir
    Path dir;

    /**
     * {@code n} requests in $msec format, {@code gapMs} apart, each served in {@code serviceMs}, the path
     * {@code /item/(i % keys)} from client {@code 10.0.0.(i % 7)}.
     */
    Path evenLog(int n, double gapMs, double serviceMs, int keys) throws IOException {
        StringBuilder b = new StringBuilder();
        long start = 1_764_918_000_000L;
        for (int i = 0; i < n; i++) {
            double end = start + i * gapMs + serviceMs;
            b.append(String.format(java.util.Locale.ROOT, "%.3f 10.0.0.%d \"GET /item/%d HTTP/1.1\" 200 %.3f%n",
                    end / 1000, i % 7, i % keys, serviceMs / 1000));
        }
        Path p = dir.resolve("even.log");
        Files.writeString(p, b.toString(), StandardCharsets.UTF_8);
        return p;
    }

    static final String EVEN_FORMAT = "$msec $remote_addr \"$request\" $status $request_time";

    static ComparisonResult run(Path log, String format, List<ReplayBackend> backends, String strategies)
            throws IOException {
        try (Recording r = Recordings.open(log, null, format)) {
            return Comparison.run(r, backends, StrategyList.parse(strategies), f -> { });
        }
    }

    @Test
    void roundRobinSharesEquallyAndEveryRequestTakesItsRecordedTime() throws IOException {
        ComparisonResult r = run(evenLog(3000, 5, 20, 50), EVEN_FORMAT, ReplayBackend.identical(3),
                "round-robin,least-requests");
        assertThat(r.requests()).isEqualTo(3000);
        StrategyFigures rr = r.strategy("round-robin");
        assertThat(rr.requestsPerBackend()).containsExactly(Map.entry("b1", 1000L), Map.entry("b2", 1000L),
                Map.entry("b3", 1000L));
        assertThat(rr.cv()).isZero();
        assertThat(rr.maxMeanLoad()).isEqualTo(1.0);
        // identical backends, 20 ms each: every percentile is 20 ms (within the histogram's 0.1%)
        assertThat(rr.p50Ms()).isCloseTo(20, within(0.02));
        assertThat(rr.p999Ms()).isCloseTo(20, within(0.02));
        assertThat(rr.keysMoved()).isNull();
        // a request every 5 ms that lasts 20: four in flight, at most two on one backend
        assertThat(rr.peakInFlight().values()).allMatch(p -> p == 2);
        assertThat(r.strategy("least-requests").routed()).isEqualTo(3000);
    }

    @Test
    void aSlowBackendShowsInRoundRobinsP99AndLeastRequestsSendsItLess() throws IOException {
        List<ReplayBackend> backends = List.of(new ReplayBackend("a", 1, Map.of(), 1, 0),
                new ReplayBackend("b", 1, Map.of(), 1, 0), new ReplayBackend("slow", 1, Map.of("speed", "0.2"), 0.2, 0));
        ComparisonResult r = run(evenLog(3000, 5, 20, 50), EVEN_FORMAT, backends, "round-robin,least-requests");
        StrategyFigures rr = r.strategy("round-robin");
        StrategyFigures lr = r.strategy("least-requests");
        // a third of round robin's requests took 100 ms on the backend at speed 0.2
        assertThat(rr.p50Ms()).isCloseTo(20, within(0.02));
        assertThat(rr.p99Ms()).isCloseTo(100, within(0.1));
        assertThat(lr.requestsPerBackend().get("slow")).isLessThan(rr.requestsPerBackend().get("slow") / 2);
        assertThat(lr.meanMs()).isLessThan(rr.meanMs());
    }

    @Test
    void onTheShippedShopLogLeastRequestsBeatsRoundRobinsP99WhenOneBackendIsSlow() throws IOException {
        List<ReplayBackend> backends = List.of(new ReplayBackend("a", 1, Map.of(), 1, 0),
                new ReplayBackend("b", 1, Map.of(), 1, 0),
                new ReplayBackend("slow", 1, Map.of("speed", "0.25", "workers", "4"), 0.25, 4));
        ComparisonResult r = run(Path.of("samples/recordings/shop.log"), SHOP_FORMAT, backends,
                "round-robin,least-requests,consistent-hash:key=path,fastest-response");
        assertThat(r.requests()).isEqualTo(5000);
        assertThat(r.strategy("least-requests").p99Ms()).isLessThan(r.strategy("round-robin").p99Ms() / 2);
    }

    @Test
    void hashingStrategiesSayWhatShareOfKeysMovesWhenEachBackendLeaves() throws IOException {
        ComparisonResult r = run(evenLog(2000, 5, 10, 400), EVEN_FORMAT, ReplayBackend.identical(4),
                "consistent-hash:key=path,maglev:key=path,ip-hash");
        StrategyFigures ch = r.strategy("consistent-hash");
        assertThat(ch.keysMoved()).containsOnlyKeys("b1", "b2", "b3", "b4");
        // a ring moves only the departing backend's keys: about its quarter
        ch.keysMoved().values().forEach(m -> assertThat(m).isBetween(0.1, 0.4));
        assertThat(ch.keysMoved().values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(1.0,
                within(1e-9));
        assertThat(r.strategy("ip-hash").keysMoved()).isNotNull();
        // ip-hash saw seven clients: each goes somewhere
        assertThat(r.strategy("ip-hash").routed()).isEqualTo(2000);
    }

    @Test
    void theSameRunGivesTheSameBytes() throws IOException {
        Path log = Path.of("samples/recordings/shop.log");
        String list = "round-robin,power-of-two,consistent-hash:key=query:id,random";
        String first = run(log, SHOP_FORMAT, ReplayBackend.identical(3), list).toJson();
        String second = run(log, SHOP_FORMAT, ReplayBackend.identical(3), list).toJson();
        assertThat(second).isEqualTo(first);
        Path saved = dir.resolve("result.json");
        Files.writeString(saved, first);
        ComparisonResult back = ComparisonResult.read(saved);
        assertThat(back.toJson()).isEqualTo(first);
        assertThat(back.strategies()).extracting(StrategyFigures::name)
                .containsExactly("round-robin", "power-of-two", "consistent-hash", "random");
    }

    @Test
    void aRecordingWithoutServiceTimesTakesTheDefault() throws IOException {
        Path log = dir.resolve("combined.log");
        Files.writeString(log, "10.0.0.1 - - [05/Dec/2026:07:00:01 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"-\"\n"
                .repeat(10));
        ComparisonResult r = run(log, null, ReplayBackend.identical(2), "round-robin");
        assertThat(r.defaultedService()).isEqualTo(10);
        assertThat(r.strategy("round-robin").p50Ms()).isCloseTo(10, within(0.01));
        assertThat(r.table()).contains("10 without a service time (10 ms taken)");
    }

    @Test
    void aRunIsCancelledByInterruptingItsThread() throws IOException {
        Path log = evenLog(5000, 1, 1, 10);
        try (Recording r = Recordings.open(log, null, EVEN_FORMAT)) {
            List<Double> seen = new ArrayList<>();
            assertThatThrownBy(() -> Comparison.run(r, ReplayBackend.identical(2), StrategyList.parse("round-robin"),
                    f -> {
                        seen.add(f);
                        Thread.currentThread().interrupt();
                    })).isInstanceOf(CancellationException.class);
            assertThat(Thread.interrupted()).isTrue();
            assertThat(seen).hasSize(1);
        }
    }

    @Test
    void speedAndWorkersAreReadFromABackendsLabels() {
        var spec = new dev.fulcrum.engine.BackendSpec("s", "http://127.0.0.1:1", 2, null, false,
                Map.of("speed", "0.5", "workers", "8", "zone", "b"));
        ReplayBackend b = ReplayBackend.of(spec);
        assertThat(b.speed()).isEqualTo(0.5);
        assertThat(b.workers()).isEqualTo(8);
        assertThat(b.weight()).isEqualTo(2);
        assertThatThrownBy(() -> ReplayBackend.of(spec.withLabels(Map.of("speed", "fast"))))
                .hasMessage("labels.speed: must be a number above 0 (got: fast)");
        assertThatThrownBy(() -> ReplayBackend.of(spec.withLabels(Map.of("workers", "0"))))
                .hasMessage("labels.workers: must be a whole number above 0 (got: 0)");
        assertThat(StrategySpec.of("round-robin").type()).isEqualTo("round-robin");
    }
}
