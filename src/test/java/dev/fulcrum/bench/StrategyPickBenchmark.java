package dev.fulcrum.bench;

import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.BackendMetrics;
import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.strategy.Eligibility;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.engine.strategy.Strategy;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.time.Ticker;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One {@code Strategy.pick} per operation, for every docs/REFERENCE.md §2.2 strategy at 10 and 100 backends, through the
 * public engine API (an {@code Engine.manual} pool, its snapshot's strategy, {@link Eligibility#ADMITTING}).
 * The pool is given uneven in-flight counts (leases held from random picks) and, for fastest-response and
 * adaptive, latency samples and metric reports, so the load-aware strategies compare real numbers. Requests
 * cycle through 1024 client IPs so the hashing strategies do not hit one cache line. Randomness is the
 * production thread-local source. {@code score} runs its default formula, which reads cpu, latency and in-flight
 * counts, so its table is rebuilt every millisecond as on a busy proxy. Run with
 * {@code -t 1} and {@code -t 2} and {@code -prof gc} (see bench/jmh.sh).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StrategyPickBenchmark {
    @Param({"round-robin", "random", "weighted-random", "smooth-weighted-round-robin", "least-requests",
            "power-of-two", "consistent-hash", "maglev", "ip-hash", "fastest-response", "adaptive", "score"})
    public String type;

    @Param({"10", "100"})
    public int backends;

    private Strategy strategy;
    private RequestContext[] requests;

    @Setup(Level.Trial)
    public void setUp() {
        Engine engine = Engine.manual(EngineSettings.DEFAULT, Ticker.system(), RandomSource.threadLocal());
        Pool pool = engine.addPool("bench", StrategySpec.of(StrategySpec.RANDOM));
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < backends; i++) {
            // weights 1..5 so the weighted strategies do weighted work (no equal-weight shortcut)
            engine.addBackend("bench", new BackendSpec(String.format("backend-%03d", i),
                    "http://127.0.0.1:" + (20000 + i), 1 + r.nextInt(5), null, false), false);
        }
        RequestContext any = SimpleRequest.get("127.0.0.1", "/");
        for (int i = 0; i < backends * 3; i++) {
            pool.pick(any); // held for the whole run: uneven in-flight counts
        }
        engine.setStrategy("bench", StrategySpec.of(type));
        for (Backend b : pool.snapshot().primaryCandidates().backends()) {
            b.ewma().observe(1_000_000L + r.nextInt(20_000_000));
            b.reportMetrics(new BackendMetrics(r.nextDouble(), r.nextInt(50), 1 + r.nextInt(200), System.nanoTime()));
        }
        strategy = pool.snapshot().primary();
        requests = new RequestContext[1024];
        for (int i = 0; i < requests.length; i++) {
            requests[i] = SimpleRequest.get("10.0." + (i >> 8) + "." + (i & 255), "/");
        }
    }

    @State(Scope.Thread)
    public static class Cursor {
        int next;
    }

    @Benchmark
    public Backend pick(Cursor cursor) {
        RequestContext req = requests[cursor.next++ & 1023];
        return strategy.pick(req, Eligibility.ADMITTING);
    }
}
