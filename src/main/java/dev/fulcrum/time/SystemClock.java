package dev.fulcrum.time;

/**
 * The system clock as two static calls: the one place in Fulcrum that reads {@link System#nanoTime()} and
 * {@link System#currentTimeMillis()} ({@code ArchitectureTest} holds that). {@link Ticker#system()} reads it, and so
 * does code that cannot take a {@link Ticker}: the proxy's request path, whose readings must match the ones Undertow
 * stamps each exchange with, and where a call through an interface is not wanted. A static call this small is
 * inlined by the JIT, so it costs what {@code System.nanoTime()} costs.
 */
public final class SystemClock {
    private SystemClock() {
    }

    /** Monotonic nanoseconds: {@link System#nanoTime()}, the clock of Undertow's request start times. */
    public static long nanoTime() {
        return System.nanoTime();
    }

    /** Wall-clock milliseconds since the epoch: {@link System#currentTimeMillis()}. */
    public static long currentTimeMillis() {
        return System.currentTimeMillis();
    }
}
