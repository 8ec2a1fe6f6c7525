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
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;

/**
 * The side-by-side simulator: one seeded request trace through several strategies, each in its own real
 * engine pool, on a simulated clock, with no sockets. It answers "what would each strategy do with this
 * traffic?" in a second, deterministically.
 *
 * <p><b>How a run works.</b> For each strategy a manual {@link Engine} (simulated {@link ManualClock}, randomness
 * seeded with the run's seed) gets one pool with the backends. The trace is played in time order: at each
 * arrival the clock moves there, completions due by then are released first (in time order, the clock set to
 * each completion so the engine measures the simulated latency), the engine's control tick runs every 100 ms
 * of simulated time, and then {@link Pool#pick} leases a backend. The request holds its in-flight slot until
 * its simulated completion ({@code arrival + latency}, see {@link SimBackend}), so least-requests,
 * power-of-two and fastest-response see real in-flight counts and real latencies. A request no backend takes
 * counts as unrouted.
 *
 * <p><b>What is measured</b> (see {@link StrategyResult}): requests per backend and the max/average load
 * ratio, latency percentiles (a slow backend shows in p99), the longest run of consecutive picks of one
 * backend (burstiness: with weights 8,2,1,1 the naive weighted round robin sends runs of 8 to the heavy
 * backend, smooth WRR at most 3; with 5,1,1 it is 5 against 4, where two smooth cycles meet: a a | a a), peak in-flight per backend, and the keys moved when one backend leaves.
 *
 * <p><b>Worked example.</b> Backends a (weight 5), b, c (weight 1), 10 ms each, b ten times slower; 7,000
 * requests at 100 req/s: round robin sends 2,334 / 2,333 / 2,333 and its p99 is b's 100 ms; smooth WRR sends
 * 5,000 / 1,000 / 1,000 with longest run 4, the naive WRR the same counts with longest run 5; least-requests
 * sends b only 571 as its requests pile up there (mean latency 17 ms against round robin's 40 ms).
 *
 * <p>Runs on the calling thread; a view runs it on a background thread, watches {@link Progress}, and cancels
 * by interrupting that thread ({@link CancellationException}).
 */
public final class SideBySide {
    /**
     * Every strategy but {@code adaptive} and {@code score}, which need live metrics the simulator does not produce
     * (the score's default formula reads cpu).
     */
    public static final List<StrategySpec> DEFAULT_STRATEGIES = StrategySpec.TYPES.stream()
            .filter(t -> !t.equals(StrategySpec.ADAPTIVE) && !t.equals(StrategySpec.SCORE))
            .map(StrategySpec::of).toList();
    /** The simulated wall time at time zero: 2024-01-01T00:00:00Z (a fixed value keeps runs reproducible). */
    public static final long SIMULATED_EPOCH_MILLIS = 1_704_067_200_000L;

    /**
     * The simulated clock: it moves only when the simulator moves it, so an engine driven by it measures
     * simulated latencies (EWMA, breaker slow calls, stats) and the same trace always gives the same result.
     */
    public static ManualClock simulatedClock() {
        return new ManualClock(1_000_000_000L, SIMULATED_EPOCH_MILLIS);
    }
    static final long TICK_NANOS = 100_000_000L;
    private static final int PROGRESS_EVERY = 1000;

    private SideBySide() {
    }

