package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** How old the figures are, on a manual clock: nothing here waits for time to pass. */
class StalenessTest {
    private final ManualClock clock = new ManualClock();
    private final AtomicInteger newInstances = new AtomicInteger();

    @Test
    void aRemoteEngineSilentForTwoSecondsIsStaleUntilItsNextAnswerIsShown() {
        // given a remote engine that answered, its figures on screen
        Staleness s = new Staleness(clock, true, newInstances::incrementAndGet);
        s.answered(null);
        s.shown();

        // when it stays silent just under two seconds, then two seconds
        clock.advanceMillis(Staleness.STALE_AFTER_MS - 1);
        s.check(true);
        assertThat(s.stale()).as("1.999 s without an answer").isFalse();
        clock.advanceMillis(1);
        s.check(true);

        // then the figures are stale, as old as the silence, until an answer is shown
        assertThat(s.stale()).isTrue();
        assertThat(s.msSinceLastAnswer()).isEqualTo(Staleness.STALE_AFTER_MS);
        clock.advanceMillis(3_000);
        s.answered(null);
        assertThat(s.msSinceLastAnswer()).isZero();
        assertThat(s.lastAnswerWallMillis()).isEqualTo(clock.wallMillis());
        assertThat(s.stale()).as("read, not shown yet").isTrue();
        s.shown();
        assertThat(s.stale()).isFalse();
    }

    @Test
    void theWindowsOwnEngineIsStaleWhenAReadFailsButNeverByTime() {
        Staleness s = new Staleness(clock, false, newInstances::incrementAndGet);
        s.answered(null);
        s.shown();

        clock.advanceMillis(60_000);
        s.check(true);
        assertThat(s.stale()).as("a slow answer from this process is a busy machine").isFalse();

        s.failed(true);
        assertThat(s.stale()).isTrue();
    }

    @Test
    void withNoFiguresOnScreenNothingIsStale() {
        Staleness s = new Staleness(clock, true, newInstances::incrementAndGet);

        clock.advanceMillis(10_000);
        s.check(false);
        s.failed(false);

        assertThat(s.stale()).isFalse();
        assertThat(s.msSinceLastAnswer()).as("counted from the start").isEqualTo(10_000);
    }

    @Test
    void anAnswerFromAnotherInstanceIsToldBeforeTheInstanceChanges() {
        Staleness s = new Staleness(clock, true, newInstances::incrementAndGet);
        List<String> seen = new ArrayList<>();
        s.instanceProperty().addListener((o, a, now) -> seen.add(now + " after " + newInstances.get() + " told"));

        s.answered("one");
        s.shown();
        s.answered("one");
        s.shown();
        s.answered(null); // an answer that does not say which instance gave it changes nothing
        s.shown();
        s.answered("two");
        s.shown();

        assertThat(newInstances.get()).as("the first instance is not a restart").isEqualTo(1);
        assertThat(seen).containsExactly("one after 0 told", "two after 1 told");
        assertThat(s.instanceProperty().get()).isEqualTo("two");
    }
}
