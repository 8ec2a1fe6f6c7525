package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.engine.routing.ClassCeiling;
import dev.fulcrum.engine.routing.RouteStrategy;
import dev.fulcrum.engine.strategy.Strategy;
import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.strategy.Eligibility;
import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.engine.strategy.StrategyEnv;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * One named pool of backends with its own strategy, as the request path uses it: {@link #pick} and
 * {@link #tryLease} take a backend's in-flight slot, and the {@link Lease} gives it back.
 *
 * <p>Threading: {@link #pick} and {@link #tryLease} run on request threads; they read the {@link PoolSnapshot}
 * from one volatile field once per call and take no lock. The control thread owns everything else
 * ({@link PoolControl}: membership, weights, health, ejection, breaker deadlines, slow start, drain) and
 * publishes each new snapshot through that field. A finished request that gives the control thread work (an
 * outlier to eject, a drain emptied) hands it over through {@link Engine#execute} without waiting.
 */
public final class Pool {
    private static final int PICK_ATTEMPTS = 4;

    private final Engine engine;
    private final String name;
    private final LongAdder inFlight = new LongAdder();
    private final PoolControl control;
    /** What this pool's strategies, and a route's own strategy over it, are given. */
    private final StrategyEnv env;
    private volatile PoolSnapshot snapshot;
    /** Plugin failures by the plugin strategy's name (docs/REFERENCE.md §4, /metrics and /api/state). */
    private final java.util.concurrent.ConcurrentHashMap<String, LongAdder> pluginFailures =
            new java.util.concurrent.ConcurrentHashMap<>();
    private volatile Guard guard = new Guard(StrategySpec.of(StrategySpec.ROUND_ROBIN),
            SnapshotBuilder.DEFAULT_PLUGIN_BUDGET_MS, null);

    /** What the control thread last published of the plugin guard, for readers on any thread. */
    private record Guard(StrategySpec fallback, long budgetMs, String failure) {
    }

    Pool(Engine engine, String name, StrategySpec spec) {
        this.engine = engine;
        this.name = name;
        this.env = new StrategyEnv(engine.ticker(), engine.random(), inFlight);
        this.control = new PoolControl(this, engine, spec, env);
        control.rebuild();
    }

    public String name() {
        return name;
    }

    public PoolSnapshot snapshot() {
        return snapshot;
    }

    public int inFlight() {
        return (int) inFlight.sum();
    }

    /** Picks a backend and takes its in-flight slot, or returns null when none can take the request. */
    public Lease pick(RequestContext request) {
        return pick(request, null);
    }

    /**
     * @param tried backends this request already failed on (retries go elsewhere); null or empty for none
     */
    public Lease pick(RequestContext request, Set<Backend> tried) {
        return pick(request, tried, engine.ticker().nanos());
    }

    /** {@link #pick(RequestContext, Set)} at {@code nowNanos}, a reading of the engine's ticker the caller took. */
    public Lease pick(RequestContext request, Set<Backend> tried, long nowNanos) {
        return pick(request, tried, nowNanos, null, null);
    }

    /**
     * A pick for a route ({@code routes[i]}): with its own strategy over this pool's primaries instead of the pool's
     * (null: the pool's), and under its class ceiling (null: none), which a backend at the ceiling is passed by for
     * and the lease holds a place under until it is released. Null when none can take the request; a route with a
     * ceiling tells a shed from an empty pool by {@link ClassCeiling#admits} on the candidates.
     */
    public Lease pick(RequestContext request, Set<Backend> tried, long nowNanos, RouteStrategy routeStrategy,
                      ClassCeiling ceiling) {
        PoolSnapshot s = snapshot;
        Eligibility eligible = ceiling != null
                ? b -> (tried == null || !tried.contains(b)) && b.admitsAnother() && ceiling.admits(b)
                : tried == null || tried.isEmpty() ? Eligibility.ADMITTING
                : b -> !tried.contains(b) && b.admitsAnother();
        Strategy primary = routeStrategy == null ? s.primary() : routeStrategy.over(s.primaryCandidates(), env);
        // null unless the request's decision is recorded (proxy.logDecisions): then one null check is all it costs
        PickLog log = request.decisions() instanceof PickLog p ? p : null;
        if (log != null) {
            log.considering(primary.type(), s.primaryCandidates(), eligible, false);
        }
        for (int i = 0; i < PICK_ATTEMPTS; i++) {
            Backend b = primary.pick(request, eligible);
            if (b == null && s.backup() != null) {
                if (log != null) {
                    log.considering(s.backup().type(), s.backupCandidates(), eligible, true);
                }
                b = s.backup().pick(request, eligible);
            }
            if (b == null) {
                if (log != null) {
                    log.picked(null);
                }
                return null;
            }
            if (ceiling != null && !ceiling.enter(b)) {
                continue; // another request of the route took the last place on it since the strategy looked
            }
            CircuitBreaker breaker = b.breaker();
            long ticket = b.tryAcquire(breaker);
            if (ticket != CircuitBreaker.REFUSED) {
                inFlight.increment();
                if (log != null) {
                    log.picked(b);
                }
                return new Lease(this, b, nowNanos, breaker, ticket, ceiling);
            }
            if (ceiling != null) {
                ceiling.leave(b);
            }
            // lost a race for its last slot or probe permit, or it is draining (a snapshot older than the
            // drain): pick again. A drain this leaves at 0 in flight is completed by the next tick; handing it to
            // the control thread from here would take the executor's queue lock on the pick path.
        }
        if (log != null) {
            log.picked(null);
        }
        return null;
    }

    /**
     * Leases a named backend if it is a current candidate and can take a request now (sticky sessions);
     * null otherwise, and the caller picks normally.
     */
    public Lease tryLease(String backendId) {
        return tryLease(backendId, null);
    }

    /**
     * {@link #tryLease(String)} for a route with a class ceiling (null: none): null also when the route is at its
     * ceiling on that backend, so a sticky cookie never takes a route past it; the lease holds its place until
     * released.
     */
    public Lease tryLease(String backendId, ClassCeiling ceiling) {
        PoolSnapshot s = snapshot;
        Backend b = find(s.primaryCandidates(), backendId);
        if (b == null && !anyAdmits(s.primaryCandidates())) {
            // a backup serves only while no primary can (as pick decides): a cookie from an outage, or a forged
            // one, does not keep a client on it once a primary is back
            b = find(s.backupCandidates(), backendId);
        }
        if (b == null || !b.admitsAnother()) {
            return null;
        }
        if (ceiling != null && !ceiling.enter(b)) {
            return null;
        }
        CircuitBreaker breaker = b.breaker();
        long ticket = b.tryAcquire(breaker);
        if (ticket == CircuitBreaker.REFUSED) {
            if (ceiling != null) {
                ceiling.leave(b);
            }
            return null;
        }
        inFlight.increment();
        return new Lease(this, b, engine.ticker().nanos(), breaker, ticket, ceiling);
    }

    private static boolean anyAdmits(Candidates c) {
        for (int i = 0; i < c.size(); i++) {
            if (c.get(i).admitsAnother()) {
                return true;
            }
        }
        return false;
    }

    private static Backend find(Candidates c, String id) {
        for (int i = 0; i < c.size(); i++) {
            if (c.get(i).id().equals(id)) {
                return c.get(i);
            }
        }
        return null;
    }

    /** The engine's ticker now. */
    long nanos() {
        return engine.ticker().nanos();
    }

    void release(Lease lease, Outcome outcome, long nowNanos) {
        Backend b = lease.backend();
        long latency = nowNanos - lease.startNanos();
        b.stats().record(outcome, latency);
        CircuitBreaker breaker = lease.breaker();
        if (outcome == Outcome.CLIENT_ABORT) {
            // says nothing about the backend; a HALF_OPEN probe permit goes back
            breaker.releaseUnusedPermission(lease.breakerTicket());
        } else {
            boolean failed = outcome.isBackendFailure();
            breaker.record(failed ? CircuitBreaker.Call.FAILURE
                    : latency >= TimeUnit.MILLISECONDS.toNanos(breaker.spec().slowCallMs()) ? CircuitBreaker.Call.SLOW
                    : CircuitBreaker.Call.SUCCESS, lease.breakerTicket());
            if (outcome != Outcome.CONNECT_FAILURE) {
                b.ewma().observe(latency, nowNanos);
            }
            if (OutlierEjection.countCall(b, failed, engine.settings().outlier())) {
                engine.execute(() -> control.eject(b));
            }
        }
        // the slot goes back last, so whoever sees the in-flight count drop (a drain completing) also sees the
        // request in the statistics, the breaker and outlier detection
        int left = b.releaseSlot();
        inFlight.decrement();
        if (left == 0 && b.draining) {
            engine.execute(control::refresh);
        }
    }

    /** The strategy that takes over from a plugin strategy that fails (a built-in; round robin unless set). */
    public StrategySpec fallback() {
        return guard.fallback();
    }

    /** How long a plugin strategy's picks may take on average over a second, in ms. */
    public long pluginBudgetMs() {
        return guard.budgetMs();
    }

    /** Why the plugin strategy was replaced by the fallback, or null while it was not (or the strategy is a built-in). */
    public String pluginFailure() {
        return guard.failure();
    }

    /** How many times each plugin strategy failed in this pool, by its name; empty when none did. */
    public java.util.Map<String, Long> pluginFailures() {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        pluginFailures.forEach((type, n) -> out.put(type, n.sum()));
        return out;
    }

    void countPluginFailure(String type) {
        pluginFailures.computeIfAbsent(type, t -> new LongAdder()).increment();
    }

    void publishGuard(StrategySpec fallback, long budgetMs, String failure) {
        guard = new Guard(fallback, budgetMs, failure);
    }

    /** The control thread's side of this pool: membership, states, the snapshot it publishes. */
    PoolControl control() {
        return control;
    }

    /** Publishes {@code next} to the request path (control thread). */
    void publishSnapshot(PoolSnapshot next) {
        snapshot = next;
    }
}
