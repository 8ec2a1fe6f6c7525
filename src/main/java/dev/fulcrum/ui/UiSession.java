package dev.fulcrum.ui;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.RequestSource;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.EngineEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The window's one link to an engine: a single worker thread that both samples {@link EngineClient#state()}
 * (every {@link #SAMPLE_PERIOD_MS} ms, so at most 4 Hz) and runs every command, and JavaFX properties the views
 * bind to, only ever written on the FX thread.
 *
 * <p>Why one thread: commands and samples run in order, so a sample taken after a command always shows its
 * effect, and the FX thread never blocks on the client (which may be remote). Engine events arrive on the
 * engine's thread; they are queued and handed to the FX thread in batches with each sample, so a burst of
 * events costs one {@code runLater}, not thousands. Samples reach the FX thread on {@link FxTicks}' grid (within
 * 1/4 s of being read), in the pulse the window draws then anyway.
 */
public final class UiSession implements AutoCloseable {
    public static final long SAMPLE_PERIOD_MS = 250;
    /** The events view keeps this many; older ones scroll away (a guess at what a person reads back). */
    public static final int MAX_EVENTS = 5000;
    private static final Logger LOG = LoggerFactory.getLogger(UiSession.class);

    private final EngineClient client;
    private final ScheduledExecutorService worker;
    private final ReadOnlyObjectWrapper<EngineState> state = new ReadOnlyObjectWrapper<>(this, "state");
    private final ReadOnlyObjectWrapper<String> lastError = new ReadOnlyObjectWrapper<>(this, "lastError");
    private final ReadOnlyObjectWrapper<Map<String, Map<String, Object>>> demoState =
            new ReadOnlyObjectWrapper<>(this, "demoState", Map.of());
    private final StringProperty pool = new SimpleStringProperty(this, "pool", "default");
    private final ObservableList<EngineEvent> events = FXCollections.observableArrayList();
    /**
     * One read-only view, kept: an unmodifiable wrapper listens to its list weakly, so a wrapper made per call
     * can be collected together with the listeners added to it.
     */
    private final ObservableList<EngineEvent> readOnlyEvents = FXCollections.unmodifiableObservableList(events);
    private final Queue<EngineEvent> pendingEvents = new ConcurrentLinkedQueue<>();
    private final List<Consumer<String>> errorListeners = new ArrayList<>();
    private final UndoHistory undo = new UndoHistory();
    private final TimeMachine history = new TimeMachine();
    private final javafx.beans.property.StringProperty selectedBackend =
            new javafx.beans.property.SimpleStringProperty(this, "selectedBackend");
    private final javafx.beans.property.ReadOnlyLongWrapper viewingAt =
            new javafx.beans.property.ReadOnlyLongWrapper(this, "viewingAt", -1);
    private final AtomicReference<EngineState> latest = new AtomicReference<>();
    private final ReadOnlyObjectWrapper<String> instance = new ReadOnlyObjectWrapper<>(this, "instance");
    private volatile String latestInstance;
    private final javafx.beans.property.ReadOnlyBooleanWrapper stale =
            new javafx.beans.property.ReadOnlyBooleanWrapper(this, "stale");
    private final AtomicBoolean posted = new AtomicBoolean();
    private final String description;
    private volatile BreakerConfig breakerConfig;
    private volatile boolean closed;
    /** When the engine last answered a state sample (System.nanoTime), or when sampling began. */
    private volatile long lastAnswerNanos = System.nanoTime();
    private volatile long lastAnswerWallMillis = System.currentTimeMillis();

    /**
     * @param client      the engine to manage
     * @param description what to put in the title (normally {@code client.describe()}, read once off the FX thread)
     */
    public UiSession(EngineClient client, String description) {
        this.client = client;
        this.description = description;
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fulcrum-ui-engine");
            t.setDaemon(true);
            return t;
        });
    }

    /** Subscribes to events and starts sampling. Call once, from any thread. */
    public UiSession start() {
        worker.execute(() -> client.subscribe(pendingEvents::add));
        worker.scheduleWithFixedDelay(this::sample, 0, SAMPLE_PERIOD_MS, TimeUnit.MILLISECONDS);
        // demo faults change rarely and only through us or the admin API: once a second is plenty
        worker.scheduleWithFixedDelay(this::sampleDemo, 0, 1, TimeUnit.SECONDS);
        return this;
    }

    private void sample() {
        if (closed) {
            return;
        }
        try {
            latest.set(client.state());
            latestInstance = client instanceof dev.fulcrum.admin.HttpEngineClient h ? h.instance() : null;
            lastAnswerNanos = System.nanoTime();
            lastAnswerWallMillis = System.currentTimeMillis();
            // at most one hand-over queued: if the FX thread is behind, it gets the newest state, not a backlog;
            // on the ticks' grid, so the views' changes share the pulse of the ticks due then
            if (posted.compareAndSet(false, true)) {
                FxTicks.soon(this::applySample);
            }
        } catch (RuntimeException e) {
            LOG.debug("state sample failed", e);
            String why = inWords(e);
            FxTicks.soon(() -> { // after any sample handed over before it, as the samples were read
                lastError.set("cannot read the engine's state: " + why);
                if (state.get() != null) {
                    stale.set(true); // nothing answers: the figures on screen are the last ones, not live
                }
            });
        }
    }

    /** On the FX thread: the newest state and every event that arrived since the last hand-over. */
    private void applySample() {
        posted.set(false);
        List<EngineEvent> batch = new ArrayList<>();
        for (EngineEvent e; (e = pendingEvents.poll()) != null; ) {
            batch.add(e);
        }
        if (!batch.isEmpty()) {
            events.addAll(batch);
            if (events.size() > MAX_EVENTS) {
                events.remove(0, events.size() - MAX_EVENTS);
            }
            batch.forEach(history::event);
        }
        EngineState s = latest.get();
        String inst = latestInstance;
        if (inst != null && !inst.equals(instance.get())) {
            if (instance.get() != null) {
                undo.clear(); // its changes were made on the engine that is gone: undoing one would hit another
            }
            instance.set(inst);
        }
        stale.set(false);
        history.record(lastAnswerWallMillis, s);
        if (viewingAt.get() < 0) {
            state.set(s);
        }
    }

    // ---------------------------------------------------------------- the time machine

    /**
     * What the window saw over the last five minutes. While {@link #viewingAtProperty()} is set, every view that reads
     * {@link #stateProperty()} shows the recorded state of that moment instead of the live one.
     */
    public TimeMachine history() {
        return history;
    }

    /** The moment the views show (wall milliseconds), or -1 for now. */
    public ReadOnlyLongProperty viewingAtProperty() {
        return viewingAt.getReadOnlyProperty();
    }

    /** The backend the trainer last clicked (Live card, Backends row), for the present-mode keys; or null. */
    public javafx.beans.property.StringProperty selectedBackendProperty() {
        return selectedBackend;
    }

    public boolean live() {
        return viewingAt.get() < 0;
    }

    /** Shows every view as it was at {@code wallMillis} (kept for five minutes); FX thread. */
    public void viewAt(long wallMillis) {
        viewingAt.set(Math.max(wallMillis, history.oldest()));
        EngineState past = history.stateAt(viewingAt.get());
        if (past != null) {
            state.set(past);
        }
    }

    /** Pauses every view on what it shows now (the space bar); FX thread. */
    public void pauseViews() {
        if (live()) {
            viewAt(Math.max(0, history.newest()));
        }
    }

    /** Back to the live engine; FX thread. */
    public void backToLive() {
        viewingAt.set(-1);
        EngineState s = latest.get();
        if (s != null) {
            state.set(s);
        }
    }

    /**
     * A pool's ring or Maglev table: as it was at the moment the views show, or fetched now (then kept for the time
     * machine). Blocks on the client when live: call it off the FX thread, from the session's worker.
     */
    public EngineClient.Ring ring(String pool) {
        long at = viewingAt.get();
        if (at >= 0) {
            return history.ringAt(pool, at);
        }
        EngineClient.Ring r = client.ring(pool);
        long now = System.currentTimeMillis();
        FxTicks.soon(() -> history.ring(pool, now, r));
        return r;
    }

    private void sampleDemo() {
        if (closed) {
            return;
        }
        try {
            Map<String, Map<String, Object>> d = client.demoState();
            FxTicks.soon(() -> demoState.set(d));
        } catch (RuntimeException e) {
            LOG.debug("demo state sample failed", e);
        }
    }

    public EngineClient client() {
        return client;
    }

    /** Milliseconds since the engine last answered a state sample: a stalled or gone engine shows as figures aging. */
    public long msSinceLastAnswer() {
        return (System.nanoTime() - lastAnswerNanos) / 1_000_000;
    }

    /**
     * Whether the figures on screen are not live: a state sample failed, or none has come back for
     * {@link #STALE_AFTER_MS}. Views grey their figures and disable their actions while it is set; the next answer
     * clears it. FX thread.
     */
    public javafx.beans.property.ReadOnlyBooleanProperty staleProperty() {
        return stale.getReadOnlyProperty();
    }

    /**
     * Which engine instance answers ({@code "instance"} of {@code GET /api/state}), or null when it does not say (an
     * embedded engine, HAProxy). A change from one to another is a restarted engine: the session clears its undo
     * history then, and the window says so. FX thread.
     */
    public ReadOnlyObjectProperty<String> instanceProperty() {
        return instance.getReadOnlyProperty();
    }

    public boolean stale() {
        return stale.get();
    }

    /** Milliseconds without an answer after which the figures on screen count as stale. */
    public static final long STALE_AFTER_MS = 2_000;

    /**
     * Marks the figures stale once a remote engine has not answered for {@link #STALE_AFTER_MS} (the window's timer).
     * The window's own engine answers from this process: a slow answer is a busy machine, not an engine gone.
     */
    void checkStale() {
        if (!(client instanceof dev.fulcrum.admin.InProcessEngineClient) && state.get() != null
                && msSinceLastAnswer() >= STALE_AFTER_MS) {
            stale.set(true);
        }
    }

    /**
     * A failure as a person reads it: a network failure says the engine cannot be reached ("the engine at
     * http://h:8081 is not reachable: nothing answers there (connection refused)"), not "java.net.ConnectException";
     * a refused command keeps the engine's own words.
     */
    String inWords(Exception e) {
        Throwable cause = e instanceof java.io.UncheckedIOException u && u.getCause() != null ? u.getCause() : e;
        String where = description.startsWith("remote ") ? description.substring(7) : description;
        if (cause instanceof java.net.ConnectException) {
            return where + " is not reachable: nothing answers there (connection refused)";
        }
        if (cause instanceof java.net.http.HttpTimeoutException) {
            return where + " did not answer in time";
        }
        if (cause instanceof java.io.IOException io) {
            return where + " is not reachable (" + (io.getMessage() == null ? "connection lost" : io.getMessage()) + ")";
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /** The wall-clock time of the last answer, for saying how old the figures on screen are. */
    public long lastAnswerWallMillis() {
        return lastAnswerWallMillis;
    }

    public String description() {
        return description;
    }

    public UndoHistory undo() {
        return undo;
    }

    /** The latest engine state (null until the first sample arrives); changes on the FX thread only. */
    public ReadOnlyObjectProperty<EngineState> stateProperty() {
        return state.getReadOnlyProperty();
    }

    public EngineState state() {
        return state.get();
    }

    /** The demo backends' fault settings by id, sampled once a second. */
    public ReadOnlyObjectProperty<Map<String, Map<String, Object>>> demoStateProperty() {
        return demoState.getReadOnlyProperty();
    }

    /** The most recent refused command or failed read, as the engine worded it. */
    public ReadOnlyObjectProperty<String> lastErrorProperty() {
        return lastError.getReadOnlyProperty();
    }

    /** The pool the views show; the pool selector writes it. */
    public StringProperty poolProperty() {
        return pool;
    }

    /**
     * Whether the strategy of {@code pool} reads weights, by the last sample (true before the first: a slider must
     * not look disabled while the window starts).
     */
    public boolean readsWeights(String pool) {
        EngineState s = state();
        EngineState.PoolInfo p = s == null || pool == null ? null : s.pools().get(pool);
        Object type = p == null || p.strategy() == null ? null : p.strategy().get("type");
        return type == null || !dev.fulcrum.engine.strategy.StrategySpec.TYPES.contains(type.toString())
                || dev.fulcrum.engine.strategy.StrategySpec.of(type.toString()).readsWeights();
    }

    public String pool() {
        return pool.get();
    }

    /** Every event seen since the window opened (at most {@link #MAX_EVENTS}), oldest first. */
    public ObservableList<EngineEvent> events() {
        return readOnlyEvents;
    }

    /** The breaker thresholds when known (embedded engine); the remote API does not publish them. */
    public BreakerConfig breakerConfig() {
        return breakerConfig;
    }

    public void setBreakerConfig(BreakerConfig c) {
        this.breakerConfig = c;
    }

    /** Shown as a notification by the window; tests may listen too. Called on the FX thread. */
    public void onError(Consumer<String> listener) {
        errorListeners.add(listener);
    }

    /**
     * Runs {@code work} on the worker, then {@code onFx} with its answer on the FX thread. A failure sets
     * {@link #lastErrorProperty()}, tells the error listeners and calls {@code onFail} (if any) with the
     * message, on the FX thread.
     */
    public <T> void call(String what, Callable<T> work, Consumer<T> onFx, Consumer<String> onFail) {
        if (closed) {
            return;
        }
        try {
            submit(what, work, onFx, onFail);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            LOG.debug("{} dropped: the window is closing", what); // closed between the check and the hand-over
        }
    }

    private <T> void submit(String what, Callable<T> work, Consumer<T> onFx, Consumer<String> onFail) {
        worker.execute(() -> {
            T result;
            try {
                result = work.call();
            } catch (Exception e) {
                String msg = inWords(e);
                LOG.debug("{} failed", what, e);
                Platform.runLater(() -> {
                    lastError.set(what + ": " + msg);
                    if (onFail != null) {
                        onFail.accept(msg);
                    } else {
                        errorListeners.forEach(l -> l.accept(what + ": " + msg));
                    }
                });
                return;
            }
            // sample at once so the views show the effect without waiting for the next tick
            if (onFx != null) {
                Platform.runLater(() -> onFx.accept(result));
            }
        });
        worker.execute(this::sample);
    }

    /** {@link #call} for commands without an answer. */
    public void run(String what, Runnable work, Runnable onFx, Consumer<String> onFail) {
        call(what, () -> {
            work.run();
            return Boolean.TRUE;
        }, onFx == null ? null : ok -> onFx.run(), onFail);
    }

    public void run(String what, Runnable work) {
        run(what, work, null, null);
    }

    // ---------------------------------------------------------------- requests (the Requests tab)

    private final List<RequestSource> requestSources = new java.util.concurrent.CopyOnWriteArrayList<>();
    /**
     * The Requests tab's reads, beside the worker: opening a stream may wait seconds for an engine that does not
     * serve one, and a listing repeated each second must not delay a state sample or a command.
     */
    private final java.util.concurrent.ExecutorService reader = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fulcrum-ui-reads");
        t.setDaemon(true);
        return t;
    });

    /**
     * Opens a {@link RequestSource} of its own off the FX thread (attached, that connects {@code /api/requests}) and
     * hands it to {@code onFx} on the FX thread: null when the engine shows no requests (HAProxy). Its {@code poll()}
     * never blocks, so a view polls it on the FX thread; the session closes it when it closes.
     */
    public void openRequests(Consumer<RequestSource> onFx) {
        if (closed) {
            return;
        }
        reader.execute(() -> {
            RequestSource source;
            try {
                source = client.requests();
            } catch (RuntimeException e) {
                LOG.debug("cannot open the request stream", e);
                source = null;
            }
            if (source != null) {
                requestSources.add(source);
            }
            RequestSource s = source;
            Platform.runLater(() -> onFx.accept(s));
        });
    }

    /**
     * Runs a read off the FX thread, beside the worker (so in no order with commands), and hands its answer to
     * {@code onFx} on the FX thread; a failure goes to {@code onFail} only. Unlike {@link #call}, no state sample
     * follows and nothing is notified: for reads a view repeats (the open WebSockets, each second) or explains in place.
     */
    public <T> void read(String what, Callable<T> work, Consumer<T> onFx, Consumer<String> onFail) {
        if (closed) {
            return;
        }
        reader.execute(() -> {
            try {
                T result = work.call();
                Platform.runLater(() -> onFx.accept(result));
            } catch (Exception e) {
                LOG.debug("{} failed", what, e);
                String msg = what + ": " + (e.getMessage() == null ? e.toString() : e.getMessage());
                Platform.runLater(() -> onFail.accept(msg));
            }
        });
    }

    @Override
    public void close() {
        closed = true;
        worker.shutdownNow();
        reader.shutdownNow();
        for (RequestSource r : requestSources) {
            try {
                r.close();
            } catch (RuntimeException e) {
                LOG.debug("closing a request source failed", e);
            }
        }
        try {
            client.close();
        } catch (RuntimeException e) {
            LOG.debug("closing the client failed", e);
        }
    }
}
