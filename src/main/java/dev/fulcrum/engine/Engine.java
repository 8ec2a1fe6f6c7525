package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.engine.routing.CanaryGuard;
import dev.fulcrum.engine.routing.Split;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.rules.Limits;
import dev.fulcrum.rules.Violation;
import dev.fulcrum.time.Ticker;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The balancing engine: the registry of named pools and the routes between them, and the commands the admin
 * API, the window, the health checker and discovery give it. Each command runs on the control thread.
 *
 * <p>Threading. The control thread ({@link ControlThread}: a daemon thread of its own, or the caller itself
 * in a {@link #manual} engine) owns membership, weights, health, ejections, breaker deadlines, slow start and
 * drains, and publishes each pool's {@link PoolSnapshot}; the request path ({@link Pool#pick}) only reads
 * snapshots. A periodic tick (every {@value #TICK_MS} ms) is the one wake-up for every deadline: OPEN to
 * HALF_OPEN, ejection ends, slow-start steps, drain completion, the once-a-second stats roll-up. Tests build
 * the engine with {@link #manual}, move a fake ticker and call {@link #tick()} by hand.
 *
 * <p>Events reach subscribers through an {@link EventBus}, after the snapshot they describe; breaker
 * transitions, made on request threads, are put back in order per backend by {@link BreakerEventOrder}.
 */
public final class Engine implements AutoCloseable {
    static final long TICK_MS = 100;
    public static final String DEFAULT_POOL = "default";
    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

    private final Ticker ticker;
    private final RandomSource random;
    private final ControlThread controlThread;
    private final EventBus events;
    private final RebuildBatch rebuilds = new RebuildBatch(); // control thread
    private final Answers answers = new Answers();
    private volatile EngineSettings settings;
    private volatile Map<String, Pool> pools = Map.of();
    private volatile Router router = Router.EMPTY;
    private long lastRollNanos = Long.MIN_VALUE; // control thread

    private Engine(EngineSettings settings, Ticker ticker, RandomSource random, ControlThread controlThread) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.random = Objects.requireNonNull(random, "random");
        this.controlThread = controlThread;
        this.events = new EventBus(ticker);
    }

    /** The production engine: its own control thread, system time, thread-local randomness. */
    public static Engine start(EngineSettings settings) {
        Engine e = new Engine(settings, Ticker.system(), RandomSource.threadLocal(),
                ControlThread.daemon("fulcrum-control"));
        e.controlThread.repeat(TICK_MS, e::tickSafely);
        return e;
    }

    /** An engine whose control work runs on the calling thread and whose ticks are called by hand. */
    public static Engine manual(EngineSettings settings, Ticker ticker, RandomSource random) {
        return new Engine(settings, ticker, random, ControlThread.caller());
    }

    public Ticker ticker() {
        return ticker;
    }

    public RandomSource random() {
        return random;
    }

    public EngineSettings settings() {
        return settings;
    }

    /** The requests the proxy answered, each once, and the errors among them: what clients saw. */
    public Answers answers() {
        return answers;
    }

    /**
     * Hands work to the control thread without waiting: inline when already there (or in a manual engine),
     * queued otherwise, dropped after {@link #close()} (see {@link ControlThread}).
     */
    void execute(Runnable work) {
        controlThread.execute(work);
    }

    // ---------------------------------------------------------------- control-thread calls

    /** Runs {@code work} on the control thread and waits for its result (rethrowing its exception). */
    public <T> T call(Supplier<T> work) {
        return controlThread.call(work);
    }

    public void run(Runnable work) {
        call(() -> {
            work.run();
            return null;
        });
    }

    /**
     * Runs {@code work} on the control thread with each pool's snapshot rebuilt once at its end instead of after
     * every change ({@link RebuildBatch}). Events are published as the changes are made.
     */
    public void batch(Runnable work) {
        run(() -> rebuilds.run(work, p -> pools.get(p.name()) == p));
    }

    /** Called by a pool about to rebuild: true when the rebuild waits for the end of a batch. */
    boolean deferRebuild(Pool p) {
        return rebuilds.defer(p);
    }

    // ---------------------------------------------------------------- pools and routes

    public Pool pool(String name) {
        return pools.get(name);
    }

    public Collection<Pool> pools() {
        return pools.values();
    }

    public Router router() {
        return router;
    }

    /** The pool a request path goes to (longest matching route prefix, else {@code default}). */
    public Pool route(String path) {
        Router.Route r = router.match(path);
        return pools.get(r == null ? DEFAULT_POOL : r.pool());
    }

    public Pool addPool(String name, StrategySpec spec) {
        if (name == null || name.isBlank()) {
            throw new EngineException(400, "pool: must not be empty (got: " + name + ")");
        }
        requireStrategy(spec);
        return call(() -> {
            if (pools.containsKey(name)) {
                throw new EngineException(409, "pool: already exists (got: " + name + ")");
            }
            Pool p = new Pool(this, name, spec);
            Map<String, Pool> next = new LinkedHashMap<>(pools);
            next.put(name, p);
            pools = Collections.unmodifiableMap(next); // in the order added (Map.copyOf would scramble it)
            return p;
        });
    }

    public void removePool(String name) {
        run(() -> {
            Map<String, Pool> next = new LinkedHashMap<>(pools);
            next.remove(name);
            pools = Collections.unmodifiableMap(next);
        });
    }

    /**
     * The routes from now on. A route equal to one of the router before keeps that one's live state (its split as
     * changed since, each arm's figures, the guard, the mirror's counters, the ceiling's counts). Done on the control
     * thread, which alone changes a live split: a guard's rollback in the same second is carried over, not lost.
     */
    public void setRouter(Router r) {
        Router next = r == null ? Router.EMPTY : r;
        run(() -> {
            next.adopt(router);
            this.router = next;
        });
    }

    /**
     * Sets the weights of route {@code index}'s split ({@code PUT /api/routes/{index}/split}): {@code arms} names the
     * same pools in the same order, each with its new weight; a {@code split} event follows. Raising a rolled-back
     * canary again sets its guard watching.
     *
     * @throws EngineException 404 for no such route or a route without a split, 400 naming the field for arms that
     *                         are not the route's or a weight outside 0-1000, or every weight 0
     */
    public void setSplit(int index, List<Split.Arm> arms) {
        run(() -> {
            Router.Route route = splitRoute(index);
            Split now = route.split();
            if (arms == null || arms.size() != now.arms().size()) {
                throw new EngineException(400, "split: must list the route's " + now.arms().size() + " arms ("
                        + now.describe() + ") (got: " + (arms == null ? "none" : arms.size()) + ")");
            }
            List<Integer> weights = new ArrayList<>();
            int total = 0;
            for (int i = 0; i < arms.size(); i++) {
                Split.Arm a = arms.get(i);
                if (!now.arms().get(i).pool().equals(a.pool())) {
                    throw new EngineException(400, "split[" + i + "].pool: must be " + now.arms().get(i).pool()
                            + ", the route's arm " + i + " (got: " + a.pool() + ")");
                }
                String problem = Limits.splitWeightProblem(a.weight());
                if (problem != null) {
                    throw new EngineException(400, "split[" + i + "].weight: " + problem + " (got: " + a.weight() + ")");
                }
                weights.add(a.weight());
                total += a.weight();
            }
            if (total == 0) {
                throw new EngineException(400, "split: at least one weight must be above 0 (got: all 0)");
            }
            changeSplit(route, now.withWeights(weights), "split");
        });
    }

    /** Every user of route {@code index} to its split's last arm, in one call; a {@code split} event follows. */
    public void promote(int index) {
        run(() -> {
            Router.Route route = splitRoute(index);
            changeSplit(route, route.split().allTo(route.split().arms().size() - 1), "split");
        });
    }

    /** Every user of route {@code index} back to its split's first arm, in one call; a {@code split} event follows. */
    public void rollback(int index) {
        run(() -> {
            Router.Route route = splitRoute(index);
            changeSplit(route, route.split().allTo(0), "split");
        });
    }

    private Router.Route splitRoute(int index) {
        Router.Route route = router.route(index);
        if (route == null) {
            throw new EngineException(404, "route: no such route (got: " + index + "; there are "
                    + router.written().size() + ")");
        }
        if (route.split() == null) {
            throw new EngineException(404, "route: routes[" + index + "] has no split");
        }
        return route;
    }

    /** Control thread: the new split, the event, and a guard set watching again once its canary takes users. */
    private void changeSplit(Router.Route route, Split next, String why) {
        Split before = route.split();
        CanaryGuard guard = route.guard();
        int raised = -1;
        if (guard != null) {
            int arm = next.indexOf(guard.arm());
            int was = before.indexOf(guard.arm());
            if (arm >= 0 && next.arms().get(arm).weight() > 0 && (was < 0 || before.arms().get(was).weight() == 0)) {
                raised = arm;
            }
        }
        // a canary raised from 0 starts its figures afresh: its last minute is the one it was rolled back for (or
        // none), and judged on it the guard would roll a fixed canary back again
        route.setSplit(next, raised);
        if (raised >= 0) {
            guard.rearm(ticker.wallMillis());
        }
        events.publishRoute(why, route.index(), null, before.describe(), next.describe());
    }

    /** Control thread, once a second: each arm's figures rolled up, then each guard's judgement. */
    private void rollRoutes(long now) {
        for (Router.Route route : router.written()) {
            route.roll(now);
            CanaryGuard guard = route.guard();
            Router.Route.Arms arms = route.arms();
            if (guard == null || arms == null) {
                continue;
            }
            int canary = arms.split().indexOf(guard.arm());
            if (canary <= 0) {
                continue;
            }
            String baseline = arms.split().arms().get(0).pool();
            String reason = guard.judge(baseline, arms.stats()[0].figures(), arms.stats()[canary].figures(),
                    arms.split().arms().get(canary).weight(), now, ticker.wallMillis());
            if (reason != null) {
                Split before = arms.split();
                List<Integer> weights = new ArrayList<>();
                for (int i = 0; i < before.arms().size(); i++) {
                    weights.add(i == canary ? 0 : before.arms().get(i).weight());
                }
                if (weights.stream().allMatch(w -> w == 0)) {
                    weights.set(0, 100);
                }
                Split next = before.withWeights(weights);
                route.setSplit(next);
                events.publishRoute("guard", route.index(), guard.arm(), before.describe(), reason);
                events.publishRoute("split", route.index(), null, before.describe(), next.describe());
            }
        }
    }

    /**
     * New engine-wide settings. Slow start, outlier detection and rise/fall apply from the next event; new
     * breaker settings give every backend a fresh CLOSED breaker (its window was counted under the old rules),
     * unless only openMs changed ({@link PoolControl#replaceBreakers}).
     */
    public void setSettings(EngineSettings s) {
        if (s == null) {
            throw new EngineException(400, "settings: required (got: null)");
        }
        run(() -> {
            EngineSettings old = settings;
            settings = s;
            if (!s.breaker().equals(old.breaker())) {
                for (Pool p : pools.values()) {
                    p.control().replaceBreakers(s.breaker());
                }
            }
        });
    }

    // ---------------------------------------------------------------- backend commands (admin API, window)

    /** Finds a backend by id in any pool (control thread). */
    private Backend find(String id) {
        for (Pool p : pools.values()) {
            Backend b = p.control().member(id);
            if (b != null) {
                return b;
            }
        }
        return null;
    }

    private Backend require(String id) {
        Backend b = find(id);
        if (b == null) {
            throw new EngineException(404, "backend: no such id (got: " + id + ")");
        }
        return b;
    }

    /** Adds a backend; 400 for an invalid spec, 409 for a duplicate id anywhere, 404 for an unknown pool. */
    public void addBackend(String pool, BackendSpec spec, boolean slowStart) {
        validate(spec);
        run(() -> {
            Pool p = pools.get(pool);
            if (p == null) {
                throw new EngineException(404, "pool: no such pool (got: " + pool + ")");
            }
            if (find(spec.id()) != null) {
                throw new EngineException(409, "id: already exists (got: " + spec.id() + ")");
            }
            p.control().add(spec, slowStart);
        });
    }

    public void setWeight(String id, int weight) {
        requireWeight(weight);
        run(() -> {
            Backend b = require(id);
            pools.get(b.pool()).control().setWeight(b, weight);
        });
    }

    /**
     * Gives a running backend other labels (a reloaded config, a discovery file), keeping everything else about it:
     * breaker, counters, weight. 400 for labels {@link Limits#labels} refuses, 404 for an unknown id.
     */
    public void relabel(String id, Map<String, String> labels) {
        requireLabels(labels);
        Map<String, String> sorted = labels == null || labels.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new java.util.TreeMap<>(labels));
        run(() -> {
            Backend b = require(id);
            pools.get(b.pool()).control().relabel(b, sorted);
        });
    }

    public void drain(String id) {
        run(() -> {
            Backend b = require(id);
            pools.get(b.pool()).control().drain(b, false);
        });
    }

    /** Drains the backend, then removes it once its in-flight requests reach 0. */
    public void remove(String id) {
        run(() -> {
            Backend b = require(id);
            pools.get(b.pool()).control().drain(b, true);
        });
    }

    /**
     * Moves a backend to another pool in one step: it leaves its pool at once (requests in flight there finish
     * against it, as when a pool is dropped) and joins {@code pool} as {@code spec}. A drain would keep the id
     * taken until those requests end, and an add under the same id would be refused meanwhile.
     */
    public void move(String id, String pool, BackendSpec spec, boolean slowStart) {
        validate(spec);
        run(() -> {
            Backend b = require(id);
            Pool to = pools.get(pool);
            if (to == null) {
                throw new EngineException(404, "pool: no such pool (got: " + pool + ")");
            }
            if (!spec.id().equals(id)) {
                throw new EngineException(400, "id: a move keeps the id (got: " + spec.id() + ")");
            }
            pools.get(b.pool()).control().remove(b);
            to.control().add(spec, slowStart);
        });
    }

    /** Keeps a backend that a removal is waiting to drain: back in rotation, as a config that lists it wants. */
    public void keep(String id) {
        run(() -> {
            Backend b = require(id);
            if (b.removeWhenDrained) {
                pools.get(b.pool()).control().enable(b);
            }
        });
    }

    public void enable(String id) {
        run(() -> {
            Backend b = require(id);
            pools.get(b.pool()).control().enable(b);
        });
    }

    public void setStrategy(String pool, StrategySpec spec) {
        requireStrategy(spec);
        run(() -> {
            Pool p = pools.get(pool);
            if (p == null) {
                throw new EngineException(404, "pool: no such pool (got: " + pool + ")");
            }
            p.control().setStrategy(spec);
        });
    }

    /**
     * Sets the strategy {@code pool} falls back to when its plugin strategy fails, and that plugin's budget
     * (docs/REFERENCE.md §2.1 {@code fallback}, {@code pluginBudgetMs}).
     *
     * @throws EngineException 400 naming the field: a fallback that is no built-in strategy, a budget outside
     *                         1-1000 ms; 404 for an unknown pool
     */
    public void setFallback(String pool, StrategySpec fallback, long pluginBudgetMs) {
        refuse("fallback", Strategies.fallbackProblem(fallback), fallback == null ? null : fallback.type());
        if (fallback != null && fallback.type() != null) {
            List<String> problems = Strategies.validate(fallback.withDefaults());
            if (!problems.isEmpty()) {
                throw new EngineException(400, "fallback." + problems.get(0));
            }
        }
        refuse("pluginBudgetMs", Limits.pluginBudgetMs(pluginBudgetMs), pluginBudgetMs);
        run(() -> {
            Pool p = pools.get(pool);
            if (p == null) {
                throw new EngineException(404, "pool: no such pool (got: " + pool + ")");
            }
            p.control().setGuard(fallback, pluginBudgetMs);
        });
    }

    private static void requireWeight(int weight) {
        refuse("weight", Limits.weight(weight), weight);
    }

    private static void refuse(String field, String problem, Object value) {
        if (problem != null) {
            throw new EngineException(400, new Violation(field, problem, value).describe());
        }
    }

    private static void requireStrategy(StrategySpec spec) {
        if (spec == null || spec.type() == null) {
            throw new EngineException(400, "strategy.type: must be one of " + StrategySpec.TYPES + " (got: null)");
        }
    }

    /** The checks docs/REFERENCE.md §2.1 puts on a backend, as 400s naming the field and the value. */
    private static void validate(BackendSpec spec) {
        if (spec == null) {
            throw new EngineException(400, "backend: required (got: null)");
        }
        refuse("id", Limits.id(spec.id()), spec.id());
        requireWeight(spec.weight());
        refuse("maxInFlight", Limits.maxInFlight(spec.maxInFlight()), spec.maxInFlight());
        refuse("url", Limits.url(spec.url()), spec.url());
        requireLabels(spec.labels());
    }

    /** The first thing {@link Limits#labels} finds wrong, as a 400 naming the label. */
    private static void requireLabels(Map<String, String> labels) {
        List<Violation> problems = Limits.labels(labels);
        if (!problems.isEmpty()) {
            throw new EngineException(400, problems.get(0).describe());
        }
    }

    /** One active health-check result for a backend (rise/fall applied). Unknown ids are ignored. */
    public void reportProbe(String id, boolean ok) {
        execute(() -> {
            Backend b = find(id);
            if (b != null) {
                pools.get(b.pool()).control().probe(b, ok);
            }
        });
    }

    /** A probe result for this very backend: ignored when it was removed or replaced under its id meanwhile. */
    public void reportProbe(Backend probed, boolean ok) {
        execute(() -> {
            if (find(probed.id()) == probed) {
                pools.get(probed.pool()).control().probe(probed, ok);
            }
        });
    }

    /** Every backend's current view, pool by pool. */
    public List<BackendView> backends() {
        return call(() -> {
            List<BackendView> out = new ArrayList<>();
            for (Pool p : pools.values()) {
                out.addAll(p.control().views());
            }
            return out;
        });
    }

    /** The live backend object (for the health checker and metrics poller), or null. */
    public Backend backend(String id) {
        return call(() -> find(id));
    }

    /** Every live backend across pools (snapshot of membership). */
    public List<Backend> allBackends() {
        return call(() -> {
            List<Backend> out = new ArrayList<>();
            for (Pool p : pools.values()) {
                out.addAll(p.control().members());
            }
            return out;
        });
    }

    // ---------------------------------------------------------------- events

    public void subscribe(Consumer<EngineEvent> listener) {
        events.subscribe(listener);
    }

    public void unsubscribe(Consumer<EngineEvent> listener) {
        events.unsubscribe(listener);
    }

    /** Tells every subscriber, on this thread; a listener that throws is skipped ({@link EventBus}). */
    public void publish(String type, String pool, String backend, String from, String to) {
        events.publish(type, pool, backend, from, to);
    }

    /** Hands every breaker transition to {@link #onBreakerTransition} with its sequence number. */
    private final CircuitBreaker.Listener breakerListener = new CircuitBreaker.Listener() {
        @Override
        public void onTransition(CircuitBreaker breaker, CircuitBreaker.State from, CircuitBreaker.State to) {
            onTransition(breaker, from, to, 0);
        }

        @Override
        public void onTransition(CircuitBreaker breaker, CircuitBreaker.State from, CircuitBreaker.State to,
                                 long sequence) {
            onBreakerTransition(breaker, from, to, sequence);
        }
    };

    CircuitBreaker.Listener breakerListener() {
        return breakerListener;
    }

    /**
     * Republishes the pool's snapshot and tells one {@code breaker} event per transition, in the order the
     * breaker made them ({@link BreakerEventOrder}). A breaker no member has any more (replaced, or its
     * backend removed) is ignored.
     */
    void onBreakerTransition(CircuitBreaker breaker, CircuitBreaker.State from, CircuitBreaker.State to,
                             long sequence) {
        execute(() -> {
            for (Pool p : pools.values()) {
                for (Backend b : p.control().members()) {
                    if (b.breaker() == breaker) {
                        p.control().refresh();
                        b.breakerEvents.arrived(sequence, from, to,
                                (f, t) -> publish("breaker", p.name(), b.id(), f.name(), t.name()));
                        return;
                    }
                }
            }
        });
    }

    // ---------------------------------------------------------------- the tick

    /**
     * The one periodic wake-up. Runs on the control thread whoever calls it: a manual engine's test calls it
     * by hand after moving the fake ticker; on a started engine an extra call is harmless (it only brings
     * the next deadline check forward).
     */
    public void tick() {
        run(this::tickNow);
    }

    private void tickNow() {
        long now = ticker.nanos();
        boolean roll = lastRollNanos == Long.MIN_VALUE || now - lastRollNanos >= 1_000_000_000L;
        for (Pool p : pools.values()) {
            p.control().tick();
            if (roll) {
                p.control().rollStats(now);
            }
        }
        if (roll) {
            answers.roll(now);
            rollRoutes(now);
            lastRollNanos = now;
        }
    }

    private void tickSafely() {
        try {
            tickNow();
        } catch (RuntimeException e) {
            LOG.error("control tick failed", e);
        }
    }

    /**
     * Stops a started engine's control thread: commands after this fail, control work from requests still
     * finishing is dropped. A manual engine has nothing to stop.
     */
    @Override
    public void close() {
        controlThread.close();
    }
}
