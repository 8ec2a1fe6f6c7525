package dev.fulcrum.ui;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.RequestSource;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.time.Ticker;
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
 * engine's thread; they are queued and handed to the FX thread in batches with each sample (or each failed read, so
 * a remote engine's going away is listed while it is gone), so a burst of events costs one {@code runLater}, not
 * thousands. Samples reach the FX thread on {@link FxTicks}' grid (within
 * 1/4 s of being read), in the pulse the window draws then anyway.
 *
 * <p>Each sample handed over goes to the {@link TimeMachine} (what the views show: now, or a moment of the last five
 * minutes) and to {@link Staleness} (how old the figures are, which instance answers). Both read the session's
 * {@link Ticker}, the one clock of the window: tests give it a {@link dev.fulcrum.time.ManualClock}.
 */
public final class UiSession implements AutoCloseable {
    public static final long SAMPLE_PERIOD_MS = 250;
    /** The events view keeps this many; older ones scroll away (a guess at what a person reads back). */
    public static final int MAX_EVENTS = 5000;
    private static final Logger LOG = LoggerFactory.getLogger(UiSession.class);

    private final EngineClient client;
    private final Ticker ticker;
    private final ScheduledExecutorService worker;
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
    private final TimeMachine timeMachine;
    private final Staleness staleness;
    private final javafx.beans.property.StringProperty selectedBackend =
            new javafx.beans.property.SimpleStringProperty(this, "selectedBackend");
    private final AtomicReference<EngineState> latest = new AtomicReference<>();
    private final AtomicBoolean posted = new AtomicBoolean();
    private final String description;
    private final SessionTraffic traffic = new SessionTraffic(this);
    private volatile BreakerConfig breakerConfig;
    private volatile boolean closed;

    /** A session on the system clock. */
    public UiSession(EngineClient client, String description) {
        this(client, description, Ticker.system());
    }

