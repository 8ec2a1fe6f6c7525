package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.strategy.StrategySpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fulcrum.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Requests per second and latency percentiles, rolled up once a second by the control tick. Latencies come
 * from the fake clock, so the expected percentiles are exact up to HdrHistogram's 2 significant digits (1%).
 */
@DisplayName("Backend statistics")
class StatsControlTest {
    static final RequestContext REQ = SimpleRequest.get("10.0.0.1", "/");

    final ManualClock clock = new ManualClock();
    Engine engine;
    Pool pool;

    @BeforeEach
    void given() {
        engine = Engine.manual(new EngineSettings(0, EngineSettings.OutlierSpec.DISABLED, BreakerSpec.DISABLED, 2, 3),
                clock, RandomSource.seeded(1));
        pool = engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
        engine.tick(); // the first roll only sets the baseline
    }

    BackendView a() {
        return engine.backends().get(0);
    }

    /** 100 requests started together, finishing 1 ms apart: latencies 1, 2, ..., 100 ms; 100 ms in all. */
    void hundredRequestsOf1To100Ms(Outcome every10th) {
        List<Lease> leases = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            leases.add(pool.pick(REQ));
        }
        for (int i = 0; i < 100; i++) {
            clock.advance(Duration.ofMillis(1));
            leases.get(i).release(i % 10 == 9 ? every10th : Outcome.SUCCESS);
        }
    }

    @Test
    void nothingIsReportedBeforeTheFirstRollAfterTraffic() {
        hundredRequestsOf1To100Ms(Outcome.SUCCESS);

        assertThat(a().totalRequests()).as("counters are live").isEqualTo(100);
        assertThat(a().rps()).as("rates wait for the roll").isZero();
        assertThat(a().latencyP50Ms()).isZero();
    }

    @Test
    void aRollGivesRequestsPerSecondAndLatencyPercentiles() {
        hundredRequestsOf1To100Ms(Outcome.SUCCESS);
        clock.advance(Duration.ofMillis(900)); // one second after the baseline

        engine.tick();

        BackendView v = a();
        assertThat(v.rps()).isCloseTo(100.0, within(1e-9));
        assertThat(v.latencyP50Ms()).isCloseTo(50.0, Percentage.withPercentage(1));
        assertThat(v.latencyP99Ms()).isCloseTo(99.0, Percentage.withPercentage(1));
        assertThat(v.errorRate()).isZero();
    }

    @Test
    void theTickRollsAtMostOnceASecond() {
        hundredRequestsOf1To100Ms(Outcome.SUCCESS);
        clock.advance(Duration.ofMillis(800));

        engine.tick(); // 900 ms after the baseline: no roll yet

        assertThat(a().rps()).isZero();
        clock.advance(Duration.ofMillis(100));
        engine.tick();
        assertThat(a().rps()).isCloseTo(100.0, within(1e-9));
    }

    @Test
    void requestsPerSecondAreOverTheTimeSinceTheLastRoll() {
        hundredRequestsOf1To100Ms(Outcome.SUCCESS);
        clock.advance(Duration.ofMillis(1_900)); // 2 s after the baseline

        engine.tick();

        assertThat(a().rps()).isCloseTo(50.0, within(1e-9));
    }

    @Test
    void theErrorRateCountsBackendFailuresOnly() {
        hundredRequestsOf1To100Ms(Outcome.SERVER_ERROR);
        clock.advance(Duration.ofMillis(900));

        engine.tick();

        assertThat(a().errorRate()).isCloseTo(0.1, within(1e-9));
        assertThat(a().failures()).isEqualTo(10);
    }

    @Test
    void aQuietSecondReportsZeroRequestsButKeepsTheLatencyWindow() {
        hundredRequestsOf1To100Ms(Outcome.SUCCESS);
        clock.advance(Duration.ofMillis(900));
        engine.tick();

        clock.advance(Duration.ofSeconds(1));
        engine.tick();

        assertThat(a().rps()).isZero();
        assertThat(a().latencyP50Ms()).as("latencies cover the last 10 s").isCloseTo(50.0, Percentage.withPercentage(1));
    }

    @Test
    void latenciesLeaveTheWindowAfterTenSeconds() {
        hundredRequestsOf1To100Ms(Outcome.SUCCESS);
        clock.advance(Duration.ofMillis(900));
        engine.tick();

        for (int s = 1; s < BackendStats.LATENCY_SECONDS; s++) {
            clock.advance(Duration.ofSeconds(1));
            engine.tick();
        }
        assertThat(a().latencyP99Ms()).as("still inside the window").isCloseTo(99.0, Percentage.withPercentage(1));
        clock.advance(Duration.ofSeconds(1));
        engine.tick();

        assertThat(a().latencyP50Ms()).isZero();
        assertThat(a().latencyP99Ms()).isZero();
        assertThat(a().totalRequests()).isEqualTo(100);
    }

    @Test
    void newLatenciesReplaceOldOnesAsTheWindowSlides() {
        hundredRequestsOf1To100Ms(Outcome.SUCCESS);
        clock.advance(Duration.ofMillis(900));
        engine.tick();
        for (int s = 0; s < BackendStats.LATENCY_SECONDS; s++) {
            Lease l = pool.pick(REQ);
            clock.advance(Duration.ofMillis(500));
            l.release(Outcome.SUCCESS);
            clock.advance(Duration.ofMillis(500));
            engine.tick();
        }

        assertThat(a().latencyP50Ms()).isCloseTo(500.0, Percentage.withPercentage(1));
        assertThat(a().rps()).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void clientAbortsAndConnectFailuresAreCountedButAddNoLatency() {
        Lease abort = pool.pick(REQ);
        Lease refused = pool.pick(REQ);
        clock.advance(Duration.ofMillis(700));
        abort.release(Outcome.CLIENT_ABORT);
        refused.release(Outcome.CONNECT_FAILURE);
        clock.advance(Duration.ofMillis(300));

        engine.tick();

        assertThat(a().totalRequests()).isEqualTo(2);
        assertThat(a().failures()).isEqualTo(1);
        assertThat(a().rps()).isCloseTo(2.0, within(1e-9));
        assertThat(a().latencyP99Ms()).isZero();
    }
}
