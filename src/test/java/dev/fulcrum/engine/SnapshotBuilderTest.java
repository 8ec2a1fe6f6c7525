package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.StrategyEnv;
import dev.fulcrum.engine.strategy.StrategySpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link SnapshotBuilder} and {@link PanicMode}: their class comments' examples on bare backends. */
@DisplayName("Snapshot builder")
class SnapshotBuilderTest {
    final ManualClock clock = new ManualClock();
    final TreeMap<String, Backend> members = new TreeMap<>();
    final SnapshotBuilder builder = new SnapshotBuilder("default", StrategySpec.of(StrategySpec.SMOOTH_WRR),
            StrategyEnv.of(clock, RandomSource.seeded(1)));

    Backend member(String id, int weight, boolean backup) {
        Backend b = new Backend("default", new BackendSpec(id, "http://127.0.0.1:9000", weight, null, backup), null,
                BreakerSpec.DISABLED, clock, 10_000);
        members.put(id, b);
        return b;
    }

    void eject(Backend b) {
        b.ejectedUntilNanos = clock.nanos() + 30_000_000_000L;
    }

    static List<String> ids(Candidates c) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < c.size(); i++) {
            out.add(c.get(i).id() + "=" + c.weight(i));
        }
        return out;
    }

    PoolSnapshot build() {
        return builder.build(members.values(), 0, clock.nanos());
    }

    @Test
    void theClassCommentsExample() {
        member("a", 5, false);
        member("b", 0, false);
        eject(member("c", 2, false));
        member("d", 1, true);

        PoolSnapshot s = build();

        assertThat(ids(s.primaryCandidates())).containsExactly("a=500");
        assertThat(ids(s.backupCandidates())).containsExactly("d=100");
        assertThat(s.all()).extracting(BackendView::id).containsExactly("a", "b", "c", "d");
        assertThat(s.panic()).isFalse();
        assertThat(builder.ramping()).isFalse();
    }

    @Test
    void panicModesExample() {
        Backend a = member("a", 1, false);
        Backend b = member("b", 1, false);
        member("c", 1, false).health = HealthStatus.DOWN;
        Backend z = member("z", 1, true);
        eject(a);
        eject(b);

        PoolSnapshot backupServes = build();
        eject(z);
        PoolSnapshot panic = build();

        assertThat(backupServes.panic()).isFalse();
        assertThat(ids(backupServes.primaryCandidates())).isEmpty();
        assertThat(ids(backupServes.backupCandidates())).containsExactly("z=100");
        assertThat(panic.panic()).isTrue();
        assertThat(ids(panic.primaryCandidates())).containsExactly("a=100", "b=100");
        assertThat(ids(panic.backupCandidates())).containsExactly("z=100");
    }

    @Test
    void aRampingMemberCarriesItsEffectiveWeightAndKeepsTheBuilderRebuilding() {
        Backend a = member("a", 10, false);
        a.upSinceNanos = clock.nanos();
        clock.advanceMillis(2_500);

        PoolSnapshot s = builder.build(members.values(), 10_000, clock.nanos());

        assertThat(ids(s.primaryCandidates())).containsExactly("a=325");
        assertThat(builder.ramping()).isTrue();
    }
}
