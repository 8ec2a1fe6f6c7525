package dev.fulcrum.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.demo.DemoBackend;
import dev.fulcrum.demo.DemoSpec;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.BackendState;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.HealthStatus;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RawBackend;
import dev.fulcrum.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Probes against backends that come, go, come back under the same id, hang, or whose checks are applied again;
 * the checker runs on a {@link ManualClock} (see {@link ProbeRounds}), the engine on its own.
 */
class HealthCheckerLifecycleTest {
    private final ManualClock clock = new ManualClock();
    private Engine engine;
    private HealthChecker checker;
    private RawBackend hung;
    private DemoBackend demo;

    @AfterEach
    void stop() throws Exception {
        if (checker != null) checker.close();
        if (hung != null) hung.close();
        if (demo != null) demo.close();
        if (engine != null) engine.close();
    }

    private BackendView view(String id) {
        return engine.backends().stream().filter(v -> v.id().equals(id)).findFirst().orElseThrow();
    }

    /** The engine's removal of a drained backend comes on its own control tick, in real time. */
    private void awaitGone(String id) {
        await().atMost(Duration.ofSeconds(5)).until(() -> engine.backends().stream().noneMatch(v -> v.id().equals(id)));
    }

    /**
     * A backend removed while its probe hangs, and added again under the same id with a new (healthy) URL: the
     * old probe's timeout must not count against the new backend (with fall 1 it would mark it DOWN), and the
     * new one is probed meanwhile.
     */
    @Test
    void aStaleProbeOfARemovedBackendIsNotCountedAgainstItsSuccessorUnderTheSameId() throws Exception {
        engine = Engine.start(new EngineSettings(0, EngineSettings.OutlierSpec.DISABLED, BreakerSpec.DISABLED, 1, 1));
        engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.ROUND_ROBIN));
        hung = RawBackend.start(RawBackend.hung(""));
        demo = DemoBackend.start(DemoSpec.of("x", 0, 1));
        engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec("a", hung.url(), 1, null, false), false);
        checker = new HealthChecker(engine, new HealthCheckSpec(true, "/health", 50, 1500, 200), clock).start();
        ProbeRounds rounds = new ProbeRounds(engine, clock, checker).hung("a", hung).runDue();
        assertThat(hung.accepted.get()).isGreaterThanOrEqualTo(1); // the old probe is out

        engine.remove("a");
        awaitGone("a");
        rounds.answering("a");
        java.util.List<String> health = new java.util.concurrent.CopyOnWriteArrayList<>();
        engine.subscribe(e -> {
            if (e.type().equals("health")) health.add(e.backend() + " " + e.from() + "->" + e.to());
        });
        engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec("a", demo.url(), 1, null, false), false);

        // the new backend answers 200 at once; with intervalMs 50 it is probed and UP within a few rounds
        rounds.advance(2500); // past the old probe's 1500 ms timeout
        assertThat(health).as("health events of the new 'a'").noneMatch(h -> h.endsWith("->DOWN"));
        assertThat(checker.history("a")).as("probe results recorded for the new 'a'").isNotEmpty()
                .allSatisfy(r -> assertThat(r.ok()).as(r.toString()).isTrue());
    }

    /** Same situation: the new backend must be probed within a few intervals, not after the old probe's timeout. */
    @Test
    void aReAddedBackendIsProbedWithinAnIntervalNotAfterTheOldProbesTimeout() throws Exception {
        engine = Engine.start(EngineSettings.DEFAULT);
        engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.ROUND_ROBIN));
        hung = RawBackend.start(RawBackend.hung(""));
        demo = DemoBackend.start(DemoSpec.of("x", 0, 1));
        engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec("a", hung.url(), 1, null, false), false);
        checker = new HealthChecker(engine, new HealthCheckSpec(true, "/health", 50, 10_000, 200), clock).start();
        ProbeRounds rounds = new ProbeRounds(engine, clock, checker).hung("a", hung).runDue();
        assertThat(hung.accepted.get()).isGreaterThanOrEqualTo(1);

        engine.remove("a");
        awaitGone("a");
        rounds.answering("a");
        engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec("a", demo.url(), 1, null, false), false);
        // intervalMs is 50: a few rounds, not the old probe's 10 s timeout
        rounds.until(() -> !checker.history("a").isEmpty(), 2000);
        assertThat(view("a").health()).isEqualTo(HealthStatus.UP);
    }

    /**
     * A hung backend (accepts, never answers) with timeoutMs above intervalMs: DOWN comes within
     * intervalMs x fall + timeoutMs (here 100 x 3 + 1000 = 1300 ms), not after about fall x timeoutMs.
     */
    @Test
    void aHungBackendIsDownWithinFallIntervalsPlusOneTimeoutEvenWhenTimeoutExceedsInterval() throws Exception {
        engine = Engine.start(EngineSettings.DEFAULT); // rise 2, fall 3
        engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.ROUND_ROBIN));
        hung = RawBackend.start(RawBackend.hung(""));
        engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec("hung", hung.url(), 1, null, false), false);
        HealthCheckSpec spec = new HealthCheckSpec(true, "/health", 100, 1000, 200);
        checker = new HealthChecker(engine, spec, clock).start();
        ProbeRounds rounds = new ProbeRounds(engine, clock, checker).hung("hung", hung).runDue();
        long bound = spec.intervalMs() * engine.settings().fall() + spec.timeoutMs();
        long took = rounds.until(() -> view("hung").state() == BackendState.DOWN, 10_000);
        assertThat(took).isLessThanOrEqualTo(bound + 500);
        assertThat(took).as("ms on the clock to DOWN").isLessThanOrEqualTo(bound);
    }

    /**
     * FulcrumApp.apply calls setSpec on every config apply (PUT /api/config, each saved edit of the file), even
     * when healthCheck did not change: that must keep the schedule, not restart it with a round at once (which
     * would probe far more often than intervalMs: here 5 rounds in well under one 10 s interval).
     */
    @Test
    void reapplyingAnUnchangedSpecDoesNotProbeMoreOftenThanTheInterval() throws Exception {
        engine = Engine.start(EngineSettings.DEFAULT);
        engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.ROUND_ROBIN));
        demo = DemoBackend.start(DemoSpec.of("x", 0, 1));
        engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec("a", demo.url(), 1, null, false), false);
        HealthCheckSpec spec = new HealthCheckSpec(true, "/health", 10_000, 1000, 200);
        checker = new HealthChecker(engine, spec, clock).start();
        ProbeRounds rounds = new ProbeRounds(engine, clock, checker).runDue();
        assertThat(checker.history("a")).hasSize(1);
        for (int i = 0; i < 4; i++) {
            checker.setSpec(spec); // what each config apply does
            rounds.advance(200);
        }
        assertThat(checker.history("a")).as("probes within one 10 s interval").hasSize(1);
    }
}
