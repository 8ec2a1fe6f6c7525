package dev.fulcrum.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.demo.DemoBackend;
import dev.fulcrum.demo.DemoFleet;
import dev.fulcrum.demo.DemoSpec;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.BackendState;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.HealthStatus;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RawBackend;
import dev.fulcrum.time.ManualClock;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The checker on a {@link ManualClock} against real loopback backends: the clock decides when rounds and probe
 * deadlines happen, so each bound below is held exactly in clock time; {@link ProbeRounds} waits for the answers,
 * which travel over the real network.
 */
class HealthCheckerTest {
    private final ManualClock clock = new ManualClock();
    private Engine engine;
    private DemoFleet fleet;
    private HealthChecker checker;
    private RawBackend hung;

    @BeforeEach
    void startEngine() {
        engine = Engine.start(EngineSettings.DEFAULT); // rise 2, fall 3
        engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.ROUND_ROBIN));
    }

    @AfterEach
    void stopAll() throws IOException {
        if (checker != null) {
            checker.close();
        }
        if (fleet != null) {
            fleet.close();
        }
        if (hung != null) {
            hung.close();
        }
        engine.close();
    }

    private void addDemoFleet(String... ids) {
        fleet = DemoFleet.start(java.util.Arrays.stream(ids).map(id -> DemoSpec.of(id, 0, 1)).toList());
        for (DemoBackend b : fleet.all()) {
            engine.addBackend(Engine.DEFAULT_POOL, b.backendSpec(), false);
        }
    }

    private BackendView view(String id) {
        return engine.backends().stream().filter(v -> v.id().equals(id)).findFirst().orElseThrow();
    }

    /** A checker on the test's clock, started; its first round is due at once. */
    private ProbeRounds started(HealthCheckSpec spec) {
        checker = new HealthChecker(engine, spec, clock).start();
        return new ProbeRounds(engine, clock, checker);
    }

    @Test
    void aDeadBackendIsMarkedDownWithinFallIntervalsPlusOneTimeoutAndUpAgainWhenItReturns() {
        addDemoFleet("a", "b");
        HealthCheckSpec spec = new HealthCheckSpec(true, "/health", 100, 500, 200);
        ProbeRounds rounds = started(spec).runDue();
        rounds.until(() -> view("a").health() == HealthStatus.UP && view("b").health() == HealthStatus.UP, 5000);

        fleet.get("a").update(null, null, true);
        long bound = spec.intervalMs() * engine.settings().fall() + spec.timeoutMs();
        rounds.until(() -> view("a").state() == BackendState.DOWN, bound);
        assertThat(view("a").health()).isEqualTo(HealthStatus.DOWN);
        assertThat(view("b").state()).isEqualTo(BackendState.UP);
        assertThat(checker.history("a")).last().satisfies(r -> {
            assertThat(r.ok()).isFalse();
            assertThat(r.status()).isNull();
            assertThat(r.error()).isEqualTo("connection refused");
        });

        fleet.get("a").update(null, null, false);
        long upBound = spec.intervalMs() * engine.settings().rise() + spec.timeoutMs();
        rounds.until(() -> view("a").state() == BackendState.UP, upBound);
        assertThat(view("a").health()).isEqualTo(HealthStatus.UP);
        assertThat(checker.history("a")).last().satisfies(r -> {
            assertThat(r.ok()).isTrue();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.error()).isNull();
        });
    }

    @Test
    void aBackendThatAcceptsButNeverAnswersIsMarkedDownByTimeout() throws IOException {
        hung = RawBackend.start(RawBackend.hung(""));
        engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec("hung", hung.url(), 1, null, false), false);
        HealthCheckSpec spec = new HealthCheckSpec(true, "/health", 400, 200, 200);
        ProbeRounds rounds = started(spec).hung("hung", hung).runDue();
        long bound = spec.intervalMs() * engine.settings().fall() + spec.timeoutMs();
        rounds.until(() -> view("hung").state() == BackendState.DOWN, bound);
        assertThat(hung.accepted.get()).isGreaterThanOrEqualTo(3);
        assertThat(checker.history("hung")).allSatisfy(r -> {
            assertThat(r.ok()).isFalse();
            assertThat(r.error()).isEqualTo("timeout after 200 ms");
            assertThat(r.latencyMs()).isGreaterThanOrEqualTo(150.0);
        });
    }

    @Test
    void aBackendThatSendsHeadersThenStallsIsMarkedDownByTimeout() throws IOException {
        // the JDK client's own request timeout stops at the headers; the probe's deadline covers the body too
        hung = RawBackend.start(RawBackend.hung("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial"));
        engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec("stall", hung.url(), 1, null, false), false);
        HealthCheckSpec spec = new HealthCheckSpec(true, "/health", 400, 200, 200);
        ProbeRounds rounds = started(spec).hung("stall", hung).runDue();
        // the stall ends in a timeout at all (only the probe's own deadline ends it), and in the stated time
        long bound = spec.intervalMs() * engine.settings().fall() + spec.timeoutMs();
        rounds.until(() -> view("stall").state() == BackendState.DOWN, bound);
        assertThat(checker.history("stall")).last()
                .satisfies(r -> assertThat(r.error()).isEqualTo("timeout after 200 ms"));
    }

    @Test
    void aHungBackendDoesNotDelayTheProbesOfOthers() throws IOException {
        hung = RawBackend.start(RawBackend.hung(""));
        addDemoFleet("fast");
        engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec("hung", hung.url(), 1, null, false), false);
        ProbeRounds rounds = started(new HealthCheckSpec(true, "/health", 50, 30_000, 200)).hung("hung", hung).runDue();
        // the hung backend's first probe is out for 30 s; the fast one keeps being probed meanwhile
        rounds.until(() -> checker.history("fast").size() >= 5, 10_000);
        assertThat(checker.history("hung")).isEmpty();
        // probes overlap only up to fall (3) per backend, however long the timeout
        assertThat(hung.accepted.get()).isBetween(1, engine.settings().fall());
    }

    @Test
    void anUnexpectedStatusFailsTheProbeAndIsRecorded() {
        addDemoFleet("a");
        ProbeRounds rounds = started(new HealthCheckSpec(true, "/health", 50, 1000, 204)).runDue();
        rounds.until(() -> view("a").state() == BackendState.DOWN, 10_000);
        assertThat(checker.history("a")).last().satisfies(r -> {
            assertThat(r.ok()).isFalse();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.error()).isEqualTo("expected status 204 (got: 200)");
        });
    }

    @Test
    void theConfiguredPathIsProbed() {
        addDemoFleet("a");
        // the demo backend answers hello (200) on any path, /echo included
        checker = new HealthChecker(engine, new HealthCheckSpec(true, "/nothing-here", 50, 1000, 200), clock);
        checker.probeAll().join();
        assertThat(checker.history("a")).singleElement().satisfies(r -> assertThat(r.ok()).isTrue());
        assertThat(fleet.get("a").counters().requests()).isEqualTo(1); // it went to the ordinary path
    }

    @Test
    void historyKeepsTheLastSixtyResultsOldestFirst() {
        addDemoFleet("a");
        checker = new HealthChecker(engine, HealthCheckSpec.DEFAULT, clock);
        for (int i = 0; i < HealthChecker.HISTORY + 5; i++) {
            checker.probeAll().join();
        }
        List<ProbeResult> h = checker.history("a");
        assertThat(h).hasSize(HealthChecker.HISTORY);
        assertThat(h).extracting(ProbeResult::atMillis).isSorted();
        assertThat(h).allSatisfy(r -> assertThat(r.ok()).isTrue());
        assertThat(checker.history("unknown")).isEmpty();
    }

    @Test
    void backendsAddedOrRemovedAfterStartAreFollowed() {
        ProbeRounds rounds = started(new HealthCheckSpec(true, "/health", 50, 1000, 200)).runDue();
        addDemoFleet("late");
        rounds.until(() -> !checker.history("late").isEmpty(), 10_000);
        assertThat(view("late").health()).isEqualTo(HealthStatus.UP);

        engine.remove("late");
        // the engine removes a drained backend on its own control tick (its real clock); the next round forgets it
        await().atMost(Duration.ofSeconds(10)).until(() -> engine.backends().isEmpty());
        rounds.advance(50);
        assertThat(checker.history("late")).isEmpty();
    }

    @Test
    void aDisabledCheckerDoesNotRun() {
        checker = new HealthChecker(engine, new HealthCheckSpec(false, "/health", 50, 1000, 200), clock).start();
        assertThat(checker.isRunning()).isFalse();
        assertThat(clock.pending()).isZero();
        checker.setSpec(new HealthCheckSpec(true, "/health", 50, 1000, 200));
        assertThat(checker.isRunning()).isTrue();
        assertThat(clock.pending()).isEqualTo(1);
        checker.setSpec(new HealthCheckSpec(false, "/health", 50, 1000, 200));
        assertThat(checker.isRunning()).isFalse();
        assertThat(clock.pending()).isZero();
    }

    @Test
    void closeStopsProbingForGood() {
        checker = new HealthChecker(engine, HealthCheckSpec.DEFAULT, clock).start();
        assertThat(checker.isRunning()).isTrue();
        checker.close();
        assertThat(checker.isRunning()).isFalse();
        assertThat(clock.pending()).as("its rounds, cancelled; the clock it was given goes on").isZero();
        assertThatThrownBy(checker::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aCheckerWithASchedulerOfItsOwnProbesAtOnceAndStopsAtClose() {
        addDemoFleet("a");
        // a ten-minute interval: the one round seen here is the first, due at once
        checker = new HealthChecker(engine, new HealthCheckSpec(true, "/health", 600_000, 1000, 200)).start();
        await().atMost(Duration.ofSeconds(10)).until(() -> checker.history("a").size() == 1);
        checker.close();
        assertThat(checker.isRunning()).isFalse();
    }

    @Test
    void specValidationNamesTheFieldAndValue() {
        assertThatThrownBy(() -> new HealthCheckSpec(true, "health", 1000, 500, 200))
                .hasMessage("path: must start with / (got: health)");
        assertThatThrownBy(() -> new HealthCheckSpec(true, "/health", 0, 500, 200))
                .hasMessage("intervalMs: must be between 1 and 3600000 (got: 0)");
        assertThatThrownBy(() -> new HealthCheckSpec(true, "/health", 1000, -1, 200))
                .hasMessage("timeoutMs: must be between 1 and 3600000 (got: -1)");
        assertThatThrownBy(() -> new HealthCheckSpec(true, "/health", 1000, 500, 700))
                .hasMessage("expectedStatus: must be between 100 and 599 (got: 700)");
    }
}
