package dev.fulcrum.engine;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Ticker} that moves only when a test says so. Breaker, ejection, slow-start and statistics tests
 * advance it instead of sleeping; the wall clock moves with it from a fixed epoch so event timestamps are
 * predictable too. Thread-safe, so multi-threaded tests may share one.
 */
public final class FakeTicker implements Ticker {
    /** 2023-11-14T22:13:20Z: the wall time when the monotonic clock reads {@code startNanos}. */
    public static final long WALL_START_MILLIS = 1_700_000_000_000L;

    private final long startNanos;
    private final AtomicLong nanos;

    /** Starts at an arbitrary non-zero reading, as {@link System#nanoTime()} does. */
    public FakeTicker() {
        this(7_000_000_000L);
    }

    public FakeTicker(long startNanos) {
        this.startNanos = startNanos;
        this.nanos = new AtomicLong(startNanos);
    }

    public FakeTicker advance(Duration d) {
        nanos.addAndGet(d.toNanos());
        return this;
    }

    public FakeTicker advanceMillis(long ms) {
        return advance(Duration.ofMillis(ms));
    }

    @Override
    public long nanos() {
        return nanos.get();
    }

    @Override
    public long wallMillis() {
        return WALL_START_MILLIS + Math.floorDiv(nanos.get() - startNanos, 1_000_000L);
    }
}
