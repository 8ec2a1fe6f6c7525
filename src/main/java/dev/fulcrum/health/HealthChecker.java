package dev.fulcrum.health;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.time.Cancellable;
import dev.fulcrum.time.Scheduler;
import dev.fulcrum.time.Ticker;
import java.net.http.HttpResponse;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Active health checking: every {@code intervalMs}, one {@code GET <url><path>} per backend of the engine,
 * each result handed to {@link Engine#reportProbe}, which applies rise/fall hysteresis (DOWN after
 * {@code fall} failures in a row, UP again after {@code rise} successes).
 *
 * <p>Each round asks the engine for {@link Engine#allBackends()} afresh, so backends added or removed
 * through the admin API are followed. Probes are asynchronous and independent: a slow backend delays no
 * other, and a backend that accepts but never answers costs at most {@code timeoutMs} (see
 * {@link HttpGetter}). A backend's probes overlap only when {@code timeoutMs} is at least {@code intervalMs}
 * (then up to timeout / interval + 1 of them, at most {@code fall}, are out at once, one started per round), so a
 * hung backend still fails one probe per interval. A result counts for the backend that was probed: one removed meanwhile, or
 * replaced by another under the same id, takes no result of its predecessor's probes.
 *
 * <p>A probe succeeds when the backend answers {@code expectedStatus} in time; a refused connection, a
 * timeout or any other status fails it. Example with interval 2000, timeout 1000, fall 3: a backend that
 * crashes between rounds is DOWN after three refused probes, at most about 6 s later; one that hangs is DOWN
 * after at most 3 x 2000 + 1000 ms.
 *
 * <p>Time: rounds, probe deadlines and probe latencies run on the {@link Scheduler} given (its ticker), so a
 * test moves a {@code ManualClock} and sees each round and each timeout happen; a probe's answer still arrives
 * over the real network. {@link ProbeResult#atMillis()} is stamped with the engine's ticker.
 *
 * <p>The last {@value #HISTORY} results per backend are kept for the window's health view ({@link #history}).
 */
public final class HealthChecker implements AutoCloseable {
    public static final int HISTORY = 60;
    private static final Logger log = LoggerFactory.getLogger(HealthChecker.class);

    private final Engine engine;
    private final Scheduler scheduler;
    private final boolean ownsScheduler;
    private final Ticker ticker;
    private final HttpGetter http;
    private final Map<String, History> history = new ConcurrentHashMap<>();
    /** Probes out per backend (by identity: a backend re-added under the same id is another one). */
    private final Map<Backend, Integer> probing = new ConcurrentHashMap<>();
    private volatile HealthCheckSpec spec;
    private volatile boolean closed;
    // guarded by this
    private boolean started;
    private Cancellable rounds;

    /** A checker with a scheduler of its own (thread {@code fulcrum-health}), shut down by {@link #close()}. */
    public HealthChecker(Engine engine, HealthCheckSpec spec) {
        this(engine, spec, Scheduler.daemon("fulcrum-health"), true);
    }

    /** A checker whose rounds run on {@code scheduler}; its owner shuts it down, {@link #close()} does not. */
    public HealthChecker(Engine engine, HealthCheckSpec spec, Scheduler scheduler) {
        this(engine, spec, scheduler, false);
    }

    private HealthChecker(Engine engine, HealthCheckSpec spec, Scheduler scheduler, boolean ownsScheduler) {
        this.engine = engine;
        this.spec = spec;
        this.scheduler = scheduler;
        this.ownsScheduler = ownsScheduler;
        this.ticker = scheduler.ticker();
        this.http = new HttpGetter("fulcrum-health", scheduler);
    }

    /** Starts probing every {@code intervalMs}, the first round at once; does nothing when disabled. */
    public synchronized HealthChecker start() {
        if (closed) {
            throw new IllegalStateException("health checker: closed");
        }
        started = true;
        if (rounds == null && spec.enabled()) {
            rounds = scheduler.scheduleAtFixedRate(this::roundSafely, 0, spec.intervalMs(), TimeUnit.MILLISECONDS);
        }
        return this;
    }

    /** True while probe rounds are scheduled. */
    public synchronized boolean isRunning() {
        return rounds != null;
    }

    public HealthCheckSpec spec() {
        return spec;
    }

    /**
     * New settings (a config reload). A started checker reschedules with them: it stops when they disable
     * checks and resumes when they enable them again.
     */
    public synchronized void setSpec(HealthCheckSpec next) {
        if (next.equals(spec)) {
            return; // a config applied again with the same checks keeps the schedule (a restart probes at once)
        }
        stopRounds();
        this.spec = next;
        if (started && !closed) {
            start();
        }
    }

    /**
     * One round now: probes every backend that has no probe out, and completes when those probes have
     * finished (never exceptionally; failures are results). The scheduler calls it; tests may too.
     */
    public CompletableFuture<Void> probeAll() {
        HealthCheckSpec s = spec;
        // a hung backend must still fail a probe each interval, so DOWN comes within fall x interval + timeout;
        // fall probes out at once are enough for that, and bound the connections a hung backend holds
        int overlap = overlap(s.timeoutMs(), s.intervalMs(), engine.settings().fall());
        List<Backend> backends = engine.allBackends();
        Set<String> ids = new HashSet<>();
        List<CompletableFuture<ProbeResult>> out = new ArrayList<>();
        for (Backend b : backends) {
            ids.add(b.id());
            boolean[] admitted = {false};
            probing.compute(b, (k, n) -> {
                int now = n == null ? 0 : n;
                admitted[0] = now < overlap;
                return admitted[0] ? now + 1 : now;
            });
            if (admitted[0]) {
                out.add(probe(b, s).whenComplete((r, e) -> probing.computeIfPresent(b, (k, n) -> n <= 1 ? null : n - 1)));
            }
        }
        history.keySet().retainAll(ids); // forget removed backends
        return CompletableFuture.allOf(out.toArray(CompletableFuture[]::new));
    }

    /**
     * How many probes of one backend may be out at once: one more than the rounds a probe's timeout spans, at most
     * {@code fall}. The "one more" is for a timeout equal to the interval (or a multiple of it): the probe is then
     * still out when the next round comes, and that round must probe the backend again, or a hung backend would be
     * probed every other round and go DOWN late (interval = timeout = 400, fall 3: due by 1.6 s).
     */
    static int overlap(long timeoutMs, long intervalMs, int fall) {
        return (int) Math.max(1, Math.min(fall, timeoutMs / intervalMs + 1));
    }

    private CompletableFuture<ProbeResult> probe(Backend b, HealthCheckSpec s) {
        long at = engine.ticker().wallMillis();
        long t0 = ticker.nanos();
        return http.get(HttpGetter.resolve(b.url(), s.path()), s.timeoutMs(), HttpResponse.BodyHandlers.discarding())
                .handle((response, error) -> {
                    double ms = (ticker.nanos() - t0) / 1e6;
                    ProbeResult r;
                    if (error != null) {
                        r = new ProbeResult(at, false, ms, null, HttpGetter.describe(error, s.timeoutMs()));
                    } else if (response.statusCode() == s.expectedStatus()) {
                        r = new ProbeResult(at, true, ms, response.statusCode(), null);
                    } else {
                        r = new ProbeResult(at, false, ms, response.statusCode(),
                                "expected status " + s.expectedStatus() + " (got: " + response.statusCode() + ")");
                    }
                    if (!closed && stillMember(b)) {
                        record(b, r);
                        engine.reportProbe(b, r.ok());
                    }
                    return r;
                });
    }

    private boolean stillMember(Backend b) {
        try {
            return engine.backend(b.id()) == b;
        } catch (RuntimeException engineClosing) {
            return false;
        }
    }

    /** The results of one backend (not of an earlier one with the same id). */
    private record History(Backend owner, ArrayDeque<ProbeResult> results) {
    }

    private void record(Backend b, ProbeResult r) {
        History h = history.compute(b.id(), (k, old) -> old != null && old.owner() == b ? old
                : new History(b, new ArrayDeque<>(HISTORY)));
        synchronized (h) {
            if (h.results().size() == HISTORY) {
                h.results().removeFirst();
            }
            h.results().addLast(r);
        }
    }

    /** The recent probe results of a backend, oldest first (at most {@value #HISTORY}); empty if none. */
    public List<ProbeResult> history(String id) {
        History h = history.get(id);
        if (h == null) {
            return List.of();
        }
        synchronized (h) {
            return List.copyOf(h.results());
        }
    }

    private void roundSafely() {
        try {
            probeAll();
        } catch (RuntimeException e) {
            // an engine mid-shutdown or a bad URL must not end the schedule
            log.warn("health probe round failed: {}", e.toString());
        }
    }

    /** Probes of this very backend out now (tests wait for 0 to know a round's results are in). */
    int probesOut(Backend b) {
        return probing.getOrDefault(b, 0);
    }

    private void stopRounds() {
        if (rounds != null) {
            rounds.cancel();
            rounds = null;
        }
    }

    /** Stops probing; results of probes still out are dropped. */
    @Override
    public synchronized void close() {
        closed = true;
        stopRounds();
        if (ownsScheduler) {
            scheduler.shutdown();
        }
    }
}
