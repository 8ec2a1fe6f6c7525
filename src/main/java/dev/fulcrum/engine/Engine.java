package dev.fulcrum.engine;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The balancing engine: named pools, the routes between them, one control thread, and the event bus.
 *
 * <p>Threading. The control thread (a single-threaded executor, or the caller itself in tests) owns
 * membership, weights, health, ejections, breaker deadlines, slow start and drains, and publishes each
 * pool's {@link PoolSnapshot}. A periodic tick (every {@value #TICK_MS} ms) is the one wake-up for every
 * deadline: OPEN to HALF_OPEN, ejection ends, slow-start steps, drain completion, the once-a-second stats
 * roll-up. Tests build the engine with {@link #manual}, move a fake ticker and call {@link #tick()} by hand.
 */
public final class Engine implements AutoCloseable {
    static final long TICK_MS = 100;
    public static final String DEFAULT_POOL = "default";

    private final Ticker ticker;
    private final RandomSource random;
    private final Executor control;
    private final ScheduledExecutorService scheduler;
    private final List<Consumer<EngineEvent>> listeners = new CopyOnWriteArrayList<>();
    private volatile EngineSettings settings;
    private volatile Map<String, Pool> pools = Map.of();
    private volatile Router router = Router.EMPTY;
    private long lastRollNanos = Long.MIN_VALUE;
    private volatile Thread controlThread;

    private Engine(EngineSettings settings, Ticker ticker, RandomSource random, ScheduledExecutorService scheduler) {
        this.settings = settings;
        this.ticker = ticker;
        this.random = random;
        this.scheduler = scheduler;
        this.control = scheduler != null ? scheduler : Runnable::run;
    }

    /** The production engine: its own control thread, system time, thread-local randomness. */
    public static Engine start(EngineSettings settings) {
        java.util.concurrent.atomic.AtomicReference<Thread> thread = new java.util.concurrent.atomic.AtomicReference<>();
        ScheduledThreadPoolExecutor s = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "fulcrum-control");
            t.setDaemon(true);
            thread.set(t);
            return t;
        });
        s.setRemoveOnCancelPolicy(true);
        s.prestartCoreThread();
        Engine e = new Engine(settings, Ticker.system(), RandomSource.threadLocal(), s);
        e.controlThread = thread.get();
        s.scheduleWithFixedDelay(e::tickSafely, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
        return e;
    }

    /** An engine whose control work runs on the calling thread and whose ticks are called by hand. */
    public static Engine manual(EngineSettings settings, Ticker ticker, RandomSource random) {
        return new Engine(settings, ticker, random, null);
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

    Executor control() {
        return control;
    }

    // ---------------------------------------------------------------- control-thread calls

    /** Runs {@code work} on the control thread and waits for its result (rethrowing its exception). */
    public <T> T call(Supplier<T> work) {
        if (scheduler == null || Thread.currentThread() == controlThread) {
            return work.get();
        }
        CompletableFuture<T> f = CompletableFuture.supplyAsync(work, control);
        try {
            return f.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("control thread did not answer within 30 s", e);
        }
    }

    public void run(Runnable work) {
        call(() -> {
            work.run();
            return null;
        });
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
        return call(() -> {
            if (pools.containsKey(name)) {
                throw new EngineException(409, "pool: already exists (got: " + name + ")");
            }
            Pool p = new Pool(this, name, spec);
            Map<String, Pool> next = new LinkedHashMap<>(pools);
            next.put(name, p);
            pools = Map.copyOf(next);
            return p;
        });
    }

    public void removePool(String name) {
        run(() -> {
            Map<String, Pool> next = new LinkedHashMap<>(pools);
            next.remove(name);
            pools = Map.copyOf(next);
        });
    }

    public void setRouter(Router r) {
        this.router = r;
    }

    public void setSettings(EngineSettings s) {
        this.settings = s;
    }

    // ---------------------------------------------------------------- backend commands (admin API, window)

    /** Finds a backend by id in any pool (control thread). */
    private Backend find(String id) {
        for (Pool p : pools.values()) {
            Backend b = p.member(id);
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

    /** Adds a backend; 409 for a duplicate id anywhere, 404 for an unknown pool. */
    public void addBackend(String pool, BackendSpec spec, boolean slowStart) {
        run(() -> {
            Pool p = pools.get(pool);
            if (p == null) {
                throw new EngineException(404, "pool: no such pool (got: " + pool + ")");
            }
            if (find(spec.id()) != null) {
                throw new EngineException(409, "id: already exists (got: " + spec.id() + ")");
            }
            p.add(spec, slowStart);
        });
    }

    public void setWeight(String id, int weight) {
        if (weight < 0 || weight > 1000) {
            throw new EngineException(400, "weight: must be between 0 and 1000 (got: " + weight + ")");
        }
        run(() -> {
            Backend b = require(id);
            pools.get(b.pool()).setWeight(b, weight);
        });
    }

    public void drain(String id) {
        run(() -> {
            Backend b = require(id);
            pools.get(b.pool()).drain(b, false);
        });
    }

    /** Drains the backend, then removes it once its in-flight requests reach 0. */
    public void remove(String id) {
        run(() -> {
            Backend b = require(id);
            pools.get(b.pool()).drain(b, true);
        });
    }

    public void enable(String id) {
        run(() -> {
            Backend b = require(id);
            pools.get(b.pool()).enable(b);
        });
    }

    public void setStrategy(String pool, StrategySpec spec) {
        run(() -> {
            Pool p = pools.get(pool);
            if (p == null) {
                throw new EngineException(404, "pool: no such pool (got: " + pool + ")");
            }
            p.setStrategy(spec);
        });
    }

    /** One active health-check result for a backend (rise/fall applied). Unknown ids are ignored. */
    public void reportProbe(String id, boolean ok) {
        control.execute(() -> {
            Backend b = find(id);
            if (b != null) {
                pools.get(b.pool()).probe(b, ok);
            }
        });
    }

    /** Every backend's current view, pool by pool. */
    public List<BackendView> backends() {
        return call(() -> {
            List<BackendView> out = new ArrayList<>();
            for (Pool p : pools.values()) {
                out.addAll(p.views());
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
                out.addAll(p.members());
            }
            return out;
        });
    }

    // ---------------------------------------------------------------- events

    public void subscribe(Consumer<EngineEvent> listener) {
        listeners.add(listener);
    }

    public void unsubscribe(Consumer<EngineEvent> listener) {
        listeners.remove(listener);
    }

    public void publish(String type, String pool, String backend, String from, String to) {
        EngineEvent e = new EngineEvent(type, pool, backend, from, to, ticker.wallMillis());
        for (Consumer<EngineEvent> l : listeners) {
            try {
                l.accept(e);
            } catch (RuntimeException ignored) {
                // a broken listener must not break the engine
            }
        }
    }

    void onBreakerTransition(CircuitBreaker breaker, CircuitBreaker.State from, CircuitBreaker.State to) {
        control.execute(() -> {
            for (Pool p : pools.values()) {
                for (Backend b : p.members()) {
                    if (b.breaker() == breaker) {
                        publish("breaker", p.name(), b.id(), from.name(), to.name());
                        p.refresh();
                        return;
                    }
                }
            }
        });
    }

    // ---------------------------------------------------------------- the tick

    /** The one periodic wake-up (control thread). */
    public void tick() {
        long now = ticker.nanos();
        boolean roll = lastRollNanos == Long.MIN_VALUE || now - lastRollNanos >= 1_000_000_000L;
        for (Pool p : pools.values()) {
            p.tick();
            if (roll) {
                p.rollStats(now);
            }
        }
        if (roll) {
            lastRollNanos = now;
        }
    }

    private void tickSafely() {
        try {
            tick();
        } catch (RuntimeException e) {
            System.getLogger("fulcrum.engine").log(System.Logger.Level.ERROR, "control tick failed", e);
        }
    }

    @Override
    public void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
