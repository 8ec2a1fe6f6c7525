package dev.fulcrum.engine;

/**
 * The engine's only source of time. Production uses {@link #system()}; tests use a fake ticker they
 * advance by hand, so breaker, slow-start, ejection and EWMA tests never sleep.
 */
public interface Ticker {
    /** Monotonic nanoseconds, for durations and deadlines. */
    long nanos();

    /** Wall-clock milliseconds since the epoch, for event timestamps. */
    long wallMillis();

    static Ticker system() {
        return SystemTicker.INSTANCE;
    }

    enum SystemTicker implements Ticker {
        INSTANCE;

        @Override
        public long nanos() {
            return System.nanoTime();
        }

        @Override
        public long wallMillis() {
            return System.currentTimeMillis();
        }
    }
}
