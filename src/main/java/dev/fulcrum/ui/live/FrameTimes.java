package dev.fulcrum.ui.live;

import java.util.Arrays;
import java.util.Locale;

/**
 * The stage's frame times over a window of frames: the gap from one frame to the next (what the audience sees: 16.7 ms
 * at 60 frames a second) and the time one frame took to draw (what the FX thread spent). Fixed arrays, no allocation
 * per frame; {@link #summary} sorts copies once per window.
 *
 * <p>Example: frames at 0, 16, 33 and 60 ms, each drawn in 2 ms, give gaps 16, 17 and 27 ms: "3 frames, gap p50 17.0
 * ms p99 27.0 ms max 27.0 ms, draw p50 2.0 ms p99 2.0 ms".
 */
final class FrameTimes {
    private final long[] gaps;
    private final long[] draws;
    private int count;
    private long lastFrameNanos = -1;

    FrameTimes(int capacity) {
        gaps = new long[capacity];
        draws = new long[capacity];
    }

    /** One frame: when it began (the pulse's time) and how long its drawing took. Frames past the capacity are not kept. */
    void frame(long startedNanos, long drawNanos) {
        if (lastFrameNanos >= 0 && count < gaps.length) {
            gaps[count] = startedNanos - lastFrameNanos;
            draws[count] = drawNanos;
            count++;
        }
        lastFrameNanos = startedNanos;
    }

    int count() {
        return count;
    }

    /** The window's figures in one line, and a new window begun (the next gap is measured from the last frame). */
    String summary() {
        long[] g = Arrays.copyOf(gaps, count);
        long[] d = Arrays.copyOf(draws, count);
        Arrays.sort(g);
        Arrays.sort(d);
        String s = String.format(Locale.ROOT, "%d frames, gap p50 %.1f ms p99 %.1f ms max %.1f ms, draw p50 %.1f ms p99 %.1f ms",
                count, ms(at(g, 0.50)), ms(at(g, 0.99)), ms(at(g, 1.0)), ms(at(d, 0.50)), ms(at(d, 0.99)));
        count = 0;
        return s;
    }

    /** The nearest-rank percentile of sorted values; 0 for none. */
    private static long at(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
