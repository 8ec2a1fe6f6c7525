package dev.fulcrum.lesson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.demo.TrafficAnswer;
import dev.fulcrum.demo.TrafficGenerator;
import dev.fulcrum.demo.TrafficSnapshot;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.time.Ticker;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Plays a lesson's steps, one at a time and in order, against a real engine ({@link LessonEngine}): runs each step's
 * actions, waits for its condition, and checks its expectations on real figures: the answers to the lesson's own
 * seeded traffic ({@link TrafficGenerator}, counted by their {@code X-Fulcrum-Backend} header), requests sent one
 * after the other for exact pick sequences, ring lookups before and after for moved keys, the engine's state and
 * breaker events, and what the demo backends received. {@code --lesson FILE --check}, the build's check of every
 * shipped lesson and the window's lesson player all run steps through here; the window only adds a view.
 *
 * <p>A step's figures start when the step does: shares, answer counts and latency percentiles are of the requests
 * sent since it began (a run started in an earlier step goes on sending), answers by status and requests sent twice
 * are of the current traffic run as a whole. Time inside the engine (a breaker's open window, slow start) is real
 * time: a lesson keeps its waits short by choosing small {@code openMs} and {@code slowStartMs}, and starts a timer
 * its narration talks about in the step that talks about it (a {@code config} action).
 *
 * <p><b>The presenter's pace.</b> A step is <i>active</i> while {@link #run} plays it; between two steps the presenter
 * talks ({@link #talk} in the headless check, the time before Next in the window). A traffic run's {@code durationMs}
 * is spent only while a step is active: while the presenter talks the run goes on sending at its rate, so the room
 * keeps seeing traffic and the next step finds it still running, however long the talk. Example: a 1.5 s run started
 * by a step that waits 0.7 s, then 12 s of talk, then a step that waits for the run to end: it sends for 0.7 + 12 +
 * 0.8 s, and the last step sees requests in flight when it begins.
 *
 * <p>The runner owns its engine: {@link #close()} closes it (a fresh one stops; the window's own gets back the config
 * it ran before the lesson).
 *
 * <p>Threading: {@link #run} and {@link #talk} block (they wait in real time) and are called by one thread at a time;
 * {@link #stop} may be called from any thread and ends a wait at once. The interim listener is called on the running
 * thread about four times a second while a step waits. A run's budget is kept under its own lock; one daemon timer
 * thread ends a run whose budget is spent.
 */
public final class LessonRunner implements Action.Context, Figures, LessonPlayer.Steps {
    static final long INTERIM_MS = 250;
    private static final long POLL_MS = 50;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /**
     * The traffic generator's clock (it makes its own schedulers on the system clock), so sent times compare; and the
     * clock of every wait, since a lesson plays in real time.
     */
    private static final Ticker TICKER = Ticker.system();

    /** Longest a lesson's run sends in real time, talk included: a lesson left open at a projector stops one day. */
    private static final long MAX_RUN_MS = TimeUnit.MINUTES.toMillis(30);

    /** The engine events a step's expectations read: breaker transitions, guard rollbacks, split changes. */
    private static final java.util.Set<String> KEPT_EVENTS = java.util.Set.of("breaker", "guard", "split");

    private final Lesson lesson;
    private final LessonEngine engine;
    private final EngineClient client;
    private final URI proxy;
    private final ExecutorService httpThreads;
    private final HttpClient http;
    private final List<EngineEvent> events = new ArrayList<>();
    private final Object lock = new Object();
    private final AtomicReference<List<EngineEvent>> eventSink;
    private volatile Consumer<StepReport> interim = r -> { };
    private volatile boolean stopped;
    /** The step whose wait the presenter cut short by moving on ({@link #hurry}), or -1. */
    private volatile int hurried = -1;
    /** The step {@link #run} plays now, or -1 between steps. */
    private volatile int underWay = -1;
    private int next;

    // the lesson's traffic
    private volatile TrafficGenerator traffic;
    private final Budget budget = new Budget();
    private Map<String, Long> receivedAtTrafficStart = Map.of();

    /** How the current run's requests ended, in the order their ends came. */
    private final List<TrafficAnswer> runAnswers = new ArrayList<>();

    // the step under way
    private volatile long stepStartNanos;
    private int eventMark;
    private Map<String, String> keysBefore = Map.of();
    private EngineClient.Preview preview;
    /** Where the counters a step counts from stood when it began (empty unless it has such an expectation). */
    private Map<String, Long> mirroredAtStart = Map.of();
    private EngineState stateAtStart;
    /** The run under way when the step began, and how many requests it had sent then. */
    private TrafficGenerator runAtStart;
    private long sentAtStart;

    /** A runner of {@code lesson} on {@code engine}, which it owns from now on (see {@link #close()}). */
    public LessonRunner(Lesson lesson, LessonEngine engine) {
        this.lesson = lesson;
        this.engine = engine;
        this.client = engine.client();
        this.proxy = engine.proxy();
        this.httpThreads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fulcrum-lesson-http");
            t.setDaemon(true);
            return t;
        });
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(httpThreads)
                .connectTimeout(Duration.ofSeconds(5)).build();
        // an engine client has no unsubscribe: once closed, the listener lets go of this runner
        AtomicReference<List<EngineEvent>> sink = new AtomicReference<>(events);
        this.eventSink = sink;
        client.subscribe(e -> {
            List<EngineEvent> to = sink.get();
            if (to != null && KEPT_EVENTS.contains(e.type())) {
                synchronized (to) {
                    to.add(e);
                }
            }
        });
    }

    public Lesson lesson() {
        return lesson;
    }

    /** Told of each step's figures as they come in while it waits; replaces the one before. */
    public void onInterim(Consumer<StepReport> listener) {
        this.interim = listener == null ? r -> { } : listener;
    }

    /** The step {@link #run} plays next, counted from 0. */
    public int nextStep() {
        synchronized (lock) {
            return next;
        }
    }

    /**
     * Plays step {@code step} (the next one: steps run in order) and returns what it showed.
     *
     * @throws IllegalArgumentException for a step that is not the next one
     */
    public StepReport run(int step) {
        synchronized (lock) {
            if (step != next || step >= lesson.steps().size()) {
                throw new IllegalArgumentException("step: must be the next one, " + next + " (got: " + step + ")");
            }
            next++;
        }
        Step s = lesson.steps().get(step);
        List<Check> problems = new ArrayList<>();
        underWay = step;
        begin(s);
        budget.resume();
        try {
            for (Action a : s.actions()) {
                if (stopped) {
                    break;
                }
                try {
                    a.run(this);
                } catch (RuntimeException e) {
                    problems.add(Check.of(false, Check.words("lesson.check.action_failed", a.describe(),
                            e.getMessage())));
                }
            }
            if (s.waitFor() != null && !stopped) {
                Check timedOut = await(step, s, s.waitFor());
                if (timedOut != null) {
                    problems.add(timedOut);
                }
            }
            List<Check> out = new ArrayList<>(problems);
            for (Expectation e : s.expect()) {
                out.add(check(e));
            }
            return new StepReport(step, out, true);
        } finally {
            budget.pause();
            underWay = -1;
        }
    }

    /** The presenter moves on: the wait of {@code step}, under way or to come, ends at once. */
    @Override
    public void hurry(int step) {
        hurried = step;
        synchronized (lock) {
            lock.notifyAll();
        }
    }

    /** Whether the wait under way should end now: the lesson stopped, or the presenter moved on. */
    private boolean cutShort() {
        return stopped || (underWay >= 0 && hurried == underWay);
    }

    /**
     * The presenter talks for {@code ms} before the next step (the headless check's {@code --step-pause}): nothing is
     * done, the traffic goes on sending and the engine's timers run, as in front of a room. {@link #stop} ends it.
     */
    public void talk(long ms) {
        sleepUntil(TICKER.nanos() + TimeUnit.MILLISECONDS.toNanos(ms));
    }

    /** {@link #run(int)} with {@code interim} told of the step's figures as they come in. */
    @Override
    public StepReport run(int step, Consumer<StepReport> interim) {
        onInterim(interim);
        return run(step);
    }

    /** Ends a wait under way and any later one at once; the step's expectations are still checked. */
    @Override
    public void stop() {
        stopped = true;
        synchronized (lock) {
            lock.notifyAll();
        }
    }

    /** Stops the traffic and the runner's threads, then closes the engine (the window's gets its config back). */
    @Override
    public void close() {
        stop();
        eventSink.set(null);
        budget.close();
        TrafficGenerator t = traffic;
        if (t != null) {
            t.close();
        }
        httpThreads.shutdownNow();
        engine.close();
    }

    // ------------------------------------------------------------------ a step

    private void begin(Step s) {
        stepStartNanos = TICKER.nanos();
        synchronized (events) {
            eventMark = events.size();
        }
        preview = null;
        int keys = s.expect().stream().mapToInt(Expectation::keysToRemember).max().orElse(0);
        keysBefore = keys == 0 ? Map.of() : lookups(keys);
        boolean counts = s.expect().stream().anyMatch(Expectation::countsFromStepStart)
                || s.waitFor() != null && s.waitFor().condition().countsFromStepStart();
        mirroredAtStart = counts ? mirroredByBackend() : Map.of();
        runAtStart = traffic;
        sentAtStart = runAtStart == null ? 0 : runAtStart.snapshot().sent();
        stateAtStart = counts ? client.state() : null;
    }

    /** Polls the condition until it holds; the failed line when the timeout came first. */
    private Check await(int step, Step s, WaitFor w) {
        long deadline = TICKER.nanos() + TimeUnit.MILLISECONDS.toNanos(w.timeoutMs());
        long nextInterim = 0;
        while (true) {
            Check c = check(w.condition());
            if (c.ok()) {
                return null;
            }
            long now = TICKER.nanos();
            if (hurried == step && !stopped) {
                return Check.of(false, Check.words("lesson.check.moved_on",
                        Bound.number(Math.round((now - stepStartNanos) / 1e8) / 10.0), WaitFor.what(w.condition()),
                        c.text()));
            }
            if (now - deadline >= 0 || stopped) {
                return Check.of(false, Check.words("lesson.check.waited", Bound.number(w.timeoutMs() / 1000.0),
                        WaitFor.what(w.condition()), c.text()));
            }
            if (now - nextInterim >= 0) {
                interim.accept(interimReport(step, s));
                nextInterim = now + TimeUnit.MILLISECONDS.toNanos(INTERIM_MS);
            }
            sleepUntil(Math.min(deadline, now + TimeUnit.MILLISECONDS.toNanos(POLL_MS)));
        }
    }

    private StepReport interimReport(int step, Step s) {
        List<Check> out = new ArrayList<>();
        for (Expectation e : s.expect()) {
            out.add(e.passive() ? check(e) : null);
        }
        out.removeIf(java.util.Objects::isNull);
        return new StepReport(step, out, false);
    }

    private Check check(Expectation e) {
        try {
            return e.check(this);
        } catch (RuntimeException ex) {
            return Check.of(false, e.getClass().getSimpleName() + ": " + ex.getMessage());
        }
    }

    private void sleepUntil(long deadlineNanos) {
        synchronized (lock) {
            long left;
            while (!cutShort() && (left = deadlineNanos - TICKER.nanos()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    stopped = true;
                }
            }
        }
    }

    // ------------------------------------------------------------------ Action.Context

    @Override
    public EngineClient client() {
        return client;
    }

    @Override
    public String pool() {
        return Engine.DEFAULT_POOL;
    }

    @Override
    public void startTraffic(TrafficPlan plan) {
        stopTraffic();
        receivedAtTrafficStart = received();
        synchronized (runAnswers) {
            runAnswers.clear();
        }
        TrafficGenerator t = plan.generator(plan.settings(proxy)
                .withDuration(Duration.ofMillis(Math.max(plan.durationMs(), MAX_RUN_MS))));
        t.onAnswer(a -> {
            synchronized (runAnswers) {
                runAnswers.add(a);
            }
        });
        traffic = t.start();
        budget.start(t, plan.durationMs());
    }

    @Override
    public void stopTraffic() {
        budget.start(null, 0);
        TrafficGenerator t = traffic;
        if (t != null) {
            t.stop();
        }
    }

    @Override
    public void patchConfig(JsonNode patch) {
        apply(ConfigPatch.merge(runningConfig(), patch));
    }

    /** The engine's config as it runs now, as a tree to change. */
    private ObjectNode runningConfig() {
        try {
            return (ObjectNode) MAPPER.readTree(client.configJson());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the running config: " + e.getMessage(), e);
        }
    }

    private void apply(JsonNode config) {
        List<String> problems = client.applyConfig(config.toString());
        if (!problems.isEmpty()) {
            throw new IllegalStateException(String.join("; ", problems));
        }
    }

    @Override
    public void addDemo(String id, int weight, long latencyMs, double errorRate) {
        ObjectNode config = runningConfig();
        JsonNode existing = config.get("demoBackends");
        ArrayNode demos = existing instanceof ArrayNode a ? a : config.putArray("demoBackends");
        demos.addObject().put("id", id).put("port", 0).put("weight", weight).put("latencyMs", latencyMs)
                .put("errorRate", errorRate);
        apply(config);
    }

    @Override
    public void keepPreview(EngineClient.Preview p) {
        preview = p;
    }

    @Override
    public void pause(long ms) {
        long deadline = TICKER.nanos() + TimeUnit.MILLISECONDS.toNanos(ms);
        int step = nextStep() - 1;
        Step s = lesson.steps().get(step);
        while (!cutShort() && deadline - TICKER.nanos() > 0) {
            sleepUntil(Math.min(deadline, TICKER.nanos() + TimeUnit.MILLISECONDS.toNanos(INTERIM_MS)));
            interim.accept(interimReport(step, s));
        }
    }

    // ------------------------------------------------------------------ Figures

    @Override
    public List<TrafficAnswer> answers() {
        long since = stepStartNanos;
        synchronized (runAnswers) {
            List<TrafficAnswer> out = new ArrayList<>();
            for (TrafficAnswer a : runAnswers) {
                if (a.sentNanos() - since >= 0) {
                    out.add(a);
                }
            }
            return out;
        }
    }

    @Override
    public long sentSinceStepStart() {
        TrafficGenerator t = traffic;
        if (t == null) {
            return 0;
        }
        // a run the step started counts from 0; one it found running, from where it stood
        return t.snapshot().sent() - (t == runAtStart ? sentAtStart : 0);
    }

    @Override
    public List<TrafficAnswer> runAnswers() {
        synchronized (runAnswers) {
            return new ArrayList<>(runAnswers);
        }
    }

    @Override
    public TrafficSnapshot traffic() {
        TrafficGenerator t = traffic;
        return t == null ? null : t.snapshot();
    }

    @Override
    public long receivedSinceTrafficStart(String method) {
        return received().getOrDefault(method, 0L) - receivedAtTrafficStart.getOrDefault(method, 0L);
    }

    /** What every demo backend received, by method, summed. */
    private Map<String, Long> received() {
        Map<String, Long> out = new HashMap<>();
        for (Map<String, Object> d : client.demoState().values()) {
            if (d.get("received") instanceof Map<?, ?> m) {
                m.forEach((method, n) -> out.merge(String.valueOf(method), ((Number) n).longValue(), Long::sum));
            }
        }
        return out;
    }

    @Override
    public EngineState state() {
        return client.state();
    }

    @Override
    public List<EngineEvent> breakerEvents(String backend) {
        synchronized (events) {
            return events.subList(eventMark, events.size()).stream().filter(e -> backend.equals(e.backend())).toList();
        }
    }

    @Override
    public List<EngineEvent> events(String type) {
        synchronized (events) {
            return events.subList(eventMark, events.size()).stream().filter(e -> type.equals(e.type())).toList();
        }
    }

    @Override
    public long mirroredSinceStepStart(String pool) {
        java.util.Set<String> members = Expectation.members(client.state(), pool);
        long n = 0;
        for (Map.Entry<String, Long> e : mirroredByBackend().entrySet()) {
            if (members.contains(e.getKey())) {
                n += e.getValue() - mirroredAtStart.getOrDefault(e.getKey(), 0L);
            }
        }
        return n;
    }

    /** Copies marked as mirrored each demo backend received since it started. */
    private Map<String, Long> mirroredByBackend() {
        Map<String, Long> out = new HashMap<>();
        client.demoState().forEach((id, d) -> {
            if (d.get("mirrored") instanceof Number n) {
                out.put(id, n.longValue());
            }
        });
        return out;
    }

    @Override
    public EngineState.MirrorCounts mirrorCountsSinceStepStart(String pool) {
        EngineState.MirrorCounts now = mirrorCounts(client.state(), pool);
        EngineState.MirrorCounts then = mirrorCounts(stateAtStart, pool);
        return new EngineState.MirrorCounts(now.sent() - then.sent(), now.errors() - then.errors(),
                now.failed() - then.failed(), now.tooLarge() - then.tooLarge(), now.dropped() - then.dropped());
    }

    private static EngineState.MirrorCounts mirrorCounts(EngineState s, String pool) {
        EngineState.PoolInfo p = s == null || s.pools() == null ? null : s.pools().get(pool);
        return p == null || p.mirror() == null ? new EngineState.MirrorCounts(0, 0, 0, 0, 0) : p.mirror();
    }

    @Override
    public long shedSinceStepStart(Integer route) {
        return shed(client.state(), route) - shed(stateAtStart, route);
    }

    private static long shed(EngineState s, Integer route) {
        long n = 0;
        if (s != null && s.routes() != null) {
            for (EngineState.RouteInfo r : s.routes()) {
                if (route == null || r.index() == route) {
                    n += r.shed();
                }
            }
        }
        return n;
    }

    @Override
    public List<String> picks(int n, String path, Map<String, String> headers) {
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            HttpRequest.Builder b = HttpRequest.newBuilder(proxy.resolve(path)).timeout(Duration.ofSeconds(5)).GET();
            headers.forEach(b::header);
            try {
                HttpResponse<Void> r = http.send(b.build(), HttpResponse.BodyHandlers.discarding());
                out.add(r.headers().firstValue(TrafficGenerator.BACKEND_HEADER).orElse("-"));
            } catch (IOException e) {
                out.add("-");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return out;
    }

    @Override
    public Map<String, String> keysBefore(int keys) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < keys && keysBefore.containsKey("k" + i); i++) {
            out.put("k" + i, keysBefore.get("k" + i));
        }
        return out;
    }

    @Override
    public Map<String, String> keysNow(int keys) {
        return lookups(keys);
    }

    private Map<String, String> lookups(int keys) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < keys; i++) {
            String key = "k" + i;
            out.put(key, client.lookup(pool(), key).backend());
        }
        return out;
    }

    @Override
    public EngineClient.Ring ring() {
        return client.ring(pool());
    }

    @Override
    public EngineClient.Preview lastPreview() {
        return preview;
    }

    @Override
    public Map<String, Map<String, Object>> demoState() {
        return client.demoState();
    }

    /**
     * How much of the current traffic run's {@code durationMs} is left, spent only while a step is active; the run is
     * stopped when none is left (on the timer thread, or at once when a step resumes with none).
     */
    private static final class Budget {
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fulcrum-lesson-traffic-end");
            t.setDaemon(true);
            return t;
        });
        private TrafficGenerator run;
        private long leftNanos;
        /** When the active time under way began, or -1 while the presenter talks. */
        private long activeSince = -1;
        private ScheduledFuture<?> end;

        /** A new run with {@code ms} to spend (null: none), started during an active step. */
        synchronized void start(TrafficGenerator g, long ms) {
            cancel();
            run = g;
            leftNanos = TimeUnit.MILLISECONDS.toNanos(ms);
            if (activeSince >= 0) {
                activeSince = TICKER.nanos();
                schedule();
            }
        }

        synchronized void resume() {
            activeSince = TICKER.nanos();
            schedule();
        }

        synchronized void pause() {
            if (activeSince >= 0) {
                leftNanos -= TICKER.nanos() - activeSince;
                activeSince = -1;
            }
            cancel();
        }

        synchronized void close() {
            cancel();
            run = null;
            timer.shutdownNow();
        }

        private void schedule() {
            TrafficGenerator g = run;
            if (g == null || timer.isShutdown()) {
                return;
            }
            if (leftNanos <= 0) {
                g.stop();
                run = null;
                return;
            }
            end = timer.schedule(() -> {
                synchronized (this) {
                    if (run == g) {
                        g.stop();
                        run = null;
                    }
                }
            }, leftNanos, TimeUnit.NANOSECONDS);
        }

        private void cancel() {
            if (end != null) {
                end.cancel(false);
                end = null;
            }
        }
    }
}
