package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.time.Ticker;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * A plugin strategy with the pool's fallback beside it: the proxy comes first. A pick that throws, a picker that
 * returns a candidate it was not given, a factory that throws, or picks that take more than the pool's
 * {@code pluginBudgetMs} on average over a one-second window, trip it: it tells the pool once (which then switches
 * to the fallback, with a {@code plugin-failed} event and a counter) and from then on every pick is the fallback's.
 * The request whose pick threw is served by the fallback, so no request fails because a plugin did.
 *
 * <p>Only plugin strategies are wrapped: a built-in pays nothing. Each plugin pick reads the engine's ticker twice and
 * adds to two striped counters; the window's average is taken by whichever pick first sees the second end with at
 * least {@link #MIN_PICKS} picks in it (a compare-and-set on its start), so counts that land while it is taken may go
 * to the next window: the average is approximate, the verdict is not delayed.
 *
 * <p>Example, budget 5 ms: after the first pick (not timed: it loads classes), eight picks of 1 ms, then picks of 2
 * and 30 ms, within one second average 4 ms: no verdict. The same with a pick of 80 ms instead of 30 averages 9 ms:
 * the first pick after that second trips the guard ("its picks took 9.0 ms on average over 10 picks (pluginBudgetMs
 * 5)"), and every later pick is the fallback's.
 */
public final class PluginGuard implements Strategy {
    /** The window picks are averaged over. */
    static final long WINDOW_NANOS = 1_000_000_000L;
    /**
     * The fewest picks an average is taken over: a window with fewer runs on until it has them. A guess, large enough
     * that one cold pick (the plugin's classes loading, its lambdas linking) in a quiet second does not decide, small
     * enough that a plugin slow at every pick is replaced after a few requests even at one a second.
     */
    static final int MIN_PICKS = 10;

    private final String type;
    private final Strategy plugin;
    private final Strategy fallback;
    private final long budgetNanos;
    private final long budgetMs;
    private final Ticker ticker;
    private final Consumer<String> onFailure;
    private final AtomicBoolean reported = new AtomicBoolean();
    private volatile String failure;
    private final Window window;

    /**
     * The second picks are averaged over, and what it holds so far. A guard built for the pool's next snapshot takes
     * over its predecessor's, so a pool rebuilt more often than once a second (slow start stepping, health
     * changing) still has its plugin's picks judged over whole seconds.
     */
    private static final class Window {
        /** Whether the first pick was made: it is not timed, as it loads classes and links lambdas, once. */
        final AtomicBoolean warm = new AtomicBoolean();
        final AtomicLong start;
        final LongAdder nanos = new LongAdder();
        final LongAdder picks = new LongAdder();

        Window(long now) {
            start = new AtomicLong(now);
        }
    }

    /**
     * @param previous the guard of the pool's previous snapshot with the same plugin strategy, whose averaging window
     *                 this one carries on; or null
     */
    PluginGuard(String type, Strategy plugin, Strategy fallback, long budgetMs, Ticker ticker,
                Consumer<String> onFailure, PluginGuard previous) {
        this.type = type;
        this.plugin = plugin;
        this.fallback = fallback;
        this.budgetMs = budgetMs;
        this.budgetNanos = budgetMs * 1_000_000L;
        this.ticker = ticker;
        this.onFailure = onFailure;
        this.window = previous != null && previous.type.equals(type) ? previous.window : new Window(ticker.nanos());
    }

    /**
     * Builds the plugin strategy {@code spec} names and the fallback over the same candidates. A spec that breaks its
     * options' bounds is refused (400, as for a built-in); a factory that throws is a failure: it is reported and the
     * guard answers with the fallback from the first pick.
     *
     * @param previous  the guard this one replaces (same pool), or null
     * @param fallback  the pool's fallback strategy (a built-in)
     * @param budgetMs  the most a pick may take on average over a second
     * @param onFailure told the reason once, on the first failure of this guard
     */
    public static PluginGuard create(StrategySpec spec, Candidates candidates, Strategy previous, StrategyEnv env,
                                     StrategySpec fallback, long budgetMs, Consumer<String> onFailure) {
        StrategySpec s = spec.withDefaults();
        List<String> problems = Strategies.validate(s);
        if (!problems.isEmpty()) {
            throw new EngineException(400, "strategy." + problems.get(0));
        }
        PluginGuard before = previous instanceof PluginGuard g && g.type.equals(s.type()) ? g : null;
        Strategy fb = Strategies.create(fallback, candidates, before == null ? null : before.fallback, env);
        Strategy p = null;
        String failed = null;
        try {
            p = Strategies.create(s, candidates, before == null ? null : before.plugin, env);
        } catch (Throwable e) {
            failed = "its factory " + describe(contained(e));
        }
        PluginGuard g = new PluginGuard(s.type(), p, fb, budgetMs, env.ticker(), onFailure, before);
        if (failed != null) {
            g.fail(failed);
        }
        return g;
    }

    @Override
    public String type() {
        return type;
    }

    /** Whether it answers with the fallback now. */
    public boolean tripped() {
        return failure != null;
    }

    @Override
    public Backend pick(RequestContext request, Eligibility eligible) {
        String failed = failure;
        if (failed != null) {
            return fallback(request, eligible, failed);
        }
        long start = ticker.nanos();
        Backend b;
        try {
            b = plugin.pick(request, eligible);
        } catch (Throwable e) {
            String reason = "its pick " + describe(contained(e));
            fail(reason);
            return fallback(request, eligible, reason);
        }
        long end = ticker.nanos();
        Window w = window;
        if (!w.warm.get() && w.warm.compareAndSet(false, true)) {
            return b;
        }
        w.nanos.add(end - start);
        w.picks.increment();
        long from = w.start.get();
        if (end - from >= WINDOW_NANOS && w.picks.sum() >= MIN_PICKS && w.start.compareAndSet(from, end)) {
            long picks = w.picks.sumThenReset();
            long nanos = w.nanos.sumThenReset();
            if (picks > 0 && nanos / picks > budgetNanos) {
                fail(String.format(Locale.ROOT, "its picks took %.1f ms on average over %d picks (pluginBudgetMs %d)",
                        nanos / (double) picks / 1e6, picks, budgetMs));
            }
        }
        return b;
    }

    @Override
    public Explanation explain(RequestContext request, RandomSource random) {
        if (failure == null) {
            try {
                return plugin.explain(request, random);
            } catch (Throwable e) {
                fail("its explain " + describe(contained(e)));
            }
        }
        return fallback.explain(request, random);
    }

    private Backend fallback(RequestContext request, Eligibility eligible, String reason) {
        DecisionLog log = request.decisions();
        if (log != null) {
            log.fallback("plugin failed: " + reason);
        }
        return fallback.pick(request, eligible);
    }

    private void fail(String reason) {
        failure = reason;
        if (reported.compareAndSet(false, true)) {
            onFailure.accept(reason);
        }
    }

    /**
     * {@code e}, when a plugin's failure is contained: anything it throws (a runtime exception, an assertion, a
     * missing class, a stack overflow, a checked exception thrown sneakily) but the JVM itself failing (out of
     * memory, an internal error), which goes on: no fallback can answer then.
     */
    private static Throwable contained(Throwable e) {
        if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError)) {
            throw (VirtualMachineError) e;
        }
        return e;
    }

    /** {@code threw IllegalStateException: no cost} (the message cut to one short line). */
    static String describe(Throwable e) {
        String m = e.getMessage();
        String text = "threw " + e.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : ": " + m);
        text = text.replace('\n', ' ').replace('\r', ' ');
        return text.length() <= 160 ? text : text.substring(0, 157) + "...";
    }
}