    /**
     * @param backends                the pool, at least one
     * @param strategies              engine strategies to compare (each runs in its own engine)
     * @param naiveWeightedRoundRobin also run the naive expanded WRR as a comparison
     * @param removeOnChange          backend removed for the keys-moved measure; null for none
     * @param engine                  breaker, outlier and slow-start settings of every simulated engine
     * @param seed                    seeds the engines' randomness and the latency jitter
     */
    public record Settings(List<SimBackend> backends, List<StrategySpec> strategies, boolean naiveWeightedRoundRobin,
                           String removeOnChange, EngineSettings engine, long seed) {
        public Settings {
            if (backends == null || backends.isEmpty()) {
                throw new IllegalArgumentException("backends: at least one required (got: " + backends + ")");
            }
            backends = List.copyOf(backends);
            Set<String> ids = new LinkedHashSet<>();
            for (SimBackend b : backends) {
                if (!ids.add(b.id())) {
                    throw new IllegalArgumentException("backends: duplicate id (got: " + b.id() + ")");
                }
            }
            strategies = strategies == null ? List.of() : List.copyOf(strategies);
            if (strategies.isEmpty() && !naiveWeightedRoundRobin) {
                throw new IllegalArgumentException("strategies: at least one required (got: [])");
            }
            if (removeOnChange != null && !ids.contains(removeOnChange)) {
                throw new IllegalArgumentException("removeOnChange: no such backend (got: " + removeOnChange + ")");
            }
            engine = engine == null ? EngineSettings.DEFAULT : engine;
        }

        /** Every default strategy plus the naive WRR, removing the last backend (by id) for the keys-moved measure. */
        public static Settings of(List<SimBackend> backends) {
            String last = backends.stream().map(SimBackend::id).max(Comparator.naturalOrder()).orElse(null);
            return new Settings(backends, DEFAULT_STRATEGIES, true, backends.size() > 1 ? last : null,
                    EngineSettings.DEFAULT, 1);
        }

        public Settings withStrategies(List<StrategySpec> s) {
            return new Settings(backends, s, naiveWeightedRoundRobin, removeOnChange, engine, seed);
        }

        public Settings withNaiveWeightedRoundRobin(boolean on) {
            return new Settings(backends, strategies, on, removeOnChange, engine, seed);
        }

        public Settings withRemoveOnChange(String id) {
            return new Settings(backends, strategies, naiveWeightedRoundRobin, id, engine, seed);
        }

        public Settings withEngine(EngineSettings e) {
            return new Settings(backends, strategies, naiveWeightedRoundRobin, removeOnChange, e, seed);
        }

        public Settings withSeed(long s) {
            return new Settings(backends, strategies, naiveWeightedRoundRobin, removeOnChange, engine, s);
        }

        /** These settings with backend {@code id} slowed down by {@code factor} (the slow-backend option). */
        public Settings withSlowBackend(String id, double factor) {
            List<SimBackend> next = new ArrayList<>();
            boolean found = false;
            for (SimBackend b : backends) {
                found |= b.id().equals(id);
                next.add(b.id().equals(id) ? b.slowedBy(factor) : b);
            }
            if (!found) {
                throw new IllegalArgumentException("slowBackend: no such backend (got: " + id + ")");
            }
            return new Settings(next, strategies, naiveWeightedRoundRobin, removeOnChange, engine, seed);
        }
    }

    /**
     * Where a run is.
     *
     * @param strategy  the strategy being simulated
     * @param lane      its index, 0-based
     * @param lanes     strategies in the run
     * @param done      requests of this strategy simulated so far
     * @param requests  requests in the trace
     */
    public record Progress(String strategy, int lane, int lanes, long done, long requests) {
        /** Overall fraction done, 0..1. */
        public double fraction() {
            return lanes == 0 ? 1 : (lane + (requests == 0 ? 1.0 : (double) done / requests)) / lanes;
        }
    }

    public static SideBySideReport run(Settings settings, List<SimRequest> trace) {
        return run(settings, trace, p -> { });
    }

