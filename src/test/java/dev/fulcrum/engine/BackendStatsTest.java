package dev.fulcrum.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class BackendStatsTest {

    @Test
    void percentilesCoverTheLastTenSecondsWithinOnePercent() {
        BackendStats s = new BackendStats();
        long now = 0;
        s.roll(now);
        // 99 requests at 2 ms and one at 500 ms, every second for 12 seconds
        for (int sec = 1; sec <= 12; sec++) {
            for (int i = 0; i < 99; i++) {
                s.record(Outcome.SUCCESS, 2_000_000);
            }
            s.record(Outcome.SUCCESS, 500_000_000);
            now += 1_000_000_000L;
            s.roll(now);
        }
        assertThat(s.p50Ms()).isCloseTo(2.0, within(0.02));
        assertThat(s.p99Ms()).isCloseTo(2.0, within(0.02)); // 1 in 100 is slow: the 99th percentile is still 2 ms
        assertThat(s.rps()).isCloseTo(100.0, within(0.5));
        assertThat(s.totalRequests()).isEqualTo(1200);
    }

    @Test
    void aBackendsLatencyHistoryStaysSmallSoAThousandBackendsFitInASmallHeap() {
        BackendStats s = new BackendStats();
        Random r = new Random(7);
        long now = 0;
        for (int sec = 0; sec < 30; sec++) {
            for (int i = 0; i < 20_000; i++) {
                // mostly 0.2-0.6 ms, some tens of ms, a few seconds
                long v = 200_000 + (long) (r.nextDouble() * 400_000) + (i % 100 == 0 ? 40_000_000 : 0)
                        + (i % 5000 == 0 ? 3_000_000_000L : 0);
                s.record(Outcome.SUCCESS, v);
            }
            now += 1_000_000_000L;
            s.roll(now);
        }
        // the flat histograms took about 400 KiB a backend (a thousand backends: more than a 256 MiB heap)
        assertThat(s.histogramBytes()).isLessThan(64 * 1024);
        assertThat(s.p50Ms()).isBetween(0.2, 0.6);
    }
}
