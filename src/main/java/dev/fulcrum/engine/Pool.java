package dev.fulcrum.engine;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * One named pool of backends with its own strategy.
 *
 * <p>Threading: every method that changes membership or state runs on the engine's control thread (the
 * public ones hop there through {@link Engine#call}); it rebuilds an immutable {@link PoolSnapshot} and
 * publishes it through one volatile field. {@link #pick} runs on request threads, reads that field once and
 * takes no lock.
 */
public final class Pool {
    private static final long MAX_EJECTION_NANOS = 300_000_000_000L;
    private static final int PICK_ATTEMPTS = 4;

    private final Engine engine;
    private final String name;
    private final LongAdder inFlight = new LongAdder();
    private final StrategyEnv env;

    // control-thread state
    private final TreeMap<String, Backend> members = new TreeMap<>();
    private StrategySpec spec;
    private Strategy lastPrimary;
    private Strategy lastBackup;
    private boolean ramping;

    private volatile PoolSnapshot snapshot;

    Pool(Engine engine, String name, StrategySpec spec) {
        this.engine = engine;
        this.name = name;
        this.spec = spec.withDefaults();
        this.env = new StrategyEnv(engine.ticker(), engine.random(), inFlight);
        rebuild();
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

    // ---------------------------------------------------------------- request path

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

    /** {@link #pick(RequestContext, Set)} at {@code nowNanos}, a reading of the engine's ticker the caller already took. */
    public Lease pick(RequestContext request, Set<Backend> tried, long nowNanos) {
        PoolSnapshot s = snapshot;
        Eligibility eligible = tried == null || tried.isEmpty() ? Eligibility.ADMITTING
                : b -> !tried.contains(b) && b.admitsAnother();
        for (int i = 0; i < PICK_ATTEMPTS; i++) {
            Backend b = s.primary().pick(request, eligible);
            if (b == null && s.backup() != null) {
                b = s.backup().pick(request, eligible);
            }
            if (b == null) {
                return null;
            }
            CircuitBreaker breaker = b.breaker();
            long ticket = b.tryAcquire(breaker);
            if (ticket != CircuitBreaker.REFUSED) {
                inFlight.increment();
                return new Lease(this, b, nowNanos, breaker, ticket);
            }
            // lost a race for its last slot or probe permit, or it is draining (a snapshot older than the
            // drain): pick again. A drain this leaves at 0 in flight is completed by the next tick; handing it to
            // the control thread from here would take the executor's queue lock on the pick path.
        }
        return null;
    }

    /**
     * Leases a named backend if it is a current candidate and can take a request now (sticky sessions);
     * null otherwise, and the caller picks normally.
     */
    public Lease tryLease(String backendId) {
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
        CircuitBreaker breaker = b.breaker();
        long ticket = b.tryAcquire(breaker);
        if (ticket == CircuitBreaker.REFUSED) {
            return null;
        }
        inFlight.increment();
        return new Lease(this, b, engine.ticker().nanos(), breaker, ticket);
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
            EngineSettings.OutlierSpec o = engine.settings().outlier();
            if (!failed) {
                if (b.consecutiveFailures().get() != 0) { // a read, not a store, on the common path
                    b.consecutiveFailures().set(0);
                }
            } else if (o.enabled() && b.consecutiveFailures().incrementAndGet() >= o.consecutiveFailures()) {
                // eject() resets the count whatever it decides, so the next run of failures can reach the
                // threshold again; >= rather than == so a threshold lowered at run time still applies
                engine.execute(() -> eject(b));
            }
        }
        // the slot goes back last, so whoever sees the in-flight count drop (a drain completing) also sees the
        // request in the statistics, the breaker and outlier detection
        int left = b.releaseSlot();
        inFlight.decrement();
        if (left == 0 && b.draining) {
            engine.execute(this::refresh);
        }
    }

    // ---------------------------------------------------------------- control thread

    /** The members by id (control thread only). */
    Collection<Backend> members() {
        return members.values();
    }

    Backend member(String id) {
        return members.get(id);
    }

    StrategySpec spec() {
        return spec;
    }

    Backend add(BackendSpec b, boolean slowStart) {
        Backend backend = new Backend(name, b, engine.breakerListener(), engine.settings().breaker(),
                engine.ticker(), decayMs());
        if (slowStart && engine.settings().slowStartMs() > 0) {
            backend.upSinceNanos = engine.ticker().nanos();
        }
        members.put(b.id(), backend);
        rebuild();
        engine.publish("membership", name, b.id(), null, "added");
        return backend;
    }

    void setWeight(Backend b, int weight) {
        int old = b.weight;
        b.weight = weight;
        if (old == 0 && weight > 0 && engine.settings().slowStartMs() > 0) {
            b.upSinceNanos = engine.ticker().nanos();
        }
        rebuild();
        engine.publish("weight", name, b.id(), Integer.toString(old), Integer.toString(weight));
    }

    /** Stops new requests to {@code b}; refresh() reports DRAINING, then DRAINED once its in-flight reach 0. */
    void drain(Backend b, boolean thenRemove) {
        b.removeWhenDrained |= thenRemove;
        b.draining = true; // written before refresh() reads in-flight: see Backend.tryAcquire
        refresh();
    }

    void enable(Backend b) {
        boolean changed = b.draining || b.removeWhenDrained || b.ejectedUntilNanos != Long.MIN_VALUE;
        b.draining = false;
        b.removeWhenDrained = false;
        b.ejectedUntilNanos = Long.MIN_VALUE;
        b.consecutiveFailures().set(0);
        b.breaker().reset();
        if (changed && engine.settings().slowStartMs() > 0) {
            b.upSinceNanos = engine.ticker().nanos();
        }
        refresh();
    }

    /** Switches the strategy; a spec the factory refuses leaves the pool exactly as it was. */
    void setStrategy(StrategySpec next) {
        StrategySpec oldSpec = spec;
        Strategy oldPrimary = lastPrimary;
        Strategy oldBackup = lastBackup;
        spec = next.withDefaults();
        lastPrimary = null;
        lastBackup = null;
        try {
            rebuild();
        } catch (RuntimeException refused) {
            spec = oldSpec;
            lastPrimary = oldPrimary;
            lastBackup = oldBackup;
            throw refused;
        }
        if (FASTEST.equals(spec.type())) {
            // latencies measured under another decay (or none): start fresh, the strategy reads them live
            for (Backend b : members.values()) {
                b.resetEwma(engine.ticker(), decayMs());
            }
        }
        engine.publish("strategy", name, null, oldSpec.type(), spec.type());
    }

    private static final String FASTEST = StrategySpec.FASTEST_RESPONSE;

    private long decayMs() {
        return spec.decayMs() != null ? spec.decayMs() : 10_000L;
    }

    /** Applies one active-probe result with rise/fall hysteresis. */
    void probe(Backend b, boolean ok) {
        EngineSettings s = engine.settings();
        b.probeStreak = ok ? Math.max(0, b.probeStreak) + 1 : Math.min(0, b.probeStreak) - 1;
        int streak = Math.abs(b.probeStreak);
        HealthStatus before = b.health;
        if (ok && before != HealthStatus.UP && (before == HealthStatus.UNKNOWN || streak >= s.rise())) {
            b.health = HealthStatus.UP;
            if (before == HealthStatus.DOWN && s.slowStartMs() > 0) {
                b.upSinceNanos = engine.ticker().nanos();
            }
        } else if (!ok && before != HealthStatus.DOWN && streak >= s.fall()) {
            b.health = HealthStatus.DOWN;
        }
        if (b.health != before) {
            refresh();
        }
    }

    void eject(Backend b) {
        long now = engine.ticker().nanos();
        EngineSettings.OutlierSpec o = engine.settings().outlier();
        b.consecutiveFailures().set(0); // whatever is decided, the next run of failures counts from zero
        if (members.get(b.id()) != b || isEjected(b, now) || !o.enabled()) {
            return;
        }
        int total = 0;
        int ejected = 0;
        for (Backend m : members.values()) {
            if (m.isBackup() == b.isBackup()) {
                total++;
                if (isEjected(m, now)) {
                    ejected++;
                }
            }
        }
        // never more than maxEjectionPercent ejected at once, but always at least one may be
        if (ejected > 0 && (ejected + 1) * 100L > (long) o.maxEjectionPercent() * total) {
            return;
        }
        b.timesEjected++;
        // capped before it is multiplied: the n-th ejection of a long-lived backend must not wrap to a negative length
        long length = Math.min(MAX_EJECTION_NANOS, Math.min(o.baseEjectionMs(), MAX_EJECTION_NANOS / 1_000_000L)
                * 1_000_000L * Math.min(b.timesEjected, MAX_EJECTION_NANOS / 1_000_000L));
        b.ejectedUntilNanos = now + length;
        refresh();
    }

    private static boolean isEjected(Backend b, long now) {
        return b.ejectedUntilNanos != Long.MIN_VALUE && now - b.ejectedUntilNanos < 0;
    }

    /**
     * New breaker settings: every member gets a fresh CLOSED breaker; one that was not CLOSED tells its
     * move to CLOSED.
     */
    void replaceBreakers(BreakerSpec spec) {
        List<Pending> events = new ArrayList<>();
        for (Backend b : members.values()) {
            CircuitBreaker old = b.replaceBreaker(spec);
            if (old.state() != CircuitBreaker.State.CLOSED) {
                events.add(new Pending("breaker", b.id(), old.state().name(), CircuitBreaker.State.CLOSED.name()));
            }
        }
        rebuild();
        for (Pending e : events) {
            engine.publish(e.type(), name, e.backend(), e.from(), e.to());
        }
    }

    /** Removes a backend at once (after its drain, or when the pool is dropped). */
    void remove(Backend b) {
        if (members.remove(b.id()) != null) {
            rebuild();
            engine.publish("membership", name, b.id(), "present", "removed");
        }
    }

    /**
     * The control tick: ends ejections, completes drains, moves breakers OPEN to HALF_OPEN, steps slow
     * start, and republishes the snapshot when anything it shows changed.
     */
    void tick() {
        // a copy: advance() reports its transition inline on this thread, and that refresh may remove a member
        for (Backend b : List.copyOf(members.values())) {
            b.breaker().advance();
        }
        refresh();
    }

    /** Fresh views with live counters (control thread). */
    List<BackendView> views() {
        long now = engine.ticker().nanos();
        List<BackendView> out = new ArrayList<>(members.size());
        for (Backend b : members.values()) {
            out.add(view(b, stateOf(b, now), shownWeight(b, effectiveWeight(b, now)), now));
        }
        return out;
    }

    void rollStats(long now) {
        for (Backend b : members.values()) {
            b.stats().roll(now);
        }
    }

    /** An event held back until the snapshot it describes is published. */
    private record Pending(String type, String backend, String from, String to) {
    }

    /**
     * Recomputes states; rebuilds the snapshot only if a state changed or slow start is ramping. Events go
     * out after the new snapshot: a listener that looks at the pool when told sees the change, and one that
     * issues a command from inside the event finds the members in a consistent state.
     */
    void refresh() {
        long now = engine.ticker().nanos();
        boolean changed = ramping;
        List<Backend> finished = new ArrayList<>();
        List<Pending> events = new ArrayList<>();
        for (Backend b : members.values()) {
            if (b.ejectedUntilNanos != Long.MIN_VALUE && !isEjected(b, now)) {
                b.ejectedUntilNanos = Long.MIN_VALUE;
                if (engine.settings().slowStartMs() > 0) {
                    b.upSinceNanos = now;
                }
            }
            BackendState st = stateOf(b, now);
            if (st != b.lastReportedState) {
                changed = true;
                stateEvents(b, b.lastReportedState, st, events);
                b.lastReportedState = st;
            }
            if (st == BackendState.DRAINED && b.removeWhenDrained) {
                finished.add(b);
            }
        }
        for (Backend b : finished) {
            members.remove(b.id());
            events.add(new Pending("membership", b.id(), "present", "removed"));
            changed = true;
        }
        if (changed || snapshotStale()) {
            rebuild();
        }
        for (Pending e : events) {
            engine.publish(e.type(), name, e.backend(), e.from(), e.to());
        }
    }

    private boolean snapshotStale() {
        PoolSnapshot s = snapshot;
        if (s == null) {
            return true;
        }
        // breaker states are read live by the snapshot's filter: republish when any changed
        for (BackendView v : s.all()) {
            Backend b = members.get(v.id());
            if (b == null || b.breaker().state() != v.breaker()) {
                return true;
            }
        }
        return s.all().size() != members.size();
    }

    /**
     * One event per state change: {@code drain} when DRAINING or DRAINED is involved, {@code health}
     * otherwise (DOWN, EJECTED, back UP). A drain that completes at once (nothing in flight) still tells
     * both steps, X to DRAINING then DRAINING to DRAINED, so listeners always see the same sequence.
     */
    private static void stateEvents(Backend b, BackendState from, BackendState to, List<Pending> out) {
        if (to == BackendState.DRAINED && from != BackendState.DRAINING) {
            out.add(new Pending("drain", b.id(), from.name(), BackendState.DRAINING.name()));
            from = BackendState.DRAINING;
        }
        boolean drain = from == BackendState.DRAINING || from == BackendState.DRAINED
                || to == BackendState.DRAINING || to == BackendState.DRAINED;
        out.add(new Pending(drain ? "drain" : "health", b.id(), from.name(), to.name()));
    }

    BackendState stateOf(Backend b, long now) {
        if (b.draining) {
            return b.inFlight() == 0 ? BackendState.DRAINED : BackendState.DRAINING;
        }
        if (b.health == HealthStatus.DOWN) {
            return BackendState.DOWN;
        }
        if (b.ejectedUntilNanos != Long.MIN_VALUE) {
            // until the tick that ends it (refresh() clears the deadline first), not until the clock passes the
            // deadline: the snapshot leaves the backend out until then, and a view saying UP while no request can
            // reach it misleads whoever waits for UP to send traffic (issue 7)
            return BackendState.EJECTED;
        }
        return BackendState.UP;
    }

    /** Effective weight with slow start applied: 10% to 100% of the weight, linearly over slowStartMs. */
    double effectiveWeight(Backend b, long now) {
        long ramp = TimeUnit.MILLISECONDS.toNanos(engine.settings().slowStartMs());
        if (ramp <= 0 || b.upSinceNanos == Long.MIN_VALUE || now - b.upSinceNanos >= ramp) {
            return b.weight;
        }
        double t = Math.max(0, (double) (now - b.upSinceNanos) / ramp);
        return b.weight * (0.1 + 0.9 * t);
    }

    /**
     * The effective weight views report (/api/state, the window): the weight the strategy balances with. Under a
     * weight-blind strategy ({@link StrategySpec#WEIGHT_BLIND}: round robin, random, fastest-response) slow start
     * changes no pick, so a ramp shown there misled whoever watched it; those backends report their configured
     * weight. The ramp itself still runs (the candidates carry it, unread), so a switch to a weight-aware strategy
     * mid-ramp shows and applies it from where it is.
     */
    private double shownWeight(Backend b, double effective) {
        return spec.readsWeights() ? effective : b.weight;
    }

    /** Builds and publishes a new snapshot (control thread). */
    void rebuild() {
        if (snapshot != null && engine.deferRebuild(this)) { // a new pool gets its first snapshot at once
            return;
        }
        long now = engine.ticker().nanos();
        List<Backend> primary = new ArrayList<>();
        List<Backend> backups = new ArrayList<>();
        List<Backend> ejectedPrimary = new ArrayList<>();
        List<Backend> ejectedBackup = new ArrayList<>();
        List<BackendView> views = new ArrayList<>(members.size());
        boolean anyRamping = false;
        for (Backend b : members.values()) {
            BackendState st = stateOf(b, now);
            double eff = effectiveWeight(b, now);
            anyRamping |= eff < b.weight;
            boolean open = b.breaker().state() == CircuitBreaker.State.OPEN;
            if (b.weight > 0 && !open) {
                if (st == BackendState.UP) {
                    (b.isBackup() ? backups : primary).add(b);
                } else if (st == BackendState.EJECTED) {
                    (b.isBackup() ? ejectedBackup : ejectedPrimary).add(b);
                }
            }
            views.add(view(b, st, shownWeight(b, eff), now));
        }
        // panic mode (Envoy's): when ejections alone would leave nothing to pick, passive detection is more
        // likely wrong than every backend broken, so ejected backends take traffic again (primaries first)
        boolean panic = primary.isEmpty() && backups.isEmpty()
                && !(ejectedPrimary.isEmpty() && ejectedBackup.isEmpty());
        if (panic) {
            primary = ejectedPrimary;
            backups = ejectedBackup;
        }
        ramping = anyRamping;
        Candidates pc = candidates(primary, now);
        Candidates bc = candidates(backups, now);
        Strategy p = Strategies.create(spec, pc, lastPrimary, env);
        Strategy bs = bc.isEmpty() ? null : Strategies.create(spec, bc, lastBackup, env);
        lastPrimary = p;
        lastBackup = bs;
        boolean wasPanic = snapshot != null && snapshot.panic();
        snapshot = new PoolSnapshot(name, spec, p, bs, pc, bc, List.copyOf(views), panic, now);
        if (panic != wasPanic) { // a transition like any other: the state said so, the event stream did not
            engine.publish("panic", name, null, wasPanic ? "on" : "off", panic ? "on" : "off");
        }
    }

    private Candidates candidates(List<Backend> list, long now) {
        int[] w = new int[list.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = Math.max(1, (int) Math.round(effectiveWeight(list.get(i), now) * Strategies.WEIGHT_SCALE));
        }
        return new Candidates(list, w);
    }

    private BackendView view(Backend b, BackendState st, double eff, long now) {
        BackendStats s = b.stats();
        return new BackendView(b.id(), name, b.url().toString(), b.weight, eff, st, b.health, b.breaker().state(),
                b.inFlight(), s.totalRequests(), s.failures(), s.rps(), s.errorRate(), s.p50Ms(), s.p99Ms(),
                b.isBackup(), b.maxInFlight() == 0 ? null : b.maxInFlight(), b.timesEjected,
                isEjected(b, now) ? (b.ejectedUntilNanos - now) / 1_000_000 : 0); // 0 once due, until the tick
    }
}
