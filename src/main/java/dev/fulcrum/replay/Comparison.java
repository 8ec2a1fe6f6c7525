package dev.fulcrum.replay;

import dev.fulcrum.config.BackendConfig;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.sim.LockStep;
import dev.fulcrum.engine.sim.RecordedRequestContext;
import dev.fulcrum.engine.sim.ReplayBackend;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.DoubleConsumer;

/**
 * The side by side over a recording (docs/REFERENCE.md §6): every request at its recorded arrival time through each
 * strategy in lock step ({@link LockStep}) against the same simulated backends, streamed: the recording is read as it
 * plays, in arrival order ({@link ArrivalOrder}), so memory does not grow with its length.
 *
 * <p>Runs on the calling thread; a view runs it on a background thread, shows {@code progress} (the share of the
 * file read) and cancels by interrupting that thread ({@link CancellationException}).
 */
public final class Comparison {
    /** The seed of every run: fixed, so the same recording and strategies give the same bytes. */
    public static final long SEED = 1;
    /** Backends when neither a config nor a number is given. */
    public static final int DEFAULT_BACKENDS = 3;
    private static final int CHECK_EVERY = 1024;
    /**
     * The simulated engines' settings: the defaults with the circuit breaker and outlier detection off, so the
     * figures are the strategy's alone (a backend slow enough to trip a breaker would otherwise leave every
     * strategy's rotation, and round robin's shares would not be equal).
     */
    public static final EngineSettings ENGINE = EngineSettings.DEFAULT.withBreaker(BreakerSpec.DISABLED)
            .withOutlier(EngineSettings.OutlierSpec.DISABLED);

    private Comparison() {
    }

    /**
     * The simulated backends of a config: its default pool's {@code backends} and {@code demoBackends}, with their
     * weights and labels ({@code speed}, {@code workers}: see {@link ReplayBackend}).
     *
     * @throws IllegalArgumentException naming the backend and label, e.g. {@code backends[1].labels.speed: ...}
     */
    public static List<ReplayBackend> backendsOf(FulcrumConfig cfg) {
        List<ReplayBackend> out = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < cfg.backends().size(); i++) {
            BackendConfig b = cfg.backends().get(i);
            try {
                out.add(ReplayBackend.of(b.toSpec()));
            } catch (IllegalArgumentException e) {
                problems.add("backends[" + i + "]." + e.getMessage());
            }
        }
        for (int i = 0; i < cfg.demoBackends().size(); i++) {
            DemoBackendConfig b = cfg.demoBackends().get(i);
            try {
                out.add(ReplayBackend.of(b.toSpec()));
            } catch (IllegalArgumentException e) {
                problems.add("demoBackends[" + i + "]." + e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("backends: the config's default pool has none to compare on");
        }
        return out;
    }

    /**
     * Plays {@code recording} through {@code strategies} on {@code backends}.
     *
     * @param progress told the share of the file read (0..1) every 1,024 requests, on the calling thread
     * @throws CancellationException when the calling thread is interrupted
     */
    public static ComparisonResult run(Recording recording, List<ReplayBackend> backends,
                                       List<StrategySpec> strategies, DoubleConsumer progress) {
        List<String> labels = LockStep.labels(strategies);
        LockStep step = new LockStep(backends, strategies, labels, ENGINE, SEED);
        ArrivalOrder ordered = new ArrivalOrder(recording);
        long first = Long.MIN_VALUE;
        long n = 0;
        while (ordered.hasNext()) {
            RecordedRequest r = ordered.next();
            if (first == Long.MIN_VALUE) {
                first = r.atMicros();
            }
            RecordedRequestContext ctx = new RecordedRequestContext(r.clientIp(), r.method(), r.target(),
                    r.headers());
            step.offer(Math.max(0, r.atMicros() - first) * 1000, ctx, r.serviceMs());
            if (++n % CHECK_EVERY == 0) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new CancellationException("comparison of " + recording.file() + " cancelled");
                }
                progress.accept(recording.fraction());
            }
        }
        ComparisonResult result = new ComparisonResult(
                recording.file().getFileName() == null ? recording.file().toString()
                        : recording.file().getFileName().toString(),
                recording.format().flag(), recording.entries(), recording.bad(), step.offered(),
                step.clamped(), step.defaulted(), backends, step.finish());
        progress.accept(1.0);
        return result;
    }
}
