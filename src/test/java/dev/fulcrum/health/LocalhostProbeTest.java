package dev.fulcrum.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.BackendState;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.LoopbackListener;
import dev.fulcrum.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Health checks of a {@code localhost} backend reach a server listening on one loopback address alone, as the
 * proxy's requests do (both take the addresses from {@code BackendAddresses}): a Vite server on {@code ::1} alone is
 * UP, not DOWN with "connection refused" from {@code 127.0.0.1}. Skipped where the machine has no {@code ::1}.
 */
class LocalhostProbeTest {
    private final ManualClock clock = new ManualClock();
    private final Engine engine = Engine.start(EngineSettings.DEFAULT);
    private HealthChecker checker;
    private LoopbackListener v6;
    private LoopbackListener v4;

    @AfterEach
    void stop() throws Exception {
        if (checker != null) {
            checker.close();
        }
        for (LoopbackListener l : new LoopbackListener[] {v6, v4}) {
            if (l != null) {
                l.close();
            }
        }
        engine.close();
    }

    @Test
    void aLocalhostBackendOnEitherLoopbackAddressAloneIsUp() throws Exception {
        v6 = LoopbackListener.v6Only();
        v4 = LoopbackListener.v4Only();
        engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec("vite", v6.localhostUrl(), 1, null, false), false);
        engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec("api", v4.localhostUrl(), 1, null, false), false);
        checker = new HealthChecker(engine, new HealthCheckSpec(true, "/health", 100, 500, 200), clock).start();
        ProbeRounds rounds = new ProbeRounds(engine, clock, checker).runDue();
        int fall = engine.settings().fall();
        rounds.until(() -> checker.history("vite").size() >= fall && checker.history("api").size() >= fall, 5000);
        assertThat(checker.history("vite")).allSatisfy(r -> assertThat(r.ok()).as(r.error()).isTrue());
        assertThat(checker.history("api")).allSatisfy(r -> assertThat(r.ok()).as(r.error()).isTrue());
        assertThat(state("vite")).isEqualTo(BackendState.UP);
        assertThat(state("api")).isEqualTo(BackendState.UP);
        assertThat(v6.hosts).as("each probe names the address it went to").hasSizeGreaterThanOrEqualTo(fall)
                .containsOnly("[::1]:" + v6.port());
        assertThat(v4.hosts).containsOnly("127.0.0.1:" + v4.port());
    }

    private BackendState state(String id) {
        return engine.backends().stream().filter(v -> v.id().equals(id)).findFirst().orElseThrow().state();
    }
}
