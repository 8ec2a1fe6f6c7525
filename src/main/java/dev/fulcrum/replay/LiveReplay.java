package dev.fulcrum.replay;

import dev.fulcrum.time.Cancellable;
import dev.fulcrum.time.Scheduler;
import dev.fulcrum.time.Ticker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a recording's requests through a proxy again, live, at their recorded offsets divided by a speed factor
 * (docs/REFERENCE.md §1, {@code --replay FILE [--speed X]}, and the Traffic tab's <i>Replay a recording…</i>).
 *
 * <p><b>Open loop.</b> With the recording's earliest request at {@code at_0}, request {@code i} is due at
 * {@code start + (at_i - at_0) / speed}, whatever the answers to earlier ones are doing: a slow backend does not
 * slow the replay down. A pacer on its own thread wakes when the next request is due and hands it to an
 * asynchronous {@link HttpClient}; it never waits for an answer. At most {@link #MAX_IN_FLIGHT} requests are
 * outstanding: a request due while that many are has to wait for a free slot, and counts as late whatever its
 * delay, as does one sent more than {@link #LATE_NANOS} after it was due (a busy machine, a pacer woken late).
 * Nothing is ever sent before its due time.
 *
 * <p><b>Streaming.</b> The recording is read twice, never held: once to count its requests and find its first and
 * last times (for the progress bar and {@code at_0}), then as the replay goes, at most {@link #READ_AHEAD} requests
 * ahead. That window also puts requests back in time order when a log has them slightly out of order (nginx writes
 * a line when a request ends, not when it began); one out of order by more than the window is sent as soon as it
 * is read, late.
 *
 * <p><b>What is sent.</b> The recorded method, target (path and query string, as recorded) and body where the
 * recording has one, and the headers {@link ReplayHeaders#kept} keeps, to the proxy's address: credentials and the
 * recorded connection's own headers are not sent again.
 *
 * <p><b>Life cycle.</b> {@link #start()} once; the replay ends by itself when every request was sent and answered,
 * or at {@link #cancel()}, which stops sending at once and awaits the answers already on their way. Listeners get a
 * {@link ReplayProgress} about four times a second on a thread of their own (never the pacer's), and the final one
 * at DONE; {@link #done()} completes with it. {@link #close()} ends everything at once.
 *
 * <p>Example: {@code LiveReplay.of(() -> requests.stream(), URI.create("http://127.0.0.1:8080"), 10).start()}.
 */
public final class LiveReplay implements AutoCloseable {
    /** The most requests outstanding at once: many more than a recording of a real site needs at 1x. */
    public static final int MAX_IN_FLIGHT = 256;
    /** A request sent more than this after its due time is late. */
    public static final long LATE_NANOS = 10_000_000L;
    /** How many requests the replay reads ahead of the one it sends next (and orders by time). */
    public static final int READ_AHEAD = 4096;
    public static final double MIN_SPEED = 0.01;
    public static final double MAX_SPEED = 1000;
    /** How often listeners hear of the replay: smooth enough for a progress bar, cheap for the FX thread. */
    public static final long LISTENER_PERIOD_MS = 250;
    /** A request that has no answer after this long has failed. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    private static final Logger LOG = LoggerFactory.getLogger(LiveReplay.class);

    /** Where a replay reads its requests: opened twice (a counting pass, then the sending pass), closed each time. */
    @FunctionalInterface
    public interface Source {
        /**
         * The recording's requests, in the order read.
         *
         * @throws IOException when it cannot be opened; a failure while reading may also come as an
         *                     {@link UncheckedIOException} from the stream
         */
        Stream<RecordedRequest> open() throws IOException;

        /** A source over requests already in memory (tests, small recordings). */
        static Source of(List<RecordedRequest> requests) {
            List<RecordedRequest> copy = List.copyOf(requests);
            return copy::stream;
        }
    }

    /**
     * What the counting pass finds, when the caller read the recording already (the command line checks it before
     * the proxy starts): the replay then reads it once more only.
     *
     * @param count         requests in it
     * @param firstAtMicros the earliest request's time ({@code at_0})
     * @param lastAtMicros  the latest's
     */
    public record Span(long count, long firstAtMicros, long lastAtMicros) {
        /** Reads {@code requests} to their end. */
        public static Span of(Iterator<RecordedRequest> requests) {
            long n = 0;
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            while (requests.hasNext()) {
                long at = requests.next().atMicros();
                n++;
                first = Math.min(first, at);
                last = Math.max(last, at);
            }
            return n == 0 ? new Span(0, 0, 0) : new Span(n, first, last);
        }
    }

    /** One request about to be sent: its place in the recording (ties keep reading order) and its due offset. */
    private record Due(RecordedRequest request, long seq) {
    }

    /**
     * One request as it was sent, for a listener of {@link #onSend}.
     *
     * @param request   as recorded
     * @param dueNanos  when it was due, after {@link #startedAtNanos()}
     * @param sentNanos when it was sent, after the same (never before {@code dueNanos})
     */
    public record Send(RecordedRequest request, long dueNanos, long sentNanos) {
    }

    private static final Comparator<Due> BY_TIME = Comparator.<Due>comparingLong(d -> d.request().atMicros())
            .thenComparingLong(Due::seq);

    private final Source source;
    private final Span known;
    private final URI target;
    private final double speed;
    private final Scheduler given;
    private final Ticker ticker;
    private final List<Consumer<ReplayProgress>> listeners = new CopyOnWriteArrayList<>();
    private final CompletableFuture<ReplayProgress> done = new CompletableFuture<>();
    private volatile Consumer<Send> sends;

    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong late = new AtomicLong();
    private final AtomicLong waitedForSlot = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Map<Integer, java.util.concurrent.atomic.LongAdder> byStatus =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** Send lateness in microseconds (pacer thread writes, snapshots copy under its lock). */
    private final Histogram lateness = new Histogram(3);
    private final AtomicBoolean pacerWaitsForSlot = new AtomicBoolean();

    private volatile ReplayProgress.State state = ReplayProgress.State.IDLE;
    private volatile boolean cancelled;
    private volatile String error;
    private volatile long total = -1;
    private volatile long recordedNanos;
    private volatile long startNanos;
    private volatile long lastSendNanos;
    private volatile long endNanos;
    private volatile Scheduler pacer;
    private volatile Scheduler reporter;
    private volatile Cancellable reports;
    private volatile Cancellable nextWakeUp;
    private ExecutorService httpExecutor;
    private HttpClient client;
    // pacer thread only
    private Stream<RecordedRequest> reading;
    private Iterator<RecordedRequest> input;
    private final PriorityQueue<Due> window = new PriorityQueue<>(BY_TIME);
    private long read;
    private long firstAtMicros;
    /**
     * The last time the pacer found every slot taken with a request due: each request due by then waited for a
     * slot, and counts as late when it goes (Long.MIN_VALUE: never).
     */
    private long capFullAt = Long.MIN_VALUE;

    private LiveReplay(Source source, Span known, URI target, double speed, Scheduler scheduler) {
        this.source = source;
        this.known = known;
        this.target = target;
        this.speed = speed;
        this.given = scheduler;
        this.ticker = scheduler == null ? Ticker.system() : scheduler.ticker();
    }

    /**
     * A replay (not started) of {@code source} through the proxy at {@code target} ({@code http://host:port}) at
     * {@code speed} (1 = as recorded, 10 = ten times faster).
     *
     * @throws IllegalArgumentException naming the speed when it is outside {@link #MIN_SPEED}..{@link #MAX_SPEED}
     */
    public static LiveReplay of(Source source, URI target, double speed) {
        return of(source, target, speed, null);
    }

    /** The same, paced and reporting on {@code scheduler} (null: two daemon threads of its own, ended at DONE). */
    public static LiveReplay of(Source source, URI target, double speed, Scheduler scheduler) {
        return of(source, null, target, speed, scheduler);
    }

    /** The same, with the recording's {@code span} known already (null: counted first); see {@link Span}. */
    public static LiveReplay of(Source source, Span span, URI target, double speed, Scheduler scheduler) {
        requireSpeed(speed);
        if (target == null || target.getScheme() == null || target.getHost() == null) {
            throw new IllegalArgumentException("target: must be http://HOST:PORT (got: " + target + ")");
        }
        return new LiveReplay(source, span, target, speed, scheduler);
    }

    /** @throws IllegalArgumentException {@code speed: must be between 0.01 and 1000 (got: 0.0)} */
    public static void requireSpeed(double speed) {
        if (!(speed >= MIN_SPEED && speed <= MAX_SPEED)) {
            throw new IllegalArgumentException("speed: must be between " + MIN_SPEED + " and " + (long) MAX_SPEED
                    + " (got: " + speed + ")");
        }
    }

    public double speed() {
        return speed;
    }

    public void addListener(Consumer<ReplayProgress> listener) {
        listeners.add(listener);
    }

    /**
     * Every request is handed to {@code sink} as it is sent, on the pacer's thread (so keep it quick): what was sent
     * when. Set before {@link #start()}.
     */
    public LiveReplay onSend(Consumer<Send> sink) {
        this.sends = sink;
        return this;
    }

    /** The ticker's time the due times count from: the first possible send, once the recording is counted. */
    public long startedAtNanos() {
        return startNanos;
    }

    /** Completes with the final progress once every answer is in (or the replay was closed). */
    public CompletableFuture<ReplayProgress> done() {
        return done;
    }

    /** Starts: counts the recording, then sends. A replay starts once. */
    public synchronized LiveReplay start() {
        if (state != ReplayProgress.State.IDLE) {
            throw new IllegalStateException("replay: already started (state: " + state + ")");
        }
        httpExecutor = Executors.newCachedThreadPool(daemon("fulcrum-replay-http"));
        client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(httpExecutor)
                .build();
        pacer = given != null ? given : Scheduler.daemon("fulcrum-replay-pacer");
        reporter = given != null ? given : Scheduler.daemon("fulcrum-replay-listeners");
        state = ReplayProgress.State.COUNTING;
        startNanos = ticker.nanos();
        reports = reporter.scheduleAtFixedRate(this::report, LISTENER_PERIOD_MS, LISTENER_PERIOD_MS,
                TimeUnit.MILLISECONDS);
        pacer.execute(this::begin);
        return this;
    }

    /** Stops sending now; the answers already on their way are awaited, then the replay is DONE. Any thread. */
    public void cancel() {
        cancelled = true;
        Scheduler p;
        synchronized (this) {
            if (state == ReplayProgress.State.IDLE) {
                state = ReplayProgress.State.DONE;
                done.complete(progress());
                return;
            }
            p = pacer;
        }
        Cancellable w = nextWakeUp;
        if (w != null) {
            w.cancel();
        }
        p.execute(this::endSending); // after a pacing step under way on the pacer's thread
    }

    /** Cancels and ends at once, without waiting for outstanding answers; {@link #done()} completes. */
    @Override
    public void close() {
        cancel();
        ExecutorService h = httpExecutor;
        if (h != null) {
            h.shutdownNow();
        }
        synchronized (this) {
            if (state != ReplayProgress.State.DONE) {
                endNanos = ticker.nanos();
                state = ReplayProgress.State.DONE;
            }
        }
        Cancellable r = reports;
        if (r != null) {
            r.cancel();
        }
        releaseSchedulers();
        done.complete(progress());
    }

    // ---------------------------------------------------------------- reading

    /** On the pacer: the counting pass, then the sending pass's first window, then pacing. */
    private void begin() {
        try {
            Span span = known;
            if (span == null) {
                try (Stream<RecordedRequest> s = source.open()) {
                    span = Span.of(s.takeWhile(r -> !cancelled).iterator());
                }
            }
            if (cancelled) {
                endSending();
                return;
            }
            firstAtMicros = span.firstAtMicros();
            recordedNanos = (span.lastAtMicros() - span.firstAtMicros()) * 1000;
            total = span.count();
            reading = source.open();
            input = reading.iterator();
            fill();
            startNanos = ticker.nanos(); // due times count from the first possible send, not from the counting
            state = ReplayProgress.State.SENDING;
            pace();
        } catch (IOException | RuntimeException e) {
            stopOn(e);
        }
    }

    /** Reads until the window holds {@link #READ_AHEAD} requests or the recording ends. Pacer thread. */
    private void fill() {
        while (window.size() < READ_AHEAD && input.hasNext()) {
            window.add(new Due(input.next(), read++));
        }
    }

    private void stopOn(Exception e) {
        Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
        error = cause.getMessage() == null ? cause.toString() : cause.getMessage();
        LOG.warn("replay: the recording could not be read on: {}", error);
        endSending();
    }

    // ---------------------------------------------------------------- pacing and sending

    /**
     * One pacing step, on the pacer's thread: sends every request due by now, then schedules itself for the next;
     * waits for a completion when {@link #MAX_IN_FLIGHT} are outstanding.
     */
    private void pace() {
        try {
            while (!cancelled) {
                Due next = window.peek();
                if (next == null) {
                    endSending();
                    return;
                }
                long due = startNanos + dueNanos(next.request());
                long now = ticker.nanos();
                if (now < due) {
                    Cancellable earlier = nextWakeUp;
                    if (earlier != null) {
                        earlier.cancel(); // one wake-up at a time, also when a completion ran this step early
                    }
                    nextWakeUp = pacer.schedule(this::pace, due - now, TimeUnit.NANOSECONDS);
                    return;
                }
                if (inFlight.get() >= MAX_IN_FLIGHT) {
                    capFullAt = now;
                    pacerWaitsForSlot.set(true);
                    if (inFlight.get() >= MAX_IN_FLIGHT) {
                        return; // a completion runs pace again
                    }
                    pacerWaitsForSlot.set(false); // a slot came free meanwhile
                }
                window.poll();
                send(next.request(), due, now, due <= capFullAt);
                fill();
            }
            endSending();
        } catch (RuntimeException e) {
            stopOn(e);
        }
    }

    /** Offset of a request's send from the start: its recorded offset over the speed, never negative. */
    private long dueNanos(RecordedRequest r) {
        return Math.max(0, (long) ((r.atMicros() - firstAtMicros) * 1000 / speed));
    }

    private void send(RecordedRequest r, long due, long now, boolean waited) {
        long latenessNanos = now - due;
        lastSendNanos = now;
        Consumer<Send> sink = sends;
        if (sink != null) {
            try {
                sink.accept(new Send(r, due - startNanos, now - startNanos));
            } catch (RuntimeException e) {
                LOG.warn("replay: a send listener failed; it hears no more", e);
                sends = null;
            }
        }
        sent.incrementAndGet();
        synchronized (lateness) {
            lateness.recordValue(Math.max(0, latenessNanos / 1000));
        }
        if (waited) {
            waitedForSlot.incrementAndGet();
        }
        if (waited || latenessNanos > LATE_NANOS) {
            late.incrementAndGet();
        }
        HttpRequest request;
        try {
            request = request(r);
        } catch (IllegalArgumentException e) {
            // one recorded request no HTTP request can carry (a space in its target, an unknown method) fails alone
            failed.incrementAndGet();
            LOG.debug("replay: line {}: {} {} cannot be sent: {}", r.line(), r.method(), r.target(), e.getMessage());
            return;
        }
        inFlight.incrementAndGet();
        try {
            client.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                    .whenComplete((response, failure) -> finished(response == null ? 0 : response.statusCode()));
        } catch (RuntimeException e) {
            finished(0);
        }
    }

    /** The HTTP request a recorded one is sent as. */
    HttpRequest request(RecordedRequest r) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(target, r.target())).timeout(REQUEST_TIMEOUT);
        for (Map.Entry<String, String> h : ReplayHeaders.kept(r.headers())) {
            try {
                b.header(h.getKey(), h.getValue());
            } catch (IllegalArgumentException e) {
                // a recorded header the HTTP client refuses (a name it reserves, a value with a line break) is left out
                LOG.debug("replay: line {}: header {} left out: {}", r.line(), h.getKey(), e.getMessage());
            }
        }
        b.method(r.method() == null ? "GET" : r.method(), r.body() == null || r.body().length == 0
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(r.body()));
        return b.build();
    }

    /**
     * The proxy's address with a recorded target: a path with its query string, an absolute URL (of which the path
     * and query are kept) or {@code *}; characters a URI may not carry (a space, a quote, non-ASCII) are
     * percent-encoded as their UTF-8 bytes, as a browser sends them.
     *
     * <p>Example: {@code uri(http://127.0.0.1:8080, "/a b?q=é")} is {@code http://127.0.0.1:8080/a%20b?q=%C3%A9}.
     */
    public static URI uri(URI proxy, String recordedTarget) {
        String t = recordedTarget == null || recordedTarget.isEmpty() ? "/" : recordedTarget;
        int scheme = t.indexOf("://");
        if (scheme > 0 && t.indexOf('/') > scheme) {
            int path = t.indexOf('/', scheme + 3);
            t = path < 0 ? "/" : t.substring(path);
        }
        if (!t.startsWith("/")) {
            t = "/" + t;
        }
        int hash = t.indexOf('#');
        if (hash >= 0) {
            t = t.substring(0, hash);
        }
        String base = proxy.getScheme() + "://" + proxy.getRawAuthority();
        return URI.create(base + escape(t));
    }

    private static final String ALLOWED = "-._~!$&'()*+,;=:@/?%";

    private static String escape(String t) {
        StringBuilder out = null;
        byte[] bytes = t.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            int c = bytes[i] & 0xff;
            boolean ok = c < 0x80 && (Character.isLetterOrDigit(c) || ALLOWED.indexOf(c) >= 0);
            if (ok && c == '%') {
                // a % that does not start an escape is itself escaped
                ok = i + 2 < bytes.length && isHex(bytes[i + 1]) && isHex(bytes[i + 2]);
            }
            if (!ok && out == null) {
                out = new StringBuilder(bytes.length + 16);
                out.append(new String(bytes, 0, i, StandardCharsets.US_ASCII));
            }
            if (out != null) {
                if (ok) {
                    out.append((char) c);
                } else {
                    out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                            .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
                }
            }
        }
        return out == null ? t : out.toString();
    }

    private static boolean isHex(byte b) {
        return Character.digit(b, 16) >= 0;
    }

    /** One request ended: with an answer of {@code status}, or none (0). */
    private void finished(int status) {
        if (status > 0) {
            byStatus.computeIfAbsent(status, s -> new java.util.concurrent.atomic.LongAdder()).increment();
            answered.incrementAndGet();
        } else {
            failed.incrementAndGet();
        }
        inFlight.decrementAndGet();
        if (pacerWaitsForSlot.compareAndSet(true, false)) {
            pacer.execute(this::pace);
        }
        finishIfDrained();
    }

    /** Sending is over (the recording done, cancel, or a failure): the replay drains. Pacer thread, or cancel. */
    private void endSending() {
        Cancellable w = nextWakeUp;
        if (w != null) {
            w.cancel();
        }
        Stream<RecordedRequest> r = reading;
        if (r != null) {
            reading = null;
            try {
                r.close();
            } catch (RuntimeException e) {
                LOG.debug("replay: closing the recording failed", e);
            }
        }
        window.clear();
        synchronized (this) {
            if (state == ReplayProgress.State.COUNTING || state == ReplayProgress.State.SENDING) {
                state = ReplayProgress.State.DRAINING;
            }
        }
        finishIfDrained();
    }

    private void finishIfDrained() {
        if (state != ReplayProgress.State.DRAINING || inFlight.get() != 0) {
            return;
        }
        synchronized (this) {
            if (state != ReplayProgress.State.DRAINING) {
                return;
            }
            endNanos = ticker.nanos();
            state = ReplayProgress.State.DONE;
        }
        ReplayProgress last = progress();
        httpExecutor.shutdown();
        reports.cancel();
        // on the reporter's thread, after a report under way there, so no SENDING progress follows the final one
        reporter.execute(() -> {
            deliver(last);
            done.complete(last);
            releaseSchedulers();
        });
    }

    private synchronized void releaseSchedulers() {
        if (given == null && pacer != null) {
            pacer.shutdown();
            reporter.shutdown();
        }
    }

    private void report() {
        if (state != ReplayProgress.State.DONE) {
            deliver(progress());
        }
    }

    private void deliver(ReplayProgress p) {
        for (Consumer<ReplayProgress> l : listeners) {
            try {
                l.accept(p);
            } catch (RuntimeException e) {
                LOG.warn("replay listener failed", e);
            }
        }
    }

    // ---------------------------------------------------------------- observing

    /** The replay so far (thread-safe). */
    public ReplayProgress progress() {
        ReplayProgress.State st = state;
        long now = st == ReplayProgress.State.DONE ? endNanos : ticker.nanos();
        long elapsed = st == ReplayProgress.State.IDLE ? 0 : Math.max(0, now - startNanos);
        long lastSend = lastSendNanos;
        double mean;
        double p99;
        double max;
        synchronized (lateness) {
            boolean none = lateness.getTotalCount() == 0;
            mean = none ? 0 : lateness.getMean() / 1000;
            p99 = none ? 0 : lateness.getValueAtPercentile(99) / 1000.0;
            max = none ? 0 : lateness.getMaxValue() / 1000.0;
        }
        return new ReplayProgress(st, total, sent.get(), answered.get(), failed.get(), late.get(),
                waitedForSlot.get(), inFlight.get(), elapsed, lastSend == 0 ? 0 : Math.max(0, lastSend - startNanos),
                recordedNanos, speed, mean, p99, max, error, statuses());
    }

    private Map<Integer, Long> statuses() {
        Map<Integer, Long> out = new java.util.TreeMap<>();
        byStatus.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
