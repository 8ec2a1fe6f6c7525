package dev.fulcrum.engine.routing;

import dev.fulcrum.engine.strategy.RandomSource;
import java.util.concurrent.atomic.LongAdder;

/**
 * A route's mirror ({@code routes[i].mirror}, docs/REFERENCE.md §2.1): a copy of {@code percent} of its requests goes
 * to {@code pool}, whose answer is read and thrown away. The client never waits for it and never sees its errors; a
 * copy is never retried and never sent twice. A body of more than {@code maxBodyBytes} is not mirrored. The counters
 * are the mirror's own, apart from the requests clients made.
 */
public final class Mirror {
    private final String pool;
    private final double percent;
    private final int maxBodyBytes;
    /** Copies sent and answered, by the answer's class: index 1-5 for 1xx-5xx, 0 for no answer (a failure). */
    private final LongAdder[] answered = new LongAdder[6];
    private final LongAdder tooLarge = new LongAdder();
    /** Copies that found no backend of the mirror pool, or too many copies in flight already. */
    private final LongAdder dropped = new LongAdder();

    public Mirror(String pool, double percent, int maxBodyBytes) {
        this.pool = pool;
        this.percent = percent;
        this.maxBodyBytes = maxBodyBytes;
        for (int i = 0; i < answered.length; i++) {
            answered[i] = new LongAdder();
        }
    }

    public String pool() {
        return pool;
    }

    public double percent() {
        return percent;
    }

    public int maxBodyBytes() {
        return maxBodyBytes;
    }

    /** Whether this request is one of the share to copy. */
    public boolean sampled(RandomSource random) {
        return percent >= 100 || percent > 0 && random.nextDouble() * 100 < percent;
    }

    /** A copy was answered with {@code status}, or failed without an answer (0). */
    public void answered(int status) {
        answered[status >= 100 && status < 600 ? status / 100 : 0].increment();
    }

    public void tooLarge() {
        tooLarge.increment();
    }

    public void dropped() {
        dropped.increment();
    }

    /** Copies answered with a status of class {@code statusClass} (1-5: 1xx-5xx), or failed without an answer (0). */
    public long answeredIn(int statusClass) {
        return answered[statusClass].sum();
    }

    /** The counters now. */
    public Counts counts() {
        long sent = 0;
        for (LongAdder a : answered) {
            sent += a.sum();
        }
        return new Counts(sent, answered[5].sum() + answered[0].sum(), answered[0].sum(), tooLarge.sum(),
                dropped.sum());
    }

    /**
     * @param sent     copies sent (answered or failed)
     * @param errors   copies answered 5xx or failed without an answer
     * @param failed   copies without an answer (connection refused, reset, timed out)
     * @param tooLarge requests not copied: their body was over {@code maxBodyBytes}
     * @param dropped  requests not copied: no backend of the mirror pool could take one
     */
    public record Counts(long sent, long errors, long failed, long tooLarge, long dropped) {
        public static final Counts NONE = new Counts(0, 0, 0, 0, 0);

        public Counts plus(Counts o) {
            return new Counts(sent + o.sent, errors + o.errors, failed + o.failed, tooLarge + o.tooLarge,
                    dropped + o.dropped);
        }
    }
}
