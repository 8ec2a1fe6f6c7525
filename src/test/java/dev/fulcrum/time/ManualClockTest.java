package dev.fulcrum.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ManualClockTest {
    private final ManualClock clock = new ManualClock();
    private final List<String> ran = new ArrayList<>();

    private Runnable note(String name) {
        return () -> ran.add(name + "@" + clock.elapsedNanos() / 1_000_000);
    }

    @Test
    void advancingRunsWhatFallsDueInTimeOrderWithTheClockAtEachDueTime() {
        clock.scheduleAtFixedRate(note("every100"), 0, 100, TimeUnit.MILLISECONDS);
        clock.schedule(note("once250"), 250, TimeUnit.MILLISECONDS);

        clock.advanceMillis(300);

        assertThat(ran).containsExactly("every100@0", "every100@100", "every100@200", "once250@250", "every100@300");
        assertThat(clock.elapsedNanos()).isEqualTo(300_000_000L);
    }

    @Test
    void nothingRunsBeforeItsTimeAndAZeroDelayRunsAtTheNextRunDue() {
        clock.schedule(note("later"), 10, TimeUnit.MILLISECONDS);
        clock.schedule(note("now"), 0, TimeUnit.MILLISECONDS);

        assertThat(ran).isEmpty();
        assertThat(clock.runDue()).isEqualTo(1);
        assertThat(ran).containsExactly("now@0");
        clock.advanceMillis(9);
        assertThat(ran).containsExactly("now@0");
        clock.advanceMillis(1);
        assertThat(ran).containsExactly("now@0", "later@10");
    }

    @Test
    void aStallRunsNothingThenWhatFellDueRunsLateAsASystemSchedulerRunsIt() {
        clock.scheduleAtFixedRate(note("rate"), 100, 100, TimeUnit.MILLISECONDS);
        clock.scheduleWithFixedDelay(note("delay"), 100, 100, TimeUnit.MILLISECONDS);
        clock.advanceMillis(100);
        ran.clear();

        clock.stall(java.time.Duration.ofMillis(350)); // stopped from 100 to 450 ms
        assertThat(ran).isEmpty();
        clock.runDue();
        // the fixed rate catches up on each period missed (200, 300, 400); the fixed delay runs once
        assertThat(ran).containsExactly("rate@450", "delay@450", "rate@450", "rate@450");
        clock.advanceMillis(100);
        assertThat(ran).containsExactly("rate@450", "delay@450", "rate@450", "rate@450", "rate@500", "delay@550");
        assertThatThrownBy(() -> clock.stall(java.time.Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never goes back");
    }

    @Test
    void aCancelledPeriodicTaskStopsAndOneThatThrowsIsTheCallersProblem() {
        Cancellable c = clock.scheduleWithFixedDelay(note("tick"), 5, 5, TimeUnit.MILLISECONDS);
        clock.advanceMillis(10);
        c.cancel();
        clock.advanceMillis(100);

        assertThat(ran).containsExactly("tick@5", "tick@10");
        assertThat(clock.pending()).isZero();
    }

    @Test
    void tasksScheduledByATaskRunInTheSameAdvanceWhenDue() {
        clock.schedule(() -> {
            ran.add("first@" + clock.elapsedNanos() / 1_000_000);
            clock.schedule(note("second"), 20, TimeUnit.MILLISECONDS);
        }, 10, TimeUnit.MILLISECONDS);

        clock.advanceMillis(50);

        assertThat(ran).containsExactly("first@10", "second@30");
    }

    @Test
    void executeRunsAtOnceOnTheCallersThreadAndTheWallClockMovesWithTheMonotonicOne() {
        clock.execute(note("inline"));
        assertThat(ran).containsExactly("inline@0");

        assertThat(clock.wallMillis()).isEqualTo(ManualClock.WALL_START_MILLIS);
        clock.advanceMillis(1_234);
        assertThat(clock.wallMillis()).isEqualTo(ManualClock.WALL_START_MILLIS + 1_234);
        assertThat(clock.nanos()).isEqualTo(ManualClock.START_NANOS + 1_234_000_000L);
    }

    @Test
    void theClockNeverGoesBackAndShutdownCancelsEverything() {
        clock.advanceMillis(5);
        assertThatThrownBy(() -> clock.moveTo(1_000_000L)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("never goes back");
        clock.scheduleAtFixedRate(note("x"), 1, 1, TimeUnit.MILLISECONDS);

        clock.shutdown();
        clock.advanceMillis(10);

        assertThat(ran).isEmpty();
    }

    @Test
    void theSchedulerThreadIsTheOneAdvancing() {
        boolean[] inside = new boolean[1];
        clock.schedule(() -> inside[0] = clock.onSchedulerThread(), 1, TimeUnit.MILLISECONDS);

        clock.advanceMillis(1);

        assertThat(inside[0]).isTrue();
        assertThat(clock.onSchedulerThread()).isFalse();
    }
}
