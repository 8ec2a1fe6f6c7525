package dev.fulcrum.health;

import dev.fulcrum.engine.Ticker;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** A ticker tests move by hand. */
final class MutableTicker implements Ticker {
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    @Override
    public long nanos() {
        return nanos.get();
    }

    @Override
    public long wallMillis() {
        return TimeUnit.NANOSECONDS.toMillis(nanos.get());
    }

    void advanceMillis(long ms) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
    }
}
