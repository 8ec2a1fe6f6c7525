package dev.fulcrum.ui.live;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FrameTimesTest {
    private static final long MS = 1_000_000;

    @Test
    void theClassCommentsExampleGivesItsFigures() {
        FrameTimes t = new FrameTimes(100);
        for (long at : new long[] {0, 16, 33, 60}) {
            t.frame(at * MS, 2 * MS);
        }
        assertThat(t.summary())
                .isEqualTo("3 frames, gap p50 17.0 ms p99 27.0 ms max 27.0 ms, draw p50 2.0 ms p99 2.0 ms");
    }

    @Test
    void aSummaryBeginsTheNextWindowFromTheLastFrame() {
        FrameTimes t = new FrameTimes(100);
        t.frame(0, MS);
        t.frame(10 * MS, MS);
        t.summary();
        t.frame(30 * MS, 5 * MS);
        assertThat(t.count()).isEqualTo(1);
        assertThat(t.summary()).startsWith("1 frames, gap p50 20.0 ms").endsWith("draw p50 5.0 ms p99 5.0 ms");
        assertThat(t.summary()).startsWith("0 frames, gap p50 0.0 ms");
    }

    @Test
    void framesPastTheCapacityAreNotKept() {
        FrameTimes t = new FrameTimes(2);
        for (int i = 0; i < 10; i++) {
            t.frame(i * MS, 0);
        }
        assertThat(t.count()).isEqualTo(2);
    }
}
