package dev.fulcrum.engine;

import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.strategy.StrategySpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Slow start: a backend that (re)joins ramps from 10% to 100% of its weight linearly over slowStartMs.
 * With weight 10 and slowStartMs 10 s: 1.0 at once, 5.5 after 5 s, 10 after 10 s. Strategies that read no
 * weight (round robin, random, fastest-response) report the configured weight instead of a ramp they ignore.
 */
@DisplayName("Slow start")
class SlowStartTest {
    static final RequestContext REQ = SimpleRequest.get("10.0.0.1", "/");
    static final EngineSettings SETTINGS = new EngineSettings(10_000,
            new EngineSettings.OutlierSpec(true, 1, 1000, 100), BreakerSpec.DISABLED, 2, 3);

    final ManualClock clock = new ManualClock();
    Engine engine;
    Pool pool;

    @BeforeEach
    void given() {
        engine = Engine.manual(SETTINGS, clock, RandomSource.seeded(1));
        // weight-aware: under a weight-blind strategy the ramp is not shown (see the tests at the end)
        pool = engine.addPool("default", StrategySpec.of(StrategySpec.SMOOTH_WRR));
        engine.addBackend("default", new BackendSpec("old", "http://127.0.0.1:9000", 10, null, false), false);
    }

    void add(String id, boolean slowStart) {
        engine.addBackend("default", new BackendSpec(id, "http://127.0.0.1:9001", 10, null, false), slowStart);
    }

    double effective(String id) {
        return engine.backends().stream().filter(v -> v.id().equals(id)).findFirst().orElseThrow().effectiveWeight();
    }

    /** The weight the strategy sees in the published snapshot, in hundredths. */
    int candidateWeight(String id) {
        Candidates c = pool.snapshot().primaryCandidates();
        for (int i = 0; i < c.size(); i++) {
            if (c.get(i).id().equals(id)) {
                return c.weight(i);
            }
        }
        throw new AssertionError(id + " is not a candidate");
    }

    void rampsFromNow(String id) {
        assertThat(effective(id)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        clock.advance(Duration.ofMillis(5_000));
        assertThat(effective(id)).isCloseTo(5.5, org.assertj.core.data.Offset.offset(1e-9));
        clock.advance(Duration.ofMillis(5_000));
        assertThat(effective(id)).isEqualTo(10.0);
    }

    @Test
    void aBackendAddedWithSlowStartRampsFromTenPercentToFullWeight() {
        add("new", true);

        rampsFromNow("new");
        assertThat(effective("old")).isEqualTo(10.0);
    }

    @Test
    void theSnapshotFollowsTheRampOnEveryTick() {
        add("new", true);
        assertThat(candidateWeight("new")).isEqualTo(100);

        clock.advance(Duration.ofMillis(2_500));
        engine.tick();
        assertThat(candidateWeight("new")).isEqualTo(325);

        clock.advance(Duration.ofMillis(7_500));
        engine.tick();
        assertThat(candidateWeight("new")).isEqualTo(1000);
        assertThat(candidateWeight("old")).isEqualTo(1000);
    }

    @Test
    void aBackendAddedWithoutSlowStartHasItsFullWeightAtOnce() {
        add("new", false);

        assertThat(effective("new")).isEqualTo(10.0);
    }

    @Test
    void noRampWhenSlowStartIsOff() {
        engine.setSettings(SETTINGS.withSlowStartMs(0));

        add("new", true);

        assertThat(effective("new")).isEqualTo(10.0);
    }

    @Test
    void aReEnabledBackendRampsAgain() {
        engine.drain("old");
        clock.advance(Duration.ofMillis(60_000));

        engine.enable("old");

        rampsFromNow("old");
    }

    @Test
    void aBackendBackUpAfterItsHealthChecksRampsAgain() {
        for (int i = 0; i < 3; i++) {
            engine.reportProbe("old", false);
        }
        clock.advance(Duration.ofMillis(60_000));

        engine.reportProbe("old", true);
        engine.reportProbe("old", true);

        rampsFromNow("old");
    }

    @Test
    void aBackendWhoseEjectionEndedRampsAgain() {
        add("b", false);
        Lease l;
        do {
            l = pool.pick(REQ);
            if (!l.backend().id().equals("old")) {
                l.release(Outcome.SUCCESS);
            }
        } while (!l.backend().id().equals("old"));
        l.release(Outcome.SERVER_ERROR); // consecutiveFailures = 1 ejects for 1 s
        clock.advance(Duration.ofMillis(1_000));

        engine.tick();

        rampsFromNow("old");
    }

    @Test
    void aBackendReweightedFromZeroRampsAgain() {
        engine.setWeight("old", 0);
        assertThat(effective("old")).isZero();
        clock.advance(Duration.ofMillis(60_000));

        engine.setWeight("old", 10);

        rampsFromNow("old");
    }

    @Test
    void everyWeightAwareStrategyShowsTheRamp() {
        for (String type : StrategySpec.TYPES) {
            if (!Strategies.descriptor(type).readsWeights()) {
                continue;
            }
            engine.setStrategy("default", StrategySpec.of(type));
            add("new-" + type, true);

            assertThat(effective("new-" + type)).as(type).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        }
    }

    @Test
    void aWeightBlindStrategyShowsNoRampSinceItAppliesNone() {
        for (String type : List.of(StrategySpec.ROUND_ROBIN, StrategySpec.RANDOM, StrategySpec.FASTEST_RESPONSE)) {
            // given a strategy that picks without reading weights
            engine.setStrategy("default", StrategySpec.of(type));

            // when a backend joins with slow start
            add("new-" + type, true);

            // then its effective weight (what /api/state and the window show) is its weight, not 10% of it
            assertThat(effective("new-" + type)).as(type).isEqualTo(10.0);
        }
    }

    @Test
    void theWhyTabShowsNoRampUnderAWeightBlindStrategyEither() {
        engine.setStrategy("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        add("new", true);

        DecisionTrace t = DecisionTrace.explain(pool, REQ);

        assertThat(t.candidates()).filteredOn(c -> c.backend().equals("new"))
                .extracting(DecisionTrace.Candidate::effectiveWeight).containsExactly(1000);
    }

    @Test
    void aSwitchToAWeightAwareStrategyMidRampShowsTheRampFromWhereItIs() {
        engine.setStrategy("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        add("new", true);
        clock.advance(Duration.ofMillis(5_000));

        engine.setStrategy("default", StrategySpec.of(StrategySpec.SMOOTH_WRR));

        assertThat(effective("new")).isCloseTo(5.5, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(candidateWeight("new")).isEqualTo(550);
    }
}
