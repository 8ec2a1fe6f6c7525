package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.strategy.PluginGuard;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.strategy.Strategy;
import dev.fulcrum.engine.strategy.StrategyEnv;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Builds a pool's {@link PoolSnapshot} from its members: everything the request path needs, decided once
 * per change instead of once per request.
 *
 * <ol>
 *   <li>Availability: a member is a candidate when its weight is above 0, its breaker is not OPEN and its
 *       state is UP (not DOWN, EJECTED, DRAINING or DRAINED); primaries and backups apart.</li>
 *   <li>Panic: when nothing is available but ejected members are, those serve instead ({@link PanicMode}).</li>
 *   <li>Weights: each candidate's effective weight ({@link SlowStart}) in hundredths
 *       ({@link Strategies#WEIGHT_SCALE}), at least 1.</li>
 *   <li>Strategies: one over the primaries and, when there are any, one over the backups, each built from its
 *       predecessor ({@link Strategies#create}), so smooth WRR keeps its current weights across a reweight.</li>
 *   <li>Views: every member as {@link BackendView}, for the window and {@code /api/state}.</li>
 * </ol>
 *
 * <p>Example: a (weight 5), b (weight 0), c (weight 2, EJECTED), d (weight 1, backup) under smooth WRR, no
 * ramp. Primary candidates a=500; backup candidates d=100; c is left out, b never serves; four views.
 *
 * <p>Threading: control thread only, like all it reads. It remembers the pool's strategy spec and the last
 * strategies built, and whether any member is still ramping (then every control tick rebuilds).
 */
final class SnapshotBuilder {
    /** A plugin's picks may take this long on average over a second before the fallback takes over. A guess. */
    static final long DEFAULT_PLUGIN_BUDGET_MS = 5;
    private final String pool;
    private final StrategyEnv env;
    private StrategySpec spec;
    /** The pool's fallback for a plugin strategy, and the plugin's budget (docs/REFERENCE.md §2.1). */
    private StrategySpec fallback = StrategySpec.of(StrategySpec.ROUND_ROBIN);
    private long pluginBudgetMs = DEFAULT_PLUGIN_BUDGET_MS;
    /** Why the plugin strategy was replaced by the fallback, or null while it is not. */
    private String pluginFailure;
    /**
     * Counts the strategies set, so a failure reported by a guard of an earlier setting (queued for the control thread
     * while the strategy was set again) is not taken for one of the plugin's new chance.
     */
    private long setting;
    /** Told (on a request thread) when a guarded plugin fails; hands the news to the control thread. */
    private PluginFailureListener onPluginFailure = (setting, type, reason) -> { };

    /** Hears that the plugin strategy {@code type} of strategy setting {@code setting} failed. */
    @FunctionalInterface
    interface PluginFailureListener {
        void failed(long setting, String type, String reason);
    }
    private Strategy lastPrimary;
    private Strategy lastBackup;
    private boolean ramping;

    SnapshotBuilder(String pool, StrategySpec spec, StrategyEnv env) {
        this.pool = pool;
        this.spec = spec.withDefaults();
        this.env = env;
    }

    StrategySpec spec() {
        return spec;
    }

    /** True when the last snapshot built had a member below its full weight (slow start under way). */
    boolean ramping() {
        return ramping;
    }

    /**
     * Switches to {@code next} and runs {@code rebuild}, which builds with it. When the strategy factory
     * refuses it (the rebuild throws), the spec and strategies are as they were and the exception goes on.
     */
    void switchStrategy(StrategySpec next, Runnable rebuild) {
        StrategySpec oldSpec = spec;
        Strategy oldPrimary = lastPrimary;
        Strategy oldBackup = lastBackup;
        String oldFailure = pluginFailure;
        long oldSetting = setting;
        spec = next.withDefaults();
        pluginFailure = null; // a strategy set again is given its chance again
        setting++;
        lastPrimary = null;
        lastBackup = null;
        try {
            rebuild.run();
        } catch (RuntimeException refused) {
            spec = oldSpec;
            pluginFailure = oldFailure;
            setting = oldSetting;
            lastPrimary = oldPrimary;
            lastBackup = oldBackup;
            throw refused;
        }
    }

    /** The snapshot of {@code members} (sorted by id) at {@code now}. */
    PoolSnapshot build(Collection<Backend> members, long slowStartMs, long now) {
        List<Backend> primary = new ArrayList<>();
        List<Backend> backups = new ArrayList<>();
        List<Backend> ejectedPrimary = new ArrayList<>();
        List<Backend> ejectedBackup = new ArrayList<>();
        List<BackendView> views = new ArrayList<>(members.size());
        boolean anyRamping = false;
        for (Backend b : members) {
            BackendState st = b.state();
            double eff = SlowStart.effectiveWeight(b, slowStartMs, now);
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
        boolean panic = PanicMode.applies(primary.size() + backups.size(),
                ejectedPrimary.size() + ejectedBackup.size());
        if (panic) {
            primary = ejectedPrimary;
            backups = ejectedBackup;
        }
        ramping = anyRamping;
        Candidates pc = candidates(primary, slowStartMs, now);
        Candidates bc = candidates(backups, slowStartMs, now);
        Strategy p = strategy(pc, lastPrimary);
        Strategy bs = bc.isEmpty() ? null : strategy(bc, lastBackup);
        lastPrimary = p;
        lastBackup = bs;
        return new PoolSnapshot(pool, spec, p, bs, pc, bc, List.copyOf(views), panic, now);
    }

    /**
     * The strategy over {@code c}: a plugin's inside its {@link PluginGuard}, the fallback once the plugin failed,
     * else the configured one as it is (a built-in pays nothing for plugins).
     */
    private Strategy strategy(Candidates c, Strategy last) {
        if (Strategies.plugin(spec.type()) == null) {
            return Strategies.create(spec, c, last, env);
        }
        if (pluginFailure != null) {
            return Strategies.create(fallback, c, last, env);
        }
        String type = spec.type();
        long current = setting;
        return PluginGuard.create(spec, c, last, env, fallback, pluginBudgetMs,
                reason -> onPluginFailure.failed(current, type, reason));
    }

    /** Sets the fallback and budget; the caller rebuilds. */
    void guard(StrategySpec fallback, long budgetMs) {
        this.fallback = fallback.withDefaults();
        this.pluginBudgetMs = budgetMs;
        lastPrimary = null;
        lastBackup = null;
    }

    /** Who hears a guard's failure (type, reason), on the request thread it happened on. */
    void onPluginFailure(PluginFailureListener tell) {
        this.onPluginFailure = tell;
    }

    StrategySpec fallback() {
        return fallback;
    }

    long pluginBudgetMs() {
        return pluginBudgetMs;
    }

    String pluginFailure() {
        return pluginFailure;
    }

    /**
     * Records that the plugin strategy of type {@code type}, as set by strategy setting {@code failedSetting}, failed;
     * false when that is no news (already failed, or the strategy has been set again since). The caller rebuilds.
     */
    boolean pluginFailed(long failedSetting, String type, String reason) {
        if (pluginFailure != null || failedSetting != setting || !type.equals(spec.type())) {
            return false;
        }
        pluginFailure = reason;
        lastPrimary = null;
        lastBackup = null;
        return true;
    }

    /** Fresh views of {@code members} with live counters, as the snapshot would show them now. */
    List<BackendView> views(Collection<Backend> members, long slowStartMs, long now) {
        List<BackendView> out = new ArrayList<>(members.size());
        for (Backend b : members) {
            out.add(view(b, b.state(), shownWeight(b, SlowStart.effectiveWeight(b, slowStartMs, now)), now));
        }
        return out;
    }

    private static Candidates candidates(List<Backend> list, long slowStartMs, long now) {
        int[] w = new int[list.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = Math.max(1, (int) Math.round(SlowStart.effectiveWeight(list.get(i), slowStartMs, now)
                    * Strategies.WEIGHT_SCALE));
        }
        return new Candidates(list, w);
    }

    /**
     * The effective weight a view reports: the weight the strategy balances with. A weight-blind strategy
     * (one whose descriptor says it does not read weights: round robin, random, fastest-response) reads no weight, so a ramp shown
     * there would be one no pick follows; those backends report their configured weight. The ramp itself still
     * runs (the candidates carry it, unread), so a switch to a weight-aware strategy mid-ramp shows and applies it
     * from where it is.
     */
    private double shownWeight(Backend b, double effective) {
        return spec.readsWeights() ? effective : b.weight;
    }

    private BackendView view(Backend b, BackendState st, double eff, long now) {
        BackendStats s = b.stats();
        return new BackendView(b.id(), pool, b.url().toString(), b.weight, eff, st, b.health, b.breaker().state(),
                b.inFlight(), s.totalRequests(), s.failures(), s.rps(), s.errorRate(), s.p50Ms(), s.p99Ms(),
                b.isBackup(), b.maxInFlight() == 0 ? null : b.maxInFlight(), b.timesEjected,
                OutlierEjection.remainingMs(b, now), st == BackendState.UP && b.unverified, b.labels());
    }
}
