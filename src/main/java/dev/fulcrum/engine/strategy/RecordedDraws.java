package dev.fulcrum.engine.strategy;

/**
 * The strategy's randomness, each draw also written to the request's {@link DecisionLog} as a fraction of its range
 * ({@code nextInt(4)} giving 1 is the draw 0.25, {@code nextLong(7)} giving 5 is 0.714...), so a recorded draw reads
 * the same whatever the strategy scaled it to. Made for a pick only when its decision is recorded; otherwise the
 * strategy draws from its own source directly.
 */
final class RecordedDraws implements RandomSource {
    private final RandomSource inner;
    private final DecisionLog log;

    private RecordedDraws(RandomSource inner, DecisionLog log) {
        this.inner = inner;
        this.log = log;
    }

    /** {@code random} itself when {@code log} is null (nothing recorded, nothing made); else one that records. */
    static RandomSource of(RandomSource random, DecisionLog log) {
        return log == null ? random : new RecordedDraws(random, log);
    }

    @Override
    public int nextInt(int bound) {
        int v = inner.nextInt(bound);
        log.draw((double) v / bound);
        return v;
    }

    @Override
    public long nextLong(long bound) {
        long v = inner.nextLong(bound);
        log.draw((double) v / bound);
        return v;
    }

    @Override
    public double nextDouble() {
        double v = inner.nextDouble();
        log.draw(v);
        return v;
    }
}
