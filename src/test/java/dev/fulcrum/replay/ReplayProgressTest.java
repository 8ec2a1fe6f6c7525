package dev.fulcrum.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lines headless prints for a replay (docs/REFERENCE.md §1), word for word. */
class ReplayProgressTest {
    private static ReplayProgress progress(ReplayProgress.State state, long total, long sent, long late, long failed,
                                           long sendingNanos, String error) {
        return new ReplayProgress(state, total, sent, sent - failed, failed, late, 0, 0, sendingNanos, sendingNanos,
                10_000_000_000L, 1, 0, 0, 0, error, Map.of(200, sent - failed));
    }

    @Test
    void theProgressLineSaysHowFarItGot() {
        assertThat(progress(ReplayProgress.State.SENDING, 5000, 1200, 0, 0, 2_400_000_000L, null).progressLine())
                .isEqualTo("replay: 1200/5000 requests, 24%");
        assertThat(progress(ReplayProgress.State.COUNTING, -1, 0, 0, 0, 0, null).progressLine())
                .isEqualTo("replay: counting the requests");
    }

    @Test
    void theSummaryLineSaysHowManyInHowLongAndHowManyWereLateOrFailed() {
        ReplayProgress done = progress(ReplayProgress.State.DONE, 5000, 5000, 3, 0, 10_020_000_000L, null);
        assertThat(done.summaryLine())
                .isEqualTo("replay: 5000 requests in 10.02 s (499.0 req/s), 3 late by more than 10 ms, 0 failed");
        assertThat(done.recordedRate()).isEqualTo(500.0);
        assertThat(progress(ReplayProgress.State.DONE, 5000, 1200, 0, 2, 2_400_000_000L, null).summaryLine())
                .isEqualTo("replay: cancelled after 1200 of 5000 requests in 2.40 s (500.0 req/s), 0 late by more than"
                        + " 10 ms, 2 failed");
        assertThat(progress(ReplayProgress.State.DONE, 5000, 1200, 0, 0, 2_400_000_000L, "a.har: unexpected end")
                .summaryLine()).isEqualTo("replay: stopped after 1200 of 5000 requests in 2.40 s (500.0 req/s), 0 late"
                + " by more than 10 ms, 0 failed: a.har: unexpected end");
    }
}
