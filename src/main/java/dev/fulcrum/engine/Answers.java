package dev.fulcrum.engine;

import java.util.concurrent.atomic.LongAdder;

/**
 * The requests the proxy answered, as their clients saw them: each once however many attempts it took, and how many
 * of those answers were errors (a status of 500 or more: a backend's 5xx passed on, or the proxy's own 502, 503,
 * 504). {@link BackendStats} counts attempts instead, so a GET refused by one backend and answered 200 by the next is
 * one attempt failed there, one succeeded here, and here one request answered, no error. Counted by the proxy's I/O
 * threads without locks (as {@code fulcrum_requests_total} is), rolled up once a second by the control thread into
 * rates; from 0 when the engine starts.
 *
 * <p>Example: 20 GETs, 19 of them first sent to a backend that refuses connections and then retried to one that
 * answers: {@link #total()} 20, {@link #errors()} 0 (the backends' attempts: 39, 19 failed).
 */
public final class Answers {
    /** The lowest status counted as an error. */
    public static final int FIRST_ERROR_STATUS = 500;

    private final LongAdder total = new LongAdder();
    private final LongAdder errors = new LongAdder();

    // owned by the control thread
    private long lastTotal;
    private long lastErrors;
    private long lastRollNanos = Long.MIN_VALUE;

    // published to readers
    private volatile double rps;
    private volatile double errorRps;

    /** One request answered with {@code status} (any thread; no lock, no allocation). */
    public void answered(int status) {
        total.increment();
        if (status >= FIRST_ERROR_STATUS) {
            errors.increment();
        }
    }

    /** Control thread, about once a second: the rates since the last roll. */
    void roll(long nowNanos) {
        long t = total.sum();
        long e = errors.sum();
        if (lastRollNanos != Long.MIN_VALUE) {
            double secs = Math.max(1e-3, (nowNanos - lastRollNanos) / 1e9);
            rps = (t - lastTotal) / secs;
            errorRps = (e - lastErrors) / secs;
        }
        lastTotal = t;
        lastErrors = e;
        lastRollNanos = nowNanos;
    }

    public long total() {
        return total.sum();
    }

    public long errors() {
        return errors.sum();
    }

    /** Requests answered per second, over the last second rolled up. */
    public double rps() {
        return rps;
    }

    /** Errors answered per second, over the last second rolled up. */
    public double errorRps() {
        return errorRps;
    }
}