    /**
     * Simulates the trace through every strategy of the settings.
     *
     * @param trace    requests, any order (played sorted by arrival, ties in list order)
     * @param progress told at the start of each strategy and every 1,000 requests (on the calling thread)
     * @throws CancellationException when the calling thread is interrupted
     */
    public static SideBySideReport run(Settings settings, List<SimRequest> trace, Consumer<Progress> progress) {
        if (trace == null || trace.isEmpty()) {
            throw new IllegalArgumentException("trace: at least one request required (got: 0)");
        }
        List<SimRequest> sorted = new ArrayList<>(trace);
        sorted.sort(Comparator.comparingLong(SimRequest::atNanos)); // stable: ties keep their order
        List<String> labels = labels(settings);
        int lanes = labels.size();
        List<StrategyResult> results = new ArrayList<>(lanes);
        List<String> distinctKeys = new ArrayList<>(new LinkedHashSet<>(sorted.stream().map(SimRequest::key).toList()));
        for (int i = 0; i < lanes; i++) {
            String label = labels.get(i);
            boolean naive = i >= settings.strategies().size();
            StrategySpec spec = naive ? null : settings.strategies().get(i);
            progress.accept(new Progress(label, i, lanes, 0, sorted.size()));
            Lane lane = naive ? new NaiveLane(settings.backends()) : new EngineLane(settings, spec, settings.backends());
            results.add(simulate(label, lane, settings, sorted, i, lanes, progress));
            results.set(i, withKeysMoved(results.get(i), settings, spec, distinctKeys));
        }
        List<String> ids = settings.backends().stream().map(SimBackend::id).sorted().toList();
        Double ideal = null;
        if (settings.removeOnChange() != null) {
            long total = settings.backends().stream().mapToLong(SimBackend::weight).sum();
            long removed = settings.backends().stream().filter(b -> b.id().equals(settings.removeOnChange()))
                    .mapToLong(SimBackend::weight).sum();
            ideal = total == 0 ? 0.0 : (double) removed / total;
        }
        return new SideBySideReport(settings.seed(), sorted.size(), ids, settings.removeOnChange(), ideal, results);
    }

    /** Strategy labels: the type, or type(parameters) when a type appears twice, then the naive WRR. */
    static List<String> labels(Settings s) {
        Map<String, Integer> count = new HashMap<>();
        s.strategies().forEach(x -> count.merge(x.type(), 1, Integer::sum));
        List<String> out = new ArrayList<>();
        Set<String> used = new LinkedHashSet<>();
        for (StrategySpec x : s.strategies()) {
            String label = x.type();
            if (count.get(x.type()) > 1) {
                StrategySpec d = x.withDefaults();
                List<String> params = new ArrayList<>();
                if (d.key() != null) {
                    params.add("key=" + d.key());
                }
                new TreeMap<>(d.options()).forEach((name, value) -> {
                    if (!name.equals("key")) {
                        params.add(name + "=" + value);
                    }
                });
                label += "(" + String.join(" ", params) + ")";
            }
            String unique = label;
            for (int n = 2; !used.add(unique); n++) {
                unique = label + "#" + n;
            }
            out.add(unique);
        }
        if (s.naiveWeightedRoundRobin()) {
            out.add(NaiveWeightedRoundRobin.NAME);
        }
        return out;
    }

    // ---------------------------------------------------------------- one strategy

    private record Completion(long at, long seq, Object held) {
    }

