package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.strategy.StrategySpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Active health results with rise/fall hysteresis, fed through {@link Engine#reportProbe}. */
@DisplayName("Health rise and fall")
class HealthControlTest {
    /** rise 2, fall 3. */
    static final EngineSettings SETTINGS = new EngineSettings(0, EngineSettings.OutlierSpec.DISABLED,
            BreakerSpec.DISABLED, 2, 3);
    static final RequestContext REQ = SimpleRequest.get("10.0.0.1", "/");

    final ManualClock clock = new ManualClock();
    final List<EngineEvent> events = new ArrayList<>();
    Engine engine;
    Pool pool;

    @BeforeEach
    void given() {
        engine = Engine.manual(SETTINGS, clock, RandomSource.seeded(1));
        pool = engine.addPool("default", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        for (String id : List.of("a", "b")) {
            engine.addBackend("default", new BackendSpec(id, "http://127.0.0.1:9000", 1, null, false), false);
        }
        engine.subscribe(events::add);
    }

    void probes(String id, boolean... results) {
        for (boolean ok : results) {
            engine.reportProbe(id, ok);
        }
    }

    BackendView view(String id) {
        return engine.backends().stream().filter(v -> v.id().equals(id)).findFirst().orElseThrow();
    }

    List<String> health() {
        return events.stream().filter(e -> e.type().equals("health"))
                .map(e -> e.backend() + " " + e.from() + "->" + e.to()).toList();
    }

    List<String> picks(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Lease l = pool.pick(REQ);
            out.add(l == null ? null : l.backend().id());
            if (l != null) {
                l.release(Outcome.SUCCESS);
            }
        }
        return out;
    }

    @Test
    void aNewBackendIsUnknownAndTakesTrafficUntilItsFirstProbe() {
        assertThat(view("a").health()).isEqualTo(HealthStatus.UNKNOWN);
        assertThat(view("a").state()).isEqualTo(BackendState.UP);

        probes("a", true);

        assertThat(view("a").health()).isEqualTo(HealthStatus.UP);
        assertThat(health()).as("still UP as a state: nothing to tell").isEmpty();
    }

    @Test
    void goesDownAfterFallFailuresInARow() {
        probes("a", true, false, false);
        assertThat(view("a").state()).isEqualTo(BackendState.UP);

        probes("a", false);

        assertThat(view("a").state()).isEqualTo(BackendState.DOWN);
        assertThat(view("a").health()).isEqualTo(HealthStatus.DOWN);
        assertThat(picks(6)).containsOnly("b");
        assertThat(health()).containsExactly("a UP->DOWN");
    }

    @Test
    void anUnknownBackendAlsoNeedsFallFailuresToGoDown() {
        probes("a", false, false);
        assertThat(view("a").state()).isEqualTo(BackendState.UP);

        probes("a", false);

        assertThat(view("a").state()).isEqualTo(BackendState.DOWN);
    }

    @Test
    void comesBackUpAfterRiseSuccessesInARow() {
        probes("a", false, false, false);

        probes("a", true);
        assertThat(view("a").state()).as("one success of rise 2").isEqualTo(BackendState.DOWN);
        probes("a", true);

        assertThat(view("a").state()).isEqualTo(BackendState.UP);
        assertThat(picks(4)).containsExactly("a", "b", "a", "b");
        assertThat(health()).containsExactly("a UP->DOWN", "a DOWN->UP");
    }

    @Test
    void aSuccessInBetweenResetsTheFailureStreak() {
        probes("a", false, false, true, false, false);
        assertThat(view("a").state()).isEqualTo(BackendState.UP);

        probes("a", false);

        assertThat(view("a").state()).isEqualTo(BackendState.DOWN);
    }

    @Test
    void aFailureInBetweenResetsTheSuccessStreak() {
        probes("a", false, false, false);

        probes("a", true, false, true, false, true);
        assertThat(view("a").state()).isEqualTo(BackendState.DOWN);
        probes("a", true);

        assertThat(view("a").state()).isEqualTo(BackendState.UP);
        assertThat(health()).containsExactly("a UP->DOWN", "a DOWN->UP");
    }

    @Test
    void probesForAnUnknownIdAreIgnored() {
        probes("nope", false, false, false);

        assertThat(engine.backends()).extracting(BackendView::state).containsOnly(BackendState.UP);
        assertThat(events).isEmpty();
    }

    @Test
    void aDrainedBackendThatGoesDownStaysDrainedAndComesBackDownOnEnable() {
        engine.drain("a");
        events.clear();

        probes("a", false, false, false);
        assertThat(view("a").state()).isEqualTo(BackendState.DRAINED);
        engine.enable("a");

        assertThat(view("a").state()).isEqualTo(BackendState.DOWN);
        assertThat(picks(4)).containsOnly("b");
    }

    @Test
    void everyDownBackendMeansNothingToPick() {
        probes("a", false, false, false);
        probes("b", false, false, false);

        assertThat(pool.pick(REQ)).isNull();
        assertThat(pool.snapshot().panic()).as("DOWN is not ejection: no panic").isFalse();
    }
}
