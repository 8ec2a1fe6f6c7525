package dev.fulcrum.time;

/**
 * Fulcrum's one source of time. Production reads {@link #system()}; tests and the simulator read a
 * {@link ManualClock} that moves only when they say, so breaker, slow-start, ejection, EWMA, polling and
 * health tests never sleep. Whatever waits for time takes its ticker from a {@link Scheduler}.
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
            return SystemClock.nanoTime();
        }

        @Override
        public long wallMillis() {
            return SystemClock.currentTimeMillis();
        }
    }
}
