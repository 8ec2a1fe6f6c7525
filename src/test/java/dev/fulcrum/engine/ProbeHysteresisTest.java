package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.BreakerSpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link ProbeHysteresis} on a bare backend: the class comment's example, probe by probe. */
@DisplayName("Probe rise and fall rules")
class ProbeHysteresisTest {
    /** rise 2, fall 3, slow start 10 s. */
    static final EngineSettings SETTINGS = new EngineSettings(10_000, EngineSettings.OutlierSpec.DISABLED,
            BreakerSpec.DISABLED, 2, 3);

    final ManualClock clock = new ManualClock();
    final Backend b = new Backend("default", new BackendSpec("a", "http://127.0.0.1:9000", 1, null, false), null,
            BreakerSpec.DISABLED, clock, 10_000);

    @Test
    void theClassCommentsExample() {
        List<String> seen = new ArrayList<>();
        boolean[] probes = {true, false, false, false, true, false, true};
        for (boolean ok : probes) {
            boolean changed = ProbeHysteresis.apply(b, ok, SETTINGS, clock.nanos());
            seen.add((ok ? "ok " : "fail ") + b.health + (changed ? " changed" : ""));
        }
        assertThat(b.upSinceNanos).as("no ramp yet").isEqualTo(Long.MIN_VALUE);

        clock.advanceMillis(5);
        boolean changed = ProbeHysteresis.apply(b, true, SETTINGS, clock.nanos());

        assertThat(seen).containsExactly("ok UP changed", "fail UP", "fail UP", "fail DOWN changed", "ok DOWN",
                "fail DOWN", "ok DOWN");
        assertThat(changed).isTrue();
        assertThat(b.health).isEqualTo(HealthStatus.UP);
        assertThat(b.upSinceNanos).as("slow start begins as it comes back").isEqualTo(clock.nanos());
    }

    @Test
    void anUnknownBackendGoesDownOnlyAfterFallFailures() {
        assertThat(ProbeHysteresis.apply(b, false, SETTINGS, clock.nanos())).isFalse();
        assertThat(ProbeHysteresis.apply(b, false, SETTINGS, clock.nanos())).isFalse();
        assertThat(b.health).isEqualTo(HealthStatus.UNKNOWN);

        assertThat(ProbeHysteresis.apply(b, false, SETTINGS, clock.nanos())).isTrue();
        assertThat(b.health).isEqualTo(HealthStatus.DOWN);
    }
}
