package dev.fulcrum.bench;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.strategy.Strategy;
import dev.fulcrum.engine.strategy.StrategyEnv;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.time.Ticker;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Building the key spaces from scratch (no previous strategy to reuse): the consistent-hash ring at 160
 * virtual nodes and the Maglev table at its default 65537 slots, for equal-weight pools of the given size.
 * This is what the control thread pays on a membership or weight change.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class KeySpaceBuildBenchmark {
    @Param({"100", "1000"})
    public int backends;

    private Candidates candidates;
    private StrategyEnv env;
    private final StrategySpec ring = StrategySpec.of(StrategySpec.CONSISTENT_HASH);
    private final StrategySpec maglev = StrategySpec.of(StrategySpec.MAGLEV);

    @Setup
    public void setUp() {
        Engine engine = Engine.manual(EngineSettings.DEFAULT, Ticker.system(), RandomSource.threadLocal());
        Pool pool = engine.addPool("bench", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        for (int i = 0; i < backends; i++) {
            engine.addBackend("bench", new BackendSpec(String.format("backend-%04d", i),
                    "http://127.0.0.1:" + (20000 + i), 1, null, false), false);
        }
        candidates = pool.snapshot().primaryCandidates();
        env = StrategyEnv.of(Ticker.system(), RandomSource.threadLocal());
    }

    @Benchmark
    public Strategy ringBuild() {
        return Strategies.create(ring, candidates, null, env);
    }

    @Benchmark
    public Strategy maglevBuild() {
        return Strategies.create(maglev, candidates, null, env);
    }
}
