package dev.fulcrum.engine.strategy;

import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;

/** Randomness for strategies: thread-local in production, one seeded sequence in tests. */
public interface RandomSource {
    /** Uniform in [0, bound). */
    int nextInt(int bound);

    /** Uniform in [0, bound). */
    long nextLong(long bound);

    /** Uniform in [0, 1). */
    double nextDouble();

    static RandomSource threadLocal() {
        return ThreadLocal.INSTANCE;
    }

    /** A deterministic source for tests and side-by-side simulation (synchronized: one sequence). */
    static RandomSource seeded(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return new RandomSource() {
            @Override
            public synchronized int nextInt(int bound) {
                return r.nextInt(bound);
            }

            @Override
            public synchronized long nextLong(long bound) {
                return r.nextLong(bound);
            }

            @Override
            public synchronized double nextDouble() {
                return r.nextDouble();
            }
        };
    }

    enum ThreadLocal implements RandomSource {
        INSTANCE;

        @Override
        public int nextInt(int bound) {
            return ThreadLocalRandom.current().nextInt(bound);
        }

        @Override
        public long nextLong(long bound) {
            return ThreadLocalRandom.current().nextLong(bound);
        }

        @Override
        public double nextDouble() {
            return ThreadLocalRandom.current().nextDouble();
        }
    }
}
