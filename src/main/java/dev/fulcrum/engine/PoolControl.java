package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.engine.strategy.StrategyEnv;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeMap;

/**
 * The control thread's side of one pool: its members and every change to them. Commands (add, remove,
 * drain, enable, reweight, a new strategy or breaker settings) and what the engine learns (a probe result,
 * an outlier to eject, a breaker transition, a drain emptied, the tick) each end the same way: if what the
 * request path sees changed, a new snapshot is built ({@link SnapshotBuilder}) and published through
 * {@link Pool}'s one volatile field; then the events are told. A change of membership, weight, strategy or
 * breaker settings always rebuilds; the others go through {@link #refresh}, which recomputes the members'
 * states and rebuilds only when a state changed, a breaker moved or a slow start is ramping.
 *
 * <p>Events go out after the snapshot they describe: a listener that looks at the pool when told sees the
 * change, and one that issues a command from inside the event finds the members in a consistent state.
 *
 * <p>State changes and their events: DRAINING or DRAINED involved is a {@code drain} event, anything else
 * (DOWN, EJECTED, back UP) a {@code health} event. A drain that completes at once (nothing in flight) still
 * tells both steps (UP to DRAINING, then DRAINING to DRAINED), so listeners always see the same sequence; a
 * backend removed when drained then tells {@code membership present->removed}.
 *
 * <p>Threading: control thread only; it owns the member map and the members' control fields (see
 * {@link Backend}). Request threads reach it only through {@link Engine#execute}.
 */