    private static StrategyResult simulate(String label, Lane lane, Settings settings, List<SimRequest> trace,
                                           int laneIndex, int lanes, Consumer<Progress> progress) {
        Map<String, SimBackend> byId = new HashMap<>();
        settings.backends().forEach(b -> byId.put(b.id(), b));
        Map<String, Long> counts = new TreeMap<>();
        Map<String, Integer> peak = new TreeMap<>();
        for (SimBackend b : settings.backends()) {
            counts.put(b.id(), 0L);
            peak.put(b.id(), 0);
        }
        PriorityQueue<Completion> pending = new PriorityQueue<>(
                Comparator.comparingLong(Completion::at).thenComparingLong(Completion::seq));
        long[] latencies = new long[trace.size()];
        int answered = 0;
        long unrouted = 0;
        long nextTick = TICK_NANOS;
        String runBackend = null;
        int run = 0;
        int longest = 0;
        String longestBackend = null;
        for (int i = 0; i < trace.size(); i++) {
            if (i % PROGRESS_EVERY == 0) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new CancellationException("side-by-side run interrupted");
                }
                if (i > 0) {
                    progress.accept(new Progress(label, laneIndex, lanes, i, trace.size()));
                }
            }
            SimRequest r = trace.get(i);
            nextTick = advance(lane, pending, r.atNanos(), nextTick);
            lane.clock().moveTo(r.atNanos());
            Picked p = lane.pick(new SimRequestContext(r.key(), r.method()));
            if (p == null) {
                unrouted++;
                runBackend = null;
                run = 0;
                continue;
            }
            String id = p.backend();
            counts.merge(id, 1L, Long::sum);
            peak.merge(id, p.inFlightAfter(), Math::max);
            long latency = latencyNanos(settings.seed(), i, byId.get(id), p.inFlightAfter() - 1);
            latencies[answered++] = latency;
            pending.add(new Completion(r.atNanos() + latency, i, p.held()));
            if (id.equals(runBackend)) {
                run++;
            } else {
                runBackend = id;
                run = 1;
            }
            if (run > longest) {
                longest = run;
                longestBackend = id;
            }
        }
        advance(lane, pending, Long.MAX_VALUE, Long.MAX_VALUE);
        progress.accept(new Progress(label, laneIndex, lanes, trace.size(), trace.size()));

        long[] lat = Arrays.copyOf(latencies, answered);
        Arrays.sort(lat);
        double mean = 0;
        for (long l : lat) {
            mean += l;
        }
        mean = answered == 0 ? 0 : mean / answered / 1e6;
        return new StrategyResult(label, counts, unrouted, maxAvg(counts, null), maxAvg(counts, settings.backends()),
                percentileMs(lat, 50), percentileMs(lat, 99), mean, longest, longestBackend, peak, null, null, "N/A");
    }

    /** Releases completions due by {@code until} and runs the ticks due by then, in time order. */
    private static long advance(Lane lane, PriorityQueue<Completion> pending, long until, long nextTick) {
        while (true) {
            Completion c = pending.peek();
            long completionAt = c == null ? Long.MAX_VALUE : c.at();
            // a tick strictly before the next completion runs first; at the end (until = MAX) ticks run only
            // while something is still in flight
            if (lane.ticks() && nextTick <= until && nextTick < completionAt && (until != Long.MAX_VALUE || c != null)) {
                lane.clock().moveTo(nextTick);
                lane.tick();
                nextTick += TICK_NANOS;
                continue;
            }
            if (c == null || completionAt > until) {
                return nextTick;
            }
            pending.poll();
            lane.clock().moveTo(completionAt);
            lane.release(c.held());
        }
    }

    /** Base + jitter drawn from (seed, request, backend) + the queue penalty for the requests ahead of it. */
    static long latencyNanos(long seed, int request, SimBackend b, int ahead) {
        double u = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + request * 0xBF58476D1CE4E5B9L
                + b.id().hashCode()).nextDouble();
        double ms = b.baseLatencyMs() + u * b.jitterMs() + Math.max(0, ahead) * b.queuePenaltyMs();
        return Math.max(0, Math.round(ms * 1e6));
    }

    /** Nearest-rank percentile of a sorted array, in ms. */
    static double percentileMs(long[] sorted, double pct) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(pct / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1e6;
    }

    /** Max over mean of requests (or of requests per unit of weight, over backends with a weight). */
    static double maxAvg(Map<String, Long> counts, List<SimBackend> weights) {
        double max = 0;
        double sum = 0;
        int n = 0;
        if (weights == null) {
            for (long c : counts.values()) {
                max = Math.max(max, c);
                sum += c;
                n++;
            }
            return sum == 0 ? 0 : max / (sum / n);
        }
        long totalWeight = 0;
        for (SimBackend b : weights) {
            if (b.weight() > 0) {
                double perWeight = (double) counts.getOrDefault(b.id(), 0L) / b.weight();
                max = Math.max(max, perWeight);
                sum += counts.getOrDefault(b.id(), 0L);
                totalWeight += b.weight();
            }
        }
        return sum == 0 ? 0 : max / (sum / totalWeight);
    }

    // ---------------------------------------------------------------- keys moved

    private static StrategyResult withKeysMoved(StrategyResult r, Settings settings, StrategySpec spec,
                                                List<String> keys) {
        String removed = settings.removeOnChange();
        if (removed == null) {
            return r;
        }
        List<SimBackend> after = settings.backends().stream().filter(b -> !b.id().equals(removed)).toList();
        Map<String, String> before = assign(settings, spec, settings.backends(), keys);
        Map<String, String> then = assign(settings, spec, after, keys);
        int moved = 0;
        int needless = 0;
        for (String k : keys) {
            String a = before.get(k);
            String b = then.get(k);
            if (a == null ? b != null : !a.equals(b)) {
                moved++;
                if (a != null && !a.equals(removed)) {
                    needless++;
                }
            }
        }
        boolean hashing = spec != null && spec.hashes();
        double n = keys.size();
        return new StrategyResult(r.strategy(), r.requestsPerBackend(), r.unrouted(), r.maxAvgLoadRatio(),
                r.maxAvgWeightedRatio(), r.p50Ms(), r.p99Ms(), r.meanMs(), r.longestRun(), r.longestRunBackend(),
                r.peakInFlight(), moved / n, needless / n, hashing ? "key-map" : "replay");
    }

    /**
     * Each distinct key picked once, in order, on a fresh strategy over {@code backends}, its lease released at
     * once (nothing in flight): for hashing strategies this is exactly the key to backend map.
     */
    private static Map<String, String> assign(Settings settings, StrategySpec spec, List<SimBackend> backends,
                                              List<String> keys) {
        Lane lane = spec == null ? new NaiveLane(backends) : new EngineLane(settings, spec, backends);
        Map<String, String> out = new HashMap<>();
        for (String k : keys) {
            Picked p = lane.pick(new SimRequestContext(k, "GET"));
            out.put(k, p == null ? null : p.backend());
            if (p != null) {
                lane.release(p.held());
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- lanes

    private record Picked(String backend, int inFlightAfter, Object held) {
    }

    /** One strategy under simulation: picks hold a slot until released. */
    private interface Lane {
        ManualClock clock();

        Picked pick(SimRequestContext request);

        void release(Object held);

        boolean ticks();

        void tick();
    }

    /** A real engine pool with the strategy. */
    private static final class EngineLane implements Lane {
        private final ManualClock clock = simulatedClock();
        private final Engine engine;
        private final Pool pool;

        EngineLane(Settings settings, StrategySpec spec, List<SimBackend> backends) {
            engine = Engine.manual(settings.engine(), clock, RandomSource.seeded(settings.seed()));
            pool = engine.addPool(Engine.DEFAULT_POOL, spec);
            int port = 10_001;
            List<SimBackend> sorted = new ArrayList<>(backends);
            sorted.sort(Comparator.comparing(SimBackend::id));
            for (SimBackend b : sorted) {
                // never connected to: the simulator has no sockets; the url only has to be valid
                engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec(b.id(), "http://127.0.0.1:" + port++,
                        b.weight(), null, false), false);
            }
        }

        @Override
        public ManualClock clock() {
            return clock;
        }

        @Override
        public Picked pick(SimRequestContext request) {
            Lease lease = pool.pick(request);
            if (lease == null) {
                return null;
            }
            Backend b = lease.backend();
            return new Picked(b.id(), b.inFlight(), lease);
        }

        @Override
        public void release(Object held) {
            ((Lease) held).release(Outcome.SUCCESS);
        }

        @Override
        public boolean ticks() {
            return true;
        }

        @Override
        public void tick() {
            engine.tick();
        }
    }

    /** The naive expanded WRR with its own in-flight counts. */
    private static final class NaiveLane implements Lane {
        private final ManualClock clock = simulatedClock();
        private final NaiveWeightedRoundRobin wrr;
        private final Map<String, Integer> inFlight = new LinkedHashMap<>();

        NaiveLane(List<SimBackend> backends) {
            wrr = new NaiveWeightedRoundRobin(backends);
        }

        @Override
        public ManualClock clock() {
            return clock;
        }

        @Override
        public Picked pick(SimRequestContext request) {
            String id = wrr.pick();
            if (id == null) {
                return null;
            }
            int n = inFlight.merge(id, 1, Integer::sum);
            return new Picked(id, n, id);
        }

        @Override
        public void release(Object held) {
            inFlight.merge((String) held, -1, Integer::sum);
        }

        @Override
        public boolean ticks() {
            return false;
        }

        @Override
        public void tick() {
        }
    }
}
