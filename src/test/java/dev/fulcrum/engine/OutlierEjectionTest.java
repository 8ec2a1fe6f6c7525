package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.BreakerSpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The rules of {@link OutlierEjection} on bare backends, without an engine. */
@DisplayName("Outlier ejection rules")
class OutlierEjectionTest {
    static final long SECOND = 1_000_000_000L;
    static final EngineSettings.OutlierSpec THREE_IN_A_ROW = new EngineSettings.OutlierSpec(true, 3, 30_000, 50);

    final ManualClock clock = new ManualClock();
    final Map<String, Backend> members = new TreeMap<>();

    Backend member(String id, boolean backup) {
        Backend b = new Backend("default", new BackendSpec(id, "http://127.0.0.1:9000", 1, null, backup), null,
                BreakerSpec.DISABLED, clock, 10_000);
        members.put(id, b);
        return b;
    }

    @Test
    void theNthEjectionLastsNTimesTheBaseCappedAtThreeHundredSeconds() {
        List<Long> seconds = new ArrayList<>();
        for (int n = 1; n <= 11; n++) {
            seconds.add(OutlierEjection.length(30_000, n) / SECOND);
        }

        assertThat(seconds).containsExactly(30L, 60L, 90L, 120L, 150L, 180L, 210L, 240L, 270L, 300L, 300L);
        assertThat(OutlierEjection.length(30_000, Integer.MAX_VALUE)).isEqualTo(300 * SECOND);
        assertThat(OutlierEjection.length(Long.MAX_VALUE, Integer.MAX_VALUE)).isEqualTo(300 * SECOND);
    }

    @Test
    void aRunOfFailuresReachingTheThresholdAsksForAnEjectionAndASuccessEndsTheRun() {
        Backend a = member("a", false);

        assertThat(OutlierEjection.countCall(a, true, THREE_IN_A_ROW)).isFalse();
        assertThat(OutlierEjection.countCall(a, true, THREE_IN_A_ROW)).isFalse();
        assertThat(OutlierEjection.countCall(a, false, THREE_IN_A_ROW)).isFalse();
        assertThat(OutlierEjection.countCall(a, true, THREE_IN_A_ROW)).isFalse();
        assertThat(OutlierEjection.countCall(a, true, THREE_IN_A_ROW)).isFalse();
        assertThat(OutlierEjection.countCall(a, true, THREE_IN_A_ROW)).isTrue();
        assertThat(OutlierEjection.countCall(a, true, EngineSettings.OutlierSpec.DISABLED)).isFalse();
    }

    @Test
    void atMostHalfOfFourPrimariesAndOneOfThreeAreEjected() {
        List<Backend> four = List.of(member("a", false), member("b", false), member("c", false), member("d", false));
        long now = clock.nanos();

        assertThat(four).extracting(b -> OutlierEjection.eject(b, members, now, THREE_IN_A_ROW))
                .containsExactly(true, true, false, false);

        members.clear();
        List<Backend> three = List.of(member("a", false), member("b", false), member("c", false));
        assertThat(three).extracting(b -> OutlierEjection.eject(b, members, now, THREE_IN_A_ROW))
                .containsExactly(true, false, false);
    }

    @Test
    void backupsAreCountedApartFromPrimaries() {
        Backend a = member("a", false);
        member("b", false);
        member("c", false);
        Backend z = member("z", true);
        long now = clock.nanos();

        assertThat(OutlierEjection.eject(a, members, now, THREE_IN_A_ROW)).isTrue();
        assertThat(OutlierEjection.eject(z, members, now, THREE_IN_A_ROW)).as("the first backup may go").isTrue();
    }

    @Test
    void anEjectionSetsItsDeadlineCountsItselfAndEndsOnceThatPasses() {
        Backend a = member("a", false);
        member("b", false);
        long now = clock.nanos();

        assertThat(OutlierEjection.eject(a, members, now, THREE_IN_A_ROW)).isTrue();
        assertThat(a.timesEjected).isEqualTo(1);
        assertThat(OutlierEjection.isEjected(a, now + 29 * SECOND)).isTrue();
        assertThat(OutlierEjection.remainingMs(a, now + 29 * SECOND)).isEqualTo(1_000);
        assertThat(OutlierEjection.eject(a, members, now, THREE_IN_A_ROW)).as("ejected already").isFalse();

        assertThat(OutlierEjection.endIfOver(a, now + 29 * SECOND)).isFalse();
        assertThat(OutlierEjection.remainingMs(a, now + 30 * SECOND)).as("due, until the tick ends it").isZero();
        assertThat(OutlierEjection.endIfOver(a, now + 30 * SECOND)).isTrue();
        assertThat(a.state()).isEqualTo(BackendState.UP);
    }

    @Test
    void aBackendNoLongerAMemberIsNotEjectedButItsRunStillStartsAgain() {
        Backend a = member("a", false);
        member("b", false);
        members.remove("a");
        OutlierEjection.countCall(a, true, THREE_IN_A_ROW);

        assertThat(OutlierEjection.eject(a, members, clock.nanos(), THREE_IN_A_ROW)).isFalse();
        assertThat(a.consecutiveFailures()).hasValue(0);
        assertThat(a.timesEjected).isZero();
    }
}
