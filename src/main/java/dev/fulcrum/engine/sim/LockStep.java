package dev.fulcrum.engine.sim;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.Lease;
import dev.fulcrum.engine.Outcome;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.time.ManualClock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * A recorded trace played through several strategies in lock step, one request at a time, without holding the
 * trace: each request is handed to every strategy's engine pool in turn, then forgotten. Where {@link SideBySide}
 * plays a generated trace it holds whole, this takes a stream of any length (a million log lines) in bounded memory:
 * per strategy, an engine, the requests in flight, a latency histogram and a sample of keys.
 *
 * <p><b>A request</b> arrives at its recorded time on each strategy's own simulated clock (a request that arrived
 * before the last one played, from a log out of order, plays at the clock's time). Completions due by then are
 * released first, in time order, and the engine's control tick runs every 100 ms of simulated time (an idle gap
 * longer than 10 s skips its ticks but those of its last second). The pool picks; the request takes its recorded
 * service time divided by the backend's {@link ReplayBackend#speed} ({@value #DEFAULT_SERVICE_MS} ms when the
 * recording has none), after waiting for a worker if the backend has {@link ReplayBackend#workers}, and holds its
 * in-flight slot until it completes, so least-requests and fastest-response see real in-flight counts and
 * latencies. Every release is a success: a recording's statuses are not replayed as failures.
 *
 * <p><b>Figures</b> ({@link StrategyFigures}): requests per backend, peak in flight, latency percentiles from an
 * HdrHistogram of three significant digits (fixed memory, within 0.1%), and for a hashing strategy the keys moved
 * when each backend leaves: of a sample of the distinct keys it hashed (the {@value #KEY_SAMPLE} with the smallest
 * 64-bit hashes, so the sample is the same whatever the order), the share mapped to another backend by a fresh
 * pool without that backend.
 *
 * <p>Deterministic: each engine's randomness is seeded with the seed, so the same trace gives the same figures.
 * Confined to the calling thread.
 */
public final class LockStep {
    /** The service time of a request whose recording has none: 10 ms (a guess at a quick API call). */
    public static final double DEFAULT_SERVICE_MS = 10;
    /** Distinct keys sampled per hashing strategy for the keys-moved figure. */
    public static final int KEY_SAMPLE = 10_000;
    private static final long IDLE_SKIP_NANOS = 10_000_000_000L;
    private static final long KEEP_TICKS_NANOS = 1_000_000_000L;
    /** Latencies above an hour are recorded as an hour. */
    private static final long HIGHEST_MICROS = 3_600_000_000L;

    private final List<ReplayBackend> backends;
    private final List<Lane> lanes = new ArrayList<>();
    private final EngineSettings settings;
    private final long seed;
    private long lastAt;
    private long offered;
    private long defaulted;
    private long clamped;

    /**
     * @param backends   the simulated backends, at least one, ids distinct
     * @param strategies the strategies, each checked (an invalid one throws when its engine builds it)
     * @param labels     a label per strategy (see {@link #labels})
     * @param seed       seeds every engine's randomness
     */
    public LockStep(List<ReplayBackend> backends, List<StrategySpec> strategies, List<String> labels,
                    EngineSettings settings, long seed) {
        if (backends == null || backends.isEmpty()) {
            throw new IllegalArgumentException("backends: at least one required (got: 0)");
        }
        Set<String> ids = new LinkedHashSet<>();
        for (ReplayBackend b : backends) {
            if (!ids.add(b.id())) {
                throw new IllegalArgumentException("backends: duplicate id (got: " + b.id() + ")");
            }
        }
        if (strategies.isEmpty() || strategies.size() != labels.size()) {
            throw new IllegalArgumentException("strategies: at least one, each with a label (got: " + strategies + ")");
        }
        this.backends = backends.stream().sorted(Comparator.comparing(ReplayBackend::id)).toList();
        this.settings = settings == null ? EngineSettings.DEFAULT : settings;
        this.seed = seed;
        for (int i = 0; i < strategies.size(); i++) {
            lanes.add(new Lane(labels.get(i), strategies.get(i).withDefaults()));
        }
    }

    /** Labels for strategies: the type, or type(settings) when a type appears more than once, unique. */
    public static List<String> labels(List<StrategySpec> strategies) {
        return SideBySide.labels(new SideBySide.Settings(List.of(SimBackend.of("x", 1, 0)), strategies, false, null,
                null, 0));
    }

    /**
     * Plays one request through every strategy.
     *
     * @param atNanos   its arrival, nanoseconds after the trace's start
     * @param request   the request as strategies see it
     * @param serviceMs its recorded service time, NaN when unknown
     */
    public void offer(long atNanos, RecordedRequestContext request, double serviceMs) {
        if (atNanos < lastAt) {
            clamped++;
            atNanos = lastAt;
        }
        lastAt = atNanos;
        offered++;
        if (!(serviceMs >= 0)) {
            serviceMs = DEFAULT_SERVICE_MS;
            defaulted++;
        }
        for (Lane lane : lanes) {
            lane.offer(atNanos, request, serviceMs);
        }
    }

    /** Requests offered so far. */
    public long offered() {
        return offered;
    }

    /** Of those, the ones without a recorded service time, given {@value #DEFAULT_SERVICE_MS} ms. */
    public long defaulted() {
        return defaulted;
    }

    /** Of those, the ones that arrived before the one offered before them, played at its time. */
    public long clamped() {
        return clamped;
    }

    /** Completes every request still in flight and returns each strategy's figures, in the order given. */
    public List<StrategyFigures> finish() {
        List<StrategyFigures> out = new ArrayList<>();
        for (Lane lane : lanes) {
            out.add(lane.finish());
        }
        return out;
    }

    // ---------------------------------------------------------------- one strategy

    private record Completion(long at, long seq, Lease lease) {
    }

    /** Earliest completion first, then the order of picks. */
    private static int sooner(Completion a, Completion b) {
        int c = Long.compare(a.at, b.at);
        return c != 0 ? c : Long.compare(a.seq, b.seq);
    }

    private final class Lane {
        final String label;
        final StrategySpec spec;
        final ManualClock clock = SideBySide.simulatedClock();
        final Engine engine;
        final Pool pool;
        final Map<String, Integer> index = new HashMap<>();
        final long[] counts = new long[backends.size()];
        final int[] peak = new int[backends.size()];
        /** per backend with workers: when each busy worker is free again */
        final List<PriorityQueue<Long>> workers = new ArrayList<>();
        final PriorityQueue<Completion> pending = new PriorityQueue<>(LockStep::sooner);
        final Histogram latency = new Histogram(HIGHEST_MICROS, 3);
        final TreeMap<Long, String> keys = new TreeMap<>();
        long unrouted;
        long seq;
        long nextTick = SideBySide.TICK_NANOS;

        Lane(String label, StrategySpec spec) {
            this.label = label;
            this.spec = spec;
            this.engine = Engine.manual(settings, clock, RandomSource.seeded(seed));
            this.pool = build(engine, spec, backends);
            for (int i = 0; i < backends.size(); i++) {
                index.put(backends.get(i).id(), i);
                workers.add(backends.get(i).workers() > 0 ? new PriorityQueue<>() : null);
            }
        }

        void offer(long at, RecordedRequestContext request, double serviceMs) {
            advance(at);
            clock.moveTo(at);
            request.clearHashed();
            Lease lease = pool.pick(request);
            String hashed = request.hashedKey();
            if (hashed != null) {
                sample(hashed, request.hashedHash());
            }
            if (lease == null) {
                unrouted++;
                return;
            }
            Backend b = lease.backend();
            int i = index.get(b.id());
            counts[i]++;
            peak[i] = Math.max(peak[i], b.inFlight());
            ReplayBackend rb = backends.get(i);
            long service = Math.max(0, Math.round(serviceMs * 1e6 / rb.speed()));
            long start = at;
            PriorityQueue<Long> busy = workers.get(i);
            if (busy != null) {
                if (busy.size() >= rb.workers()) {
                    start = Math.max(at, busy.poll());
                }
                busy.add(start + service);
            }
            long end = start + service;
            latency.recordValue(Math.min(HIGHEST_MICROS, (end - at + 500) / 1000));
            pending.add(new Completion(end, seq++, lease));
        }

        /** Keeps the key when its hash is among the {@value #KEY_SAMPLE} smallest seen (compared unsigned). */
        void sample(String key, long hash) {
            // the strategy's own hash of the key, flipped so that signed order is unsigned order
            long h = hash ^ Long.MIN_VALUE;
            if (keys.size() < KEY_SAMPLE) {
                keys.put(h, key);
            } else if (h < keys.lastKey() && !keys.containsKey(h)) {
                keys.put(h, key);
                keys.pollLastEntry();
            }
        }

        /** Releases completions due by {@code until} and runs the ticks due by then, in time order. */
        void advance(long until) {
            while (true) {
                Completion c = pending.peek();
                long completionAt = c == null ? Long.MAX_VALUE : c.at();
                if (c == null && until != Long.MAX_VALUE && until - nextTick > IDLE_SKIP_NANOS) {
                    // nothing in flight and a long idle gap: its ticks would find nothing to do but the last few
                    long skip = (until - KEEP_TICKS_NANOS - nextTick) / SideBySide.TICK_NANOS;
                    nextTick += skip * SideBySide.TICK_NANOS;
                }
                if (nextTick <= until && nextTick < completionAt && (until != Long.MAX_VALUE || c != null)) {
                    clock.moveTo(nextTick);
                    engine.tick();
                    nextTick += SideBySide.TICK_NANOS;
                    continue;
                }
                if (c == null || completionAt > until) {
                    return;
                }
                pending.poll();
                clock.moveTo(completionAt);
                c.lease().release(Outcome.SUCCESS);
            }
        }

        StrategyFigures finish() {
            advance(Long.MAX_VALUE);
            Map<String, Long> perBackend = new TreeMap<>();
            Map<String, Integer> peaks = new TreeMap<>();
            for (int i = 0; i < backends.size(); i++) {
                perBackend.put(backends.get(i).id(), counts[i]);
                peaks.put(backends.get(i).id(), peak[i]);
            }
            boolean any = latency.getTotalCount() > 0;
            return new StrategyFigures(label, spec, perBackend, unrouted, peaks,
                    any ? latency.getValueAtPercentile(50) / 1000.0 : 0,
                    any ? latency.getValueAtPercentile(99) / 1000.0 : 0,
                    any ? latency.getValueAtPercentile(99.9) / 1000.0 : 0,
                    any ? latency.getMean() / 1000.0 : 0,
                    any ? latency.getMaxValue() / 1000.0 : 0,
                    spec.hashes() && backends.size() > 1 ? keysMoved() : null);
        }

        Map<String, Double> keysMoved() {
            Map<String, Double> out = new LinkedHashMap<>();
            List<String> sample = new ArrayList<>(keys.values());
            if (sample.isEmpty()) {
                return out;
            }
            List<String> before = assign(backends, sample);
            for (ReplayBackend gone : backends) {
                List<String> after = assign(backends.stream().filter(b -> b != gone).toList(), sample);
                int moved = 0;
                for (int k = 0; k < sample.size(); k++) {
                    if (!java.util.Objects.equals(before.get(k), after.get(k))) {
                        moved++;
                    }
                }
                out.put(gone.id(), (double) moved / sample.size());
            }
            return out;
        }

        /** Each key picked once on a fresh pool of {@code over}, nothing in flight: the key to backend map. */
        List<String> assign(List<ReplayBackend> over, List<String> sample) {
            ManualClock c = SideBySide.simulatedClock();
            Engine e = Engine.manual(settings, c, RandomSource.seeded(seed));
            Pool p = build(e, spec, over);
            List<String> out = new ArrayList<>(sample.size());
            for (String k : sample) {
                Lease l = p.pick(new SimRequestContext(k, "GET", ""));
                out.add(l == null ? null : l.backend().id());
                if (l != null) {
                    l.release(Outcome.SUCCESS);
                }
            }
            return out;
        }
    }

    private static Pool build(Engine engine, StrategySpec spec, List<ReplayBackend> backends) {
        Pool pool = engine.addPool(Engine.DEFAULT_POOL, spec);
        int port = 10_001;
        for (ReplayBackend b : backends) {
            // never connected to: the simulator has no sockets; the url only has to be valid
            engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec(b.id(), "http://127.0.0.1:" + port++, b.weight(),
                    null, false, b.labels()), false);
        }
        return pool;
    }
}
