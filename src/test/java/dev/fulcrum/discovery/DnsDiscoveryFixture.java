package dev.fulcrum.discovery;

import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.time.ManualClock;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the DNS discovery tests run on, started before each test and closed after it: an engine, a {@link Discovery}
 * refreshed on a {@link ManualClock} (by hand, or by moving the clock past {@code refreshMs}), and a real DNS server
 * on loopback ({@link LoopbackDns}). Not a test itself.
 */
abstract class DnsDiscoveryFixture {
    final ManualClock clock = new ManualClock();
    Engine engine;
    Discovery discovery;
    LoopbackDns dns;

    @BeforeEach
    void startFixture() throws Exception {
        engine = Engine.start(EngineSettings.DEFAULT.withSlowStartMs(10_000));
        // weight-aware, so the slow-start ramp new addresses join with is visible in their effective weight
        engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.SMOOTH_WRR));
        discovery = new Discovery(engine, clock);
        dns = new LoopbackDns();
    }

    @AfterEach
    void closeFixture() {
        discovery.close();
        engine.close();
        dns.close();
    }

    /** The engine's backends now, by id. */
    Map<String, BackendView> backends() {
        return engine.backends().stream().collect(Collectors.toMap(BackendView::id, v -> v));
    }
}
