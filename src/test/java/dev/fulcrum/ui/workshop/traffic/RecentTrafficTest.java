package dev.fulcrum.ui.workshop.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fulcrum.demo.TrafficSnapshot;
import dev.fulcrum.time.ManualClock;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The traffic view's "last second" and "last ten seconds" figures, on a clock the test moves. */
class RecentTrafficTest {
    private final ManualClock clock = new ManualClock();
    private final RecentTraffic recent = new RecentTraffic(clock);
    private long completed;
    private final Map<String, Long> byBackend = new TreeMap<>();

    /** Four snapshots a second for {@code seconds}, 50 answers a second, to {@code to}. */
    private void run(int seconds, String to, TrafficSnapshot.State state) {
        for (int q = 0; q < seconds * 4; q++) {
            clock.advanceMillis(250);
            long n = q % 2 == 0 ? 12 : 13;
            completed += n;
            byBackend.merge(to, n, Long::sum);
            recent.add(snapshot(state));
        }
    }

    private TrafficSnapshot snapshot(TrafficSnapshot.State state) {
        return new TrafficSnapshot(state, 0, 120_000_000_000L, completed, completed, 0, 0, 50, 50, 50,
                Map.of(200, completed), 0, 0, TrafficSnapshot.Latency.NONE, new TreeMap<>(byBackend), completed, 0);
    }

    @Test
    void theLastSecondsRateFallsToZeroWithinASecondOfStop() {
        recent.start();
        run(5, "a", TrafficSnapshot.State.RUNNING);
        assertThat(recent.rateLastSecond()).isCloseTo(50, within(0.5));

        // the run is stopped: one last snapshot, then none
        recent.add(snapshot(TrafficSnapshot.State.DONE));
        clock.advanceMillis(500);
        assertThat(recent.rateLastSecond()).isLessThan(50);
        clock.advanceMillis(1000);
        assertThat(recent.rateLastSecond()).isZero();
    }

    @Test
    void answersPerBackendAreTheLastTenSecondsSoAReweightShows() {
        // given 20 s all to a, then 12 s all to b (a reweight)
        recent.start();
        run(20, "a", TrafficSnapshot.State.RUNNING);
        assertThat(recent.byBackend()).containsEntry("a", 500L);
        run(12, "b", TrafficSnapshot.State.RUNNING);

        // then the chart shows b alone: a's answers are older than ten seconds
        assertThat(recent.byBackend()).containsEntry("a", 0L).containsEntry("b", 500L);
    }

    @Test
    void aFinishedRunKeepsItsLastTenSecondsOnTheChart() {
        recent.start();
        run(4, "a", TrafficSnapshot.State.RUNNING);
        recent.add(snapshot(TrafficSnapshot.State.DONE));
        clock.advanceMillis(60_000);
        assertThat(recent.byBackend()).containsEntry("a", completed);
        assertThat(recent.rateLastSecond()).isZero();
    }

    @Test
    void aNewRunForgetsTheLastOne() {
        recent.start();
        run(3, "a", TrafficSnapshot.State.DONE);
        recent.start();
        assertThat(recent.byBackend()).isEmpty();
        assertThat(recent.rateLastSecond()).isZero();
    }

    @Test
    void theDefaultRunIsLongEnoughToTalkADemoThrough() {
        assertThat(TrafficController.DEFAULT_DURATION_S).isGreaterThanOrEqualTo(120);
    }

    @Test
    void errorsNameTheFailingStatusesOnly() {
        TrafficSnapshot s = new TrafficSnapshot(TrafficSnapshot.State.DONE, 0, 0, 150, 150, 0, 0, 0, 0, 50,
                new TreeMap<>(Map.of(200, 147L, 500, 3L)), 0, 0, TrafficSnapshot.Latency.NONE, Map.of(), 150, 0);
        assertThat(TrafficController.errorsText(s)).isEqualTo("3 errors (500: 3)");
        TrafficSnapshot ok = new TrafficSnapshot(TrafficSnapshot.State.DONE, 0, 0, 10, 10, 0, 0, 0, 0, 50,
                Map.of(200, 10L), 0, 0, TrafficSnapshot.Latency.NONE, Map.of(), 10, 0);
        assertThat(TrafficController.errorsText(ok)).isEqualTo("0 errors");
    }
}