final class PoolControl {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PoolControl.class);

    private final Pool pool;
    private final Engine engine;
    private final TreeMap<String, Backend> members = new TreeMap<>();
    private final SnapshotBuilder snapshots;

    PoolControl(Pool pool, Engine engine, StrategySpec spec, StrategyEnv env) {
        this.pool = pool;
        this.engine = engine;
        this.snapshots = new SnapshotBuilder(pool.name(), spec, env);
        // a guard trips on a request thread; the switch to the fallback is control work
        snapshots.onPluginFailure((setting, type, reason) -> engine.execute(() -> pluginFailed(setting, type, reason)));
    }

    /** Sets the fallback strategy and the plugin budget (docs/REFERENCE.md §2.1) and rebuilds. */
    void setGuard(StrategySpec fallback, long budgetMs) {
        snapshots.guard(fallback, budgetMs);
        pool.publishGuard(snapshots.fallback(), budgetMs, snapshots.pluginFailure());
        rebuild();
    }

    /**
     * The plugin strategy {@code type} failed: the pool switches to its fallback until its strategy is set again,
     * counts the failure and tells a {@code plugin-failed} event (from: the plugin strategy, to: why).
     */
    void pluginFailed(long setting, String type, String reason) {
        if (!snapshots.pluginFailed(setting, type, reason)) {
            return;
        }
        pool.countPluginFailure(type);
        pool.publishGuard(snapshots.fallback(), snapshots.pluginBudgetMs(), reason);
        rebuild();
        LOG.warn("pool {}: plugin strategy {} failed ({}); its fallback {} took over", pool.name(), type, reason,
                snapshots.fallback().type());
        tell("plugin-failed", null, type, reason);
    }

    /** The members, sorted by id. */
    Collection<Backend> members() {
        return members.values();
    }

    Backend member(String id) {
        return members.get(id);
    }

    Backend add(BackendSpec b, boolean slowStart) {
        EngineSettings s = engine.settings();
        Backend backend = new Backend(pool.name(), b, engine.breakerListener(), s.breaker(), engine.ticker(),
                decayMs());
        if (slowStart) {
            SlowStart.begin(backend, s.slowStartMs(), now());
            backend.joinedAtNanos = now(); // joined a running pool: the score strategy's cold start counts from here
        }
        members.put(b.id(), backend);
        rebuild();
        tell("membership", b.id(), null, "added");
        return backend;
    }

    void setWeight(Backend b, int weight) {
        int old = b.weight;
        b.weight = weight;
        if (old == 0 && weight > 0) {
            SlowStart.begin(b, engine.settings().slowStartMs(), now());
        }
        rebuild();
        tell("weight", b.id(), Integer.toString(old), Integer.toString(weight));
    }

    /**
     * Gives {@code b} other labels in place: its breaker, counters, weight and slow start stay as they are. The
     * snapshot is rebuilt so a strategy built from it (a score that reads a label) sees the new values.
     */
    void relabel(Backend b, java.util.Map<String, String> labels) {
        if (b.labels().equals(labels)) {
            return;
        }
        b.relabel(labels);
        rebuild();
    }

    /** Stops new requests to {@code b}; refresh() reports DRAINING, then DRAINED once its in-flight reach 0. */
    void drain(Backend b, boolean thenRemove) {
        b.removeWhenDrained |= thenRemove;
        b.draining = true; // written before refresh() reads in-flight: see Backend.tryAcquire
        refresh();
    }

    /** Back in rotation: not draining, not ejected, a fresh failure count and breaker, slow start if it was out. */
    void enable(Backend b) {
        boolean changed = b.draining || b.removeWhenDrained || b.ejectedUntilNanos != Long.MIN_VALUE;
        b.draining = false;
        b.removeWhenDrained = false;
        OutlierEjection.end(b);
        b.consecutiveFailures().set(0);
        b.breaker().reset();
        if (changed) {
            SlowStart.begin(b, engine.settings().slowStartMs(), now());
        }
        refresh();
    }

    /** Switches the strategy; a spec the factory refuses leaves the pool exactly as it was. */
    void setStrategy(StrategySpec next) {
        StrategySpec old = snapshots.spec();
        snapshots.switchStrategy(next, this::rebuild);
        pool.publishGuard(snapshots.fallback(), snapshots.pluginBudgetMs(), snapshots.pluginFailure());
        if (StrategySpec.FASTEST_RESPONSE.equals(snapshots.spec().type())) {
            // latencies measured under another decay (or none): start fresh, the strategy reads them live
            for (Backend b : members.values()) {
                b.resetEwma(engine.ticker(), decayMs());
            }
        }
        tell("strategy", null, old.type(), snapshots.spec().type());
    }

    private long decayMs() {
        Long ms = snapshots.spec().longValue("decayMs");
        return ms != null ? ms : 10_000L;
    }

    /** Applies one active-probe result ({@link ProbeHysteresis}). */
    void probe(Backend b, boolean ok) {
        if (ProbeHysteresis.apply(b, ok, engine.settings(), now())) {
            refresh();
        }
    }

    /** A run of failures reached the threshold on a request thread: eject if the rules allow. */
    void eject(Backend b) {
        if (OutlierEjection.eject(b, members, now(), engine.settings().outlier())) {
            refresh();
        }
    }

    /**
     * New breaker settings. When only openMs changed, every breaker keeps its state and window and an open wait
     * under way takes the new length ({@link CircuitBreaker#retime}): an operator shortening the wait during an
     * incident must not close breakers on failing backends. Otherwise every member gets a fresh CLOSED breaker
     * (its window was counted under the old rules); one that was not CLOSED tells its move to CLOSED.
     */
    void replaceBreakers(BreakerSpec spec) {
        List<Pending> events = new ArrayList<>();
        for (Backend b : members.values()) {
            if (b.breaker().spec().withOpenMs(spec.openMs()).equals(spec)) {
                b.breaker().retime(spec);
                continue;
            }
            CircuitBreaker old = b.replaceBreaker(spec);
            if (old.state() != CircuitBreaker.State.CLOSED) {
                events.add(new Pending("breaker", b.id(), old.state().name(), CircuitBreaker.State.CLOSED.name()));
            }
        }
        rebuild();
        tellAll(events);
    }

    /** Removes a backend at once (after its drain, on a move, or when the pool is dropped). */
    void remove(Backend b) {
        if (members.remove(b.id()) != null) {
            rebuild();
            tell("membership", b.id(), "present", "removed");
        }
    }

    /**
     * The control tick: moves breakers OPEN to HALF_OPEN, then refreshes, which ends ejections, completes
     * drains and steps slow start.
     */
    void tick() {
        // a copy: advance() reports its transition inline on this thread, and that refresh may remove a member
        for (Backend b : List.copyOf(members.values())) {
            b.breaker().advance();
        }
        refresh();
    }

    /** Fresh views with live counters. */
    List<BackendView> views() {
        return snapshots.views(members.values(), engine.settings().slowStartMs(), now());
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
     * Recomputes states; rebuilds the snapshot only if a state changed, a breaker moved or slow start is
     * ramping; then tells the changes.
     */
    void refresh() {
        long now = now();
        long slowStartMs = engine.settings().slowStartMs();
        boolean changed = snapshots.ramping();
        List<Backend> finished = new ArrayList<>();
        List<Pending> events = new ArrayList<>();
        for (Backend b : members.values()) {
            if (OutlierEjection.endIfOver(b, now)) {
                SlowStart.begin(b, slowStartMs, now);
            }
            BackendState st = b.state();
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
        tellAll(events);
    }

    /** True when the published snapshot shows another member set or breaker state than the members have. */
    private boolean snapshotStale() {
        PoolSnapshot s = pool.snapshot();
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

    /** The events for one state change (see the class comment). */
    private static void stateEvents(Backend b, BackendState from, BackendState to, List<Pending> out) {
        if (to == BackendState.DRAINED && from != BackendState.DRAINING) {
            out.add(new Pending("drain", b.id(), from.name(), BackendState.DRAINING.name()));
            from = BackendState.DRAINING;
        }
        boolean drain = from == BackendState.DRAINING || from == BackendState.DRAINED
                || to == BackendState.DRAINING || to == BackendState.DRAINED;
        out.add(new Pending(drain ? "drain" : "health", b.id(), from.name(), to.name()));
    }

    /**
     * Builds and publishes a new snapshot, or, inside {@link Engine#batch}, notes that one is due at its end
     * (a new pool gets its first snapshot at once). A change of panic mode is told like any other transition.
     */
    void rebuild() {
        PoolSnapshot previous = pool.snapshot();
        if (previous != null && engine.deferRebuild(pool)) {
            return;
        }
        PoolSnapshot next = snapshots.build(members.values(), engine.settings().slowStartMs(), now());
        pool.publishSnapshot(next);
        boolean wasPanic = previous != null && previous.panic();
        if (next.panic() != wasPanic) {
            tell("panic", null, PanicMode.name(wasPanic), PanicMode.name(next.panic()));
        }
    }

    private long now() {
        return engine.ticker().nanos();
    }

    private void tell(String type, String backend, String from, String to) {
        engine.publish(type, pool.name(), backend, from, to);
    }

    private void tellAll(List<Pending> events) {
        for (Pending e : events) {
            tell(e.type(), e.backend(), e.from(), e.to());
        }
    }
}