    /**
     * @param client      the engine to manage
     * @param description what to put in the title (normally {@code client.describe()}, read once off the FX thread)
     * @param ticker      the window's clock: the time machine's, staleness', and the views' that read time
     */
    public UiSession(EngineClient client, String description, Ticker ticker) {
        this.client = client;
        this.description = description;
        this.ticker = ticker;
        this.timeMachine = new TimeMachine(ticker);
        // the window's own engine answers from this process: a slow answer is a busy machine, not an engine gone;
        // a restarted engine has none of this window's changes: undoing one would hit another engine
        this.staleness = new Staleness(ticker, !(client instanceof dev.fulcrum.admin.InProcessEngineClient),
                undo::clear);
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fulcrum-ui-engine");
            t.setDaemon(true);
            return t;
        });
    }

    /** Subscribes to events and starts sampling. Call once, from any thread. */
    public UiSession start() {
        worker.execute(() -> client.subscribe(e -> {
            if (!closed) { // a session handed over stops queueing what nobody will read
                pendingEvents.add(e);
            }
        }));
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
            staleness.answered(client instanceof dev.fulcrum.admin.HttpEngineClient h ? h.instance() : null);
            // at most one hand-over queued: if the FX thread is behind, it gets the newest state, not a backlog;
            // on the ticks' grid, so the views' changes share the pulse of the ticks due then
            if (posted.compareAndSet(false, true)) {
                FxTicks.soon(this::applySample);
            }
        } catch (RuntimeException e) {
            LOG.debug("state sample failed", e);
            String why = inWords(e);
            FxTicks.soon(() -> { // after any sample handed over before it, as the samples were read
                // the events that came meanwhile too: an engine gone says so in one ("disconnected")
                takeEvents();
                lastError.set(Texts.t("main.error.state", why));
                staleness.failed(state() != null);
            });
        }
    }

    /** On the FX thread: the newest state and every event that arrived since the last hand-over. */
    private void applySample() {
        posted.set(false);
        takeEvents();
        staleness.shown();
        timeMachine.sampled(staleness.lastAnswerWallMillis(), latest.get());
    }

    /** On the FX thread: every event that arrived since the last hand-over, to the events list and the timeline. */
    private void takeEvents() {
        List<EngineEvent> batch = new ArrayList<>();
        for (EngineEvent e; (e = pendingEvents.poll()) != null; ) {
            batch.add(e);
        }
        if (!batch.isEmpty()) {
            events.addAll(batch);
            if (events.size() > MAX_EVENTS) {
                events.remove(0, events.size() - MAX_EVENTS);
            }
            batch.forEach(timeMachine::event);
        }
    }

    // ---------------------------------------------------------------- the time machine

    /**
     * What the window saw over the last five minutes, and which moment the views show: while it looks back, every
     * view that reads {@link #stateProperty()} shows the recorded state of that moment instead of the live one.
     */
    public TimeMachine timeMachine() {
        return timeMachine;
    }

    /**
     * A pool's ring or Maglev table: as it was at the moment the views show, or fetched now (then kept for the time
     * machine). Blocks on the client when live: call it off the FX thread, from the session's worker.
     */
    public EngineClient.Ring ring(String pool) {
        long at = timeMachine.viewingAtProperty().get();
        if (at >= 0) {
            return timeMachine.ringAt(pool, at);
        }
        EngineClient.Ring r = client.ring(pool);
        long now = timeMachine.now();
        FxTicks.soon(() -> timeMachine.ring(pool, now, r));
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

    /**
     * The window's traffic generator, one run at a time: the Traffic tab and the Live toolbar start and stop this one,
     * and a lesson stops it as it starts to play ({@link SessionTraffic#stop()}).
     */
    public SessionTraffic traffic() {
        return traffic;
    }

    /** The window's clock: what the views read the time on. */
    public Ticker ticker() {
        return ticker;
    }

    /** How old the figures on screen are, and which engine instance answers. */
    public Staleness staleness() {
        return staleness;
    }

    /**
     * Whether the figures on screen are not live: a state sample failed, or a remote engine has not answered for
     * {@link Staleness#STALE_AFTER_MS}. Views grey their figures and disable their actions while it is set; the next
     * answer clears it. FX thread.
     */
    public javafx.beans.property.ReadOnlyBooleanProperty staleProperty() {
        return staleness.staleProperty();
    }

    public boolean stale() {
        return staleness.stale();
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
            return Texts.t("main.error.refused", where);
        }
        if (cause instanceof java.net.http.HttpTimeoutException) {
            return Texts.t("main.error.timeout", where);
        }
        if (cause instanceof java.io.IOException io) {
            return Texts.t("main.error.unreachable", where,
                    io.getMessage() == null ? Texts.t("main.error.lost") : io.getMessage());
        }
        if (e instanceof dev.fulcrum.engine.EngineException ee && ee.status() == 409
                && dev.fulcrum.admin.fleet.EtcdFleetClient.CHANGED.equals(ee.getMessage())) {
            // a fleet's config changed under this view: said in the window's language, the client's words kept
            return Texts.t("fleet.changed", ee.getMessage());
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /** The engine in words of the window's language: "embedded engine, proxy URL", "remote engine at URL", ... */
    public String description() {
        return inLanguage(description);
    }

    /**
     * {@code english}, a client's own description ({@link EngineClient#describe}, English as the API and logs are),
     * said in the window's language; one of another form is shown as it is.
     */
    static String inLanguage(String english) {
        for (String[] form : new String[][] {{"embedded engine, proxy ", "main.engine.embedded"},
                {"remote engine at ", "main.engine.remote"}, {"HAProxy fleet: ", "main.engine.fleet"},
                {"Fulcrum fleet ", "fleet.title"}}) {
            if (english.startsWith(form[0])) {
                return Texts.t(form[1], english.substring(form[0].length()));
            }
        }
        return english;
    }

    public UndoHistory undo() {
        return undo;
    }

    /**
     * The engine state the views show (null until the first sample arrives): the latest, or the one of the moment the
     * {@link #timeMachine()} looks back to. Changes on the FX thread only.
     */
    public ReadOnlyObjectProperty<EngineState> stateProperty() {
        return timeMachine.stateProperty();
    }

    public EngineState state() {
        return timeMachine.stateProperty().get();
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

    /** The backend the trainer last clicked (Live card, Backends row), for the present-mode keys; or null. */
    public javafx.beans.property.StringProperty selectedBackendProperty() {
        return selectedBackend;
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
        handOver();
        try {
            client.close();
        } catch (RuntimeException e) {
            LOG.debug("closing the client failed", e);
        }
    }

    /**
     * Stops this session (its sampling, a live replay and the request streams) but leaves the engine client open for
     * a new session on the same engine, the window built again in another language, and answers the traffic run going
     * (or null), which goes on for the new session to {@link SessionTraffic#adopt}.
     */
    public SessionTraffic.Run handOver() {
        closed = true;
        SessionTraffic.Run run = traffic.release();
        traffic.close();
        worker.shutdownNow();
        reader.shutdownNow();
        for (RequestSource r : requestSources) {
            try {
                r.close();
            } catch (RuntimeException e) {
                LOG.debug("closing a request source failed", e);
            }
        }
        return run;
    }
}
