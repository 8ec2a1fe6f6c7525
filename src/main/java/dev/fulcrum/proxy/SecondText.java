package dev.fulcrum.proxy;

import dev.fulcrum.threads.PerThread;
import java.util.function.LongFunction;

/**
 * A date's text made once a second, one per thread: the HTTP date forms (an answer's Date, a cookie's Expires) have no
 * milliseconds, and formatting one (Undertow's {@code DateUtils}, a SimpleDateFormat) for every answer costs what the
 * request path saves elsewhere. Reached through {@link PerThread}, so it needs no synchronization.
 */
final class SecondText {
    /** From the epoch milliseconds of a whole second to its text. */
    private final LongFunction<String> format;
    private long second = Long.MIN_VALUE;
    private String text;

    SecondText(LongFunction<String> format) {
        this.format = format;
    }

    /** One per thread, each formatting with {@code format}. */
    static PerThread<SecondText> perThread(LongFunction<String> format) {
        return PerThread.withInitial(() -> new SecondText(format));
    }

    /** {@code millis} as text: the one made for its second when this thread's last call fell in the same second. */
    String at(long millis) {
        long s = Math.floorDiv(millis, 1000L);
        if (s != second) {
            second = s;
            text = format.apply(s * 1000L);
        }
        return text;
    }
}
