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

    @Test
    void latenciesRecordedOnSeveralThreadsAllCount() throws Exception {
        // each recording thread has its recorder of its own (the proxy's I/O threads share none): the roll-up must take
        // them all
        BackendStats s = new BackendStats();
        s.roll(0);
        Thread fast = new Thread(() -> {
            for (int i = 0; i < 100; i++) {
                s.record(Outcome.SUCCESS, 2_000_000);
            }
        });
        Thread slow = new Thread(() -> {
            for (int i = 0; i < 100; i++) {
                s.record(Outcome.SUCCESS, 8_000_000);
            }
        });
        fast.start();
        slow.start();
        fast.join();
        slow.join();
        s.roll(1_000_000_000L);
        assertThat(s.p50Ms()).as("the fast thread's half").isCloseTo(2.0, within(0.05));
        assertThat(s.p99Ms()).as("the slow thread's half").isCloseTo(8.0, within(0.1));
        assertThat(s.totalRequests()).isEqualTo(200);
        // and the next second starts empty: what was rolled is not counted again
        s.roll(2_000_000_000L);
        for (int i = 0; i < 100; i++) {
            s.record(Outcome.SUCCESS, 2_000_000);
        }
        s.roll(3_000_000_000L);
        assertThat(s.p99Ms()).as("still 8 ms: the slow second is in the window").isCloseTo(8.0, within(0.1));
    }
}
