package dev.fulcrum.demo;

import dev.fulcrum.engine.sim.KeyDistribution;
import dev.fulcrum.time.Cancellable;
import dev.fulcrum.time.Scheduler;
import dev.fulcrum.time.Ticker;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Workshop traffic: real HTTP requests through the proxy at a chosen rate, with keys drawn from a chosen
 * distribution, so the window has something to show and a strategy can be watched under load.
 *
 * <p><b>Open loop.</b> Send {@code i} is due at {@code start + i / rate}, whatever earlier requests are doing
 * (the way wrk2 and Gatling's open models pace), so a slow backend cannot quietly lower the offered load as it
 * would with a fixed number of looping clients. The pacer, a task on the generator's {@link Scheduler}, wakes
 * when the next send is due and hands the request to an asynchronous {@link HttpClient}; a late pacer (a busy
 * machine) sends what is due at once. A send due while {@code maxConcurrency} requests are outstanding is not
 * sent but counted as skipped: queuing it would hide overload behind a growing client-side queue.
 *
 * <p><b>Life cycle.</b> {@link #start()} begins; the run stops sending by itself when its duration is over
 * (or a replayed trace is exhausted) or at {@link #stop()}, then waits for the answers still outstanding
 * ({@link TrafficSnapshot.State#DRAINING}) and ends in {@link TrafficSnapshot.State#DONE}, completing
 * {@link #done()}. A generator runs once.
 *
 * <p><b>Observing.</b> {@link #snapshot()} at any time; listeners added with {@link #addListener} get a snapshot
 * about four times a second on a scheduler thread (not the JavaFX thread), and a last one at DONE.
 * {@link #recordTo} receives every request as it is sent (see {@link TrafficRecorder}).
 *
 * <p><b>Time.</b> Pacing, progress reports, elapsed time, rates and latencies all read the scheduler's ticker.
 * {@link #create(TrafficSettings)} makes two daemon schedulers on the system clock at {@link #start()} (threads
 * {@code fulcrum-traffic-pacer-1} and {@code fulcrum-traffic-listeners-1}, so a slow listener never delays a
 * send) and shuts them down at DONE. {@link #create(TrafficSettings, Scheduler)} runs both on the scheduler
 * given and only cancels its own tasks: with a {@code ManualClock}, advancing it by one second at 10 req/s sends
 * exactly ten requests (the answers still travel over the real network, on the HTTP client's threads).
 *
 * <p>Example: {@code TrafficGenerator.create(TrafficSettings.defaults(proxyUrl).withRate(200)).start()}.
 */
public final class TrafficGenerator implements AutoCloseable {
    /** Listener period: 4 Hz is smooth enough for a progress bar and cheap for the FX thread. */
    public static final long LISTENER_PERIOD_MS = 250;
    public static final String BACKEND_HEADER = "X-Fulcrum-Backend";
    private static final Logger LOG = LoggerFactory.getLogger(TrafficGenerator.class);
    private static final long SLOT_NANOS = 100_000_000L; // 100 ms rate slots
    private static final int SLOTS = 64;

    /** Which request is sent when: a paced rate or a replayed trace. */
    interface Plan {
        /** Offset of send {@code i} from the start in nanoseconds, or -1 when there is no send {@code i}. */
        long offsetNanos(long i);

        /** The request for send {@code i} (called once per i, in order). */
        TrafficRequest request(long i);
    }

    private final TrafficSettings settings;
    private final Plan plan;
    /** The scheduler given, or null: the generator makes its own two at start. */
    private final Scheduler given;
    private final Ticker ticker;
    private final long durationNanos;
    private final double targetRate;
    private final List<Consumer<TrafficSnapshot>> listeners = new CopyOnWriteArrayList<>();
    private volatile Consumer<TrafficRequest> recorder;
    private volatile Consumer<TrafficAnswer> answers;
    /** The header a request's class is sent in, or null: no classes ({@link #classes}). */
    private String classHeader;
    private String[] classNames;
    /** Each class's upper end on [0, 1), in the order of {@link #classNames}. */
    private double[] classEnds;
    /** Draws each send's class (pacer thread), apart from the plan's keys so a plan's key sequence stays its own. */
    private SplittableRandom classDraws;

    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong connectionErrors = new AtomicLong();
    private final AtomicLong timeouts = new AtomicLong();
    private final AtomicLong gets = new AtomicLong();
    private final AtomicLong posts = new AtomicLong();
    private final java.util.concurrent.atomic.AtomicBoolean unsendableWarned = new java.util.concurrent.atomic.AtomicBoolean();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Map<Integer, LongAdder> byStatus = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> byBackend = new ConcurrentHashMap<>();
    private final ConcurrentHistogram latencyMicros = new ConcurrentHistogram(3);
    /** What {@link #latency()} reads percentiles from: one copy reused, as a new one is 40-300 KB four times a second. */
    private final Histogram latencyCopy = new Histogram(3);
    private final long[] slotIndex = new long[SLOTS];
    private final long[] slotCount = new long[SLOTS];

    private final CompletableFuture<TrafficSnapshot> done = new CompletableFuture<>();
    private volatile TrafficSnapshot.State state = TrafficSnapshot.State.IDLE;
    private volatile boolean stopRequested;
    private volatile long startNanos;
    private volatile long endNanos; // set at DONE: elapsed freezes
    // set by start()
    private volatile Scheduler pacer;
    private volatile Scheduler reporter;
    private ExecutorService httpExecutor;
    private HttpClient client;
    private volatile Cancellable reports;
    /** The pacer's next wake-up (pacer thread, and stop() to cancel it). */
    private volatile Cancellable nextWakeUp;
    // pacer thread only: the next send, drawn from the plan once (index, offset, request; null when not drawn)
    private long nextIndex;
    private long nextDue;
    private TrafficRequest nextRequest;

    /** {@code scheduler} null: the generator makes its own at {@link #start()} and shuts them down at DONE. */
    TrafficGenerator(TrafficSettings settings, Plan plan, long durationNanos, double targetRate, Scheduler scheduler) {
        this.settings = settings;
        this.plan = plan;
        this.durationNanos = durationNanos;
        this.targetRate = targetRate;
        this.given = scheduler;
        this.ticker = scheduler == null ? Ticker.system() : scheduler.ticker();
        java.util.Arrays.fill(slotIndex, -1);
    }

    /** A generator for these settings: send {@code i} at {@code i / rate} seconds, until the duration is over. */
    public static TrafficGenerator create(TrafficSettings settings) {
        return create(settings, null);
    }

    /**
     * The same generator, paced and reporting on {@code scheduler} (null: schedulers of its own), whose owner
     * shuts it down.
     */
    public static TrafficGenerator create(TrafficSettings settings, Scheduler scheduler) {
        return new TrafficGenerator(settings, new RatePlan(settings), settings.duration().toNanos(),
                settings.ratePerSecond(), scheduler);
    }

    public TrafficSettings settings() {
        return settings;
    }

    /** Every request sent is handed to {@code sink} (on the pacer's thread) with its actual send offset. */
    public TrafficGenerator recordTo(Consumer<TrafficRequest> sink) {
        this.recorder = sink;
        return this;
    }

    /**
     * Every request's end is handed to {@code sink} as it comes (on the HTTP client's threads): who answered a
     * request sent when. Set before {@link #start()}.
     */
    public TrafficGenerator onAnswer(Consumer<TrafficAnswer> sink) {
        this.answers = sink;
        return this;
    }

    /**
     * Sends each request as one of several traffic classes: the class, drawn by {@code weights} (relative, each above
     * 0) from a sequence seeded by the settings' seed, goes in the header {@code header}, and each answer says it
     * ({@link TrafficAnswer#requestClass}). Example: {@code classes("X-Tier", Map.of("vip", 1.0, "batch", 9.0))}
     * sends one request in ten with {@code X-Tier: vip}. Set before {@link #start()}.
     */
    public synchronized TrafficGenerator classes(String header, Map<String, Double> weights) {
        if (state != TrafficSnapshot.State.IDLE) {
            throw new IllegalStateException("traffic generator: classes are set before start (state: " + state + ")");
        }
        if (header == null || !header.matches("[A-Za-z0-9!#$%&'*+.^_`|~-]+")) {
            throw new IllegalArgumentException("header: must be a header name (got: " + header + ")");
        }
        double total = 0;
        for (Map.Entry<String, Double> e : weights.entrySet()) {
            if (e.getValue() == null || !(e.getValue() > 0) || Double.isInfinite(e.getValue())) {
                throw new IllegalArgumentException("weights." + e.getKey() + ": must be above 0 (got: " + e.getValue()
                        + ")");
            }
            total += e.getValue();
        }
        if (weights.isEmpty()) {
            throw new IllegalArgumentException("weights: must name at least one class (got: {})");
        }
        classHeader = header;
        classNames = new String[weights.size()];
        classEnds = new double[weights.size()];
        int i = 0;
        double end = 0;
        for (Map.Entry<String, Double> e : weights.entrySet()) {
            end += e.getValue() / total;
            classNames[i] = e.getKey();
            classEnds[i++] = end;
        }
        classEnds[classEnds.length - 1] = 1.0;
        classDraws = new SplittableRandom(settings.seed() * 0x9E3779B97F4A7C15L + 1);
        return this;
    }

    public void addListener(Consumer<TrafficSnapshot> listener) {
        listeners.add(listener);
    }

    public void removeListener(Consumer<TrafficSnapshot> listener) {
        listeners.remove(listener);
    }

    /** Completes with the final snapshot once the run is DONE. */
    public CompletableFuture<TrafficSnapshot> done() {
        return done;
    }

    public TrafficSnapshot.State state() {
        return state;
    }

    /** Starts sending; a generator starts once. */
    public synchronized TrafficGenerator start() {
        if (state != TrafficSnapshot.State.IDLE) {
            throw new IllegalStateException("traffic generator: already started (state: " + state + ")");
        }
        httpExecutor = Executors.newCachedThreadPool(daemon("fulcrum-traffic-http"));
        client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.requestTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(httpExecutor)
                .build();
        pacer = given != null ? given : Scheduler.daemon("fulcrum-traffic-pacer-1");
        reporter = given != null ? given : Scheduler.daemon("fulcrum-traffic-listeners-1");
        state = TrafficSnapshot.State.RUNNING;
        startNanos = ticker.nanos();
        reports = reporter.scheduleAtFixedRate(this::notifyListeners, LISTENER_PERIOD_MS, LISTENER_PERIOD_MS,
                TimeUnit.MILLISECONDS);
        pacer.execute(this::pace);
        return this;
    }

    /** Stops sending now; answers still outstanding are awaited (see {@link #done()}). */
    public void stop() {
        stopRequested = true;
        Scheduler p;
        synchronized (this) {
            if (state == TrafficSnapshot.State.IDLE) {
                state = TrafficSnapshot.State.DONE;
                endNanos = ticker.nanos();
                startNanos = endNanos;
                done.complete(snapshot());
                return;
            }
            p = pacer;
        }
        cancel(nextWakeUp);
        p.execute(this::endPacing); // on the pacer's thread, after a pacing step under way there
    }

    /**
     * Stops and releases the generator's threads without waiting for outstanding answers: the run ends DONE at
     * once, completing {@link #done()} with the counts so far.
     */
    @Override
    public void close() {
        stop();
        cancel(reports);
        ExecutorService h = httpExecutor;
        if (h != null) {
            h.shutdownNow();
        }
        // answers still outstanding will not be counted any more: end the run here so done() completes
        synchronized (this) {
            if (state != TrafficSnapshot.State.DONE) {
                endNanos = ticker.nanos();
                state = TrafficSnapshot.State.DONE;
            }
        }
        releaseSchedulers();
        // completes done() unless the run did so already; also when the last report was still queued on a
        // scheduler shut down just now
        done.complete(snapshot());
    }

    // ---------------------------------------------------------------- pacing and sending

    /**
     * One pacing step, on the pacer's thread: sends every request due by now, then schedules itself for the next
     * one; when the plan has no next send, the run ends pacing (a paced run at the end of its duration).
     */
    private void pace() {
        try {
            while (!stopRequested) {
                if (nextRequest == null) {
                    long due = plan.offsetNanos(nextIndex);
                    if (due < 0 || due >= durationNanos) {
                        lastUntilTheEnd();
                        return;
                    }
                    nextDue = due;
                    nextRequest = plan.request(nextIndex);
                }
                long wait = startNanos + nextDue - ticker.nanos();
                if (wait > 0) {
                    nextWakeUp = pacer.schedule(this::pace, wait, TimeUnit.NANOSECONDS);
                    return;
                }
                TrafficRequest r = nextRequest;
                nextRequest = null;
                send(r, nextIndex++);
            }
        } catch (RuntimeException e) {
            LOG.error("traffic pacer failed", e);
        }
        endPacing();
    }

    /** A paced run lasts its whole duration even when the last send was due a moment before the end. */
    private void lastUntilTheEnd() {
        long wait = startNanos + durationNanos - ticker.nanos();
        if (plan instanceof RatePlan && wait > 0 && !stopRequested) {
            nextWakeUp = pacer.schedule(this::endPacing, wait, TimeUnit.NANOSECONDS);
        } else {
            endPacing();
        }
    }

    /** Sending is over (plan done, stop, or a failure): the run drains. Runs once or more; the first counts. */
    private void endPacing() {
        synchronized (this) {
            if (state == TrafficSnapshot.State.RUNNING) { // close() may have ended the run already
                state = TrafficSnapshot.State.DRAINING;
            }
        }
        finishIfDrained();
    }

    private void send(TrafficRequest planned, long seq) {
        // drawn for every send, skipped or not, so the same plan sends the same classes in the same order
        String requestClass = drawClass();
        if (inFlight.get() >= settings.maxConcurrency()) {
            skipped.incrementAndGet();
            return;
        }
        TrafficSettings.KeyPlacement placement = settings.keyPlacement();
        HttpRequest.Builder b;
        try {
            URI uri = settings.target().resolve(placement.pathFor(planned.path(), planned.key()));
            b = HttpRequest.newBuilder(uri).timeout(settings.requestTimeout());
            String[] header = placement.headerFor(planned.key());
            if (header != null) {
                b.header(header[0], header[1]);
            }
            if (requestClass != null) {
                b.header(classHeader, requestClass);
            }
        } catch (IllegalArgumentException e) {
            // one line of a replayed trace that is no request (a space in its path, a line break in its key) is
            // counted as an error and the run goes on: ending the pacer would leave every later request unsent
            sent.incrementAndGet();
            connectionErrors.incrementAndGet();
            if (unsendableWarned.compareAndSet(false, true)) {
                LOG.warn("traffic: request {} {} (key {}) cannot be sent: {}", planned.method(), planned.path(),
                        planned.key(), e.getMessage());
            }
            return;
        }
        if ("POST".equals(planned.method())) {
            String body = "{\"key\":\"" + new String(com.fasterxml.jackson.core.io.JsonStringEncoder.getInstance()
                    .quoteAsString(planned.key())) + "\",\"seq\":" + seq + "}";
            b.header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
            posts.incrementAndGet();
        } else {
            b.GET();
            gets.incrementAndGet();
        }
        long t0 = ticker.nanos();
        Consumer<TrafficRequest> rec = recorder;
        if (rec != null) {
            try {
                rec.accept(new TrafficRequest((t0 - startNanos) / 1000, planned.method(), planned.path(), planned.key()));
            } catch (RuntimeException e) {
                LOG.warn("traffic recorder failed; recording stops", e);
                recorder = null;
            }
        }
        inFlight.incrementAndGet();
        sent.incrementAndGet();
        try {
            client.sendAsync(b.build(), HttpResponse.BodyHandlers.discarding())
                    .whenComplete((response, error) -> finished(t0, requestClass, response, error));
        } catch (RuntimeException e) {
            finished(t0, requestClass, null, e);
        }
    }

    /** The next send's class, or null without classes. */
    private String drawClass() {
        SplittableRandom r = classDraws;
        if (r == null) {
            return null;
        }
        double x = r.nextDouble();
        for (int i = 0; i < classEnds.length; i++) {
            if (x < classEnds[i]) {
                return classNames[i];
            }
        }
        return classNames[classNames.length - 1];
    }

    private void finished(long t0, String requestClass, HttpResponse<Void> response, Throwable error) {
        long now = ticker.nanos();
        Consumer<TrafficAnswer> sink = answers;
        if (response != null) {
            completed.incrementAndGet();
            byStatus.computeIfAbsent(response.statusCode(), s -> new LongAdder()).increment();
            String backend = response.headers().firstValue(BACKEND_HEADER).orElse("-");
            byBackend.computeIfAbsent(backend, s -> new LongAdder()).increment();
            latencyMicros.recordValue(Math.max(0, (now - t0) / 1000));
            tell(sink, new TrafficAnswer(t0, backend, response.statusCode(), Math.max(0, (now - t0) / 1000),
                    requestClass));
        } else {
            tell(sink, new TrafficAnswer(t0, null, 0, Math.max(0, (now - t0) / 1000), requestClass));
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            if (cause instanceof HttpTimeoutException) {
                timeouts.incrementAndGet();
            } else {
                connectionErrors.incrementAndGet();
            }
        }
        countFinish(now);
        inFlight.decrementAndGet();
        finishIfDrained();
    }

    /** A failing answer listener is logged; the run's own counts must go on. */
    private static void tell(Consumer<TrafficAnswer> sink, TrafficAnswer a) {
        if (sink == null) {
            return;
        }
        try {
            sink.accept(a);
        } catch (RuntimeException e) {
            LOG.warn("traffic answer listener failed", e);
        }
    }

    private void countFinish(long now) {
        long slot = (now - startNanos) / SLOT_NANOS;
        int i = (int) (slot % SLOTS);
        synchronized (slotCount) {
            if (slotIndex[i] != slot) {
                slotIndex[i] = slot;
                slotCount[i] = 0;
            }
            slotCount[i]++;
        }
    }

    private void finishIfDrained() {
        if (state != TrafficSnapshot.State.DRAINING || inFlight.get() != 0) {
            return;
        }
        synchronized (this) {
            if (state != TrafficSnapshot.State.DRAINING) {
                return;
            }
            endNanos = ticker.nanos();
            state = TrafficSnapshot.State.DONE;
        }
        TrafficSnapshot last = snapshot();
        httpExecutor.shutdown();
        cancel(reports);
        cancel(nextWakeUp);
        // on the reporter's thread, after any progress report under way there, so that no DRAINING snapshot
        // reaches a listener after the final one (the Traffic tab would stay at "draining")
        reporter.execute(() -> {
            deliver(last);
            done.complete(last);
            releaseSchedulers();
        });
    }

    /** Shuts down the schedulers the generator made itself; a scheduler given to it is its owner's. */
    private synchronized void releaseSchedulers() {
        if (given == null && pacer != null) {
            pacer.shutdown();
            reporter.shutdown();
        }
    }

    private static void cancel(Cancellable task) {
        if (task != null) {
            task.cancel();
        }
    }

    private void notifyListeners() {
        if (state == TrafficSnapshot.State.DONE) {
            return; // the final snapshot is sent by finishIfDrained
        }
        deliver(snapshot());
    }

    private void deliver(TrafficSnapshot s) {
        for (Consumer<TrafficSnapshot> l : listeners) {
            try {
                l.accept(s);
            } catch (RuntimeException e) {
                LOG.warn("traffic listener failed", e);
            }
        }
    }

    // ---------------------------------------------------------------- observing

    /** The run so far (thread-safe, cheap: a histogram copy and a few counters). */
    public TrafficSnapshot snapshot() {
        TrafficSnapshot.State st = state;
        long now = st == TrafficSnapshot.State.DONE ? endNanos : ticker.nanos();
        long elapsed = st == TrafficSnapshot.State.IDLE ? 0 : Math.max(0, now - startNanos);
        long finishedCount = completed.get() + connectionErrors.get() + timeouts.get();
        double overall = elapsed == 0 ? 0 : finishedCount * 1e9 / elapsed;
        return new TrafficSnapshot(st, elapsed, durationNanos, sent.get(), completed.get(), skipped.get(),
                inFlight.get(), lastSecondRate(elapsed, overall), overall, targetRate, sortedInts(byStatus),
                connectionErrors.get(), timeouts.get(), latency(), sortedStrings(byBackend), gets.get(), posts.get());
    }

    /** Finishes per second over the ten full 100 ms slots before the current one (the overall rate before 1 s). */
    private double lastSecondRate(long elapsed, double overall) {
        long current = elapsed / SLOT_NANOS;
        if (current < 10) {
            return overall;
        }
        long sum = 0;
        synchronized (slotCount) {
            for (long s = current - 10; s < current; s++) {
                int i = (int) (s % SLOTS);
                if (slotIndex[i] == s) {
                    sum += slotCount[i];
                }
            }
        }
        return sum; // ten 100 ms slots: one second
    }

    private TrafficSnapshot.Latency latency() {
        synchronized (latencyCopy) {
            latencyMicros.copyInto(latencyCopy);
            if (latencyCopy.getTotalCount() == 0) {
                return TrafficSnapshot.Latency.NONE;
            }
            return new TrafficSnapshot.Latency(latencyCopy.getTotalCount(),
                    latencyCopy.getValueAtPercentile(50) / 1000.0, latencyCopy.getValueAtPercentile(90) / 1000.0,
                    latencyCopy.getValueAtPercentile(99) / 1000.0, latencyCopy.getValueAtPercentile(99.9) / 1000.0,
                    latencyCopy.getMaxValue() / 1000.0);
        }
    }

    private static Map<Integer, Long> sortedInts(Map<Integer, LongAdder> m) {
        Map<Integer, Long> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, v.sum()));
        return java.util.Collections.unmodifiableMap(out);
    }

    private static Map<String, Long> sortedStrings(Map<String, LongAdder> m) {
        Map<String, Long> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, v.sum()));
        return java.util.Collections.unmodifiableMap(out);
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    // ---------------------------------------------------------------- plans

    /**
     * Send {@code i} at {@code i / rate}; key and method drawn from one seeded sequence, so a seed always
     * gives the same requests in the same order.
     */
    static final class RatePlan implements Plan {
        private final TrafficSettings s;
        private final SplittableRandom random;
        private final KeyDistribution.Sampler keys;

        RatePlan(TrafficSettings s) {
            this.s = s;
            this.random = new SplittableRandom(s.seed());
            this.keys = s.keys().sampler();
        }

        @Override
        public long offsetNanos(long i) {
            return (long) (i * 1e9 / s.ratePerSecond());
        }

        @Override
        public TrafficRequest request(long i) {
            String key = keys.next(random);
            String method = random.nextDouble() < s.postShare() ? "POST" : "GET";
            return new TrafficRequest(offsetNanos(i) / 1000, method, s.path(), key);
        }
    }

    /** Send {@code i} at the recorded offset divided by the speed factor. */
    static final class TracePlan implements Plan {
        private final List<TrafficRequest> trace;
        private final double speed;

        TracePlan(List<TrafficRequest> trace, double speed) {
            this.trace = List.copyOf(trace);
            this.speed = speed;
        }

        @Override
        public long offsetNanos(long i) {
            return i < trace.size() ? (long) (trace.get((int) i).offsetMicros() * 1000 / speed) : -1;
        }

        @Override
        public TrafficRequest request(long i) {
            return trace.get((int) i);
        }
    }
}
