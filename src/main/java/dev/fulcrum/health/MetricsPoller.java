package dev.fulcrum.health;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.BackendMetrics;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.engine.strategy.score.ScoreFormula;
import dev.fulcrum.engine.strategy.score.Variable;
import dev.fulcrum.time.Cancellable;
import dev.fulcrum.time.Scheduler;
import dev.fulcrum.time.Ticker;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds the adaptive strategy: about once a second, {@code GET <url>/metrics.json} on every backend of a pool
 * that uses it, and {@link Backend#reportMetrics} with what it says
 * ({@code {"cpu":0..1,"inflight":N,"latencyMs":X}}, the shape demo backends serve, docs/REFERENCE.md §2.4). Backends of
 * pools with any other strategy are never asked.
 *
 * <p>Most real backends serve no such page. A backend that answers anything but 200 with those three
 * numbers, or refuses the connection, is left alone for {@code backoffMs} (a minute by default) before it is asked
 * again, so an ordinary server in an adaptive pool sees one stray 404 a minute, not one a second. One that does not
 * answer within the period is no such server: it, or this machine, is busy (a JVM's first request can take longer
 * than a second on a loaded machine), and a minute without its metrics would leave the strategy blind to the very
 * backend it should steer around. So it is asked again in the next round, and only after misses in a row left alone
 * for 1, 3, 7, ... periods, up to {@code backoffMs}; never more than one poll is out to a backend.
 * Polls are asynchronous and independent, like health probes.
 *
 * <p>Reports are stamped with the engine's ticker, the clock the adaptive strategy's
 * {@code staleAfterMs} is measured on. Rounds, poll deadlines and the back-off run on the {@link Scheduler}
 * given (its ticker), so a test moves a {@code ManualClock} and sees each round and each back-off end.
 */
public final class MetricsPoller implements AutoCloseable {
    public static final String PATH = "/metrics.json";
    public static final long DEFAULT_PERIOD_MS = 1000;
    public static final long DEFAULT_BACKOFF_MS = 60_000;
    /**
     * A metrics report is a few dozen bytes. A backend that answers {@code /metrics.json} with anything longer
     * (a catch-all route serving a large file) is not read into the heap: the poll stops at this many bytes.
     */
    static final int MAX_BODY_BYTES = 64 * 1024;
    private static final Logger log = LoggerFactory.getLogger(MetricsPoller.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Engine engine;
    private final long periodMs;
    private final long backoffNanos;
    private final Scheduler scheduler;
    private final boolean ownsScheduler;
    private final Ticker clock;
    private final HttpGetter http;
    private final Map<String, Long> backedOffUntil = new ConcurrentHashMap<>();
    /** Polls in a row that went unanswered within the period, by backend; a poll's end is the only writer. */
    private final Map<String, Integer> misses = new ConcurrentHashMap<>();
    private final Set<String> polling = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    // guarded by this
    private Cancellable rounds;

    /**
     * Once a second, a minute's back-off, on a scheduler of its own (thread {@code fulcrum-metrics}, the system
     * clock), shut down by {@link #close()}.
     */
    public MetricsPoller(Engine engine) {
        this(engine, DEFAULT_PERIOD_MS, DEFAULT_BACKOFF_MS, Scheduler.daemon("fulcrum-metrics"), true);
    }

    /** Rounds every {@code periodMs} on {@code scheduler}; its owner shuts it down, {@link #close()} does not. */
    public MetricsPoller(Engine engine, long periodMs, long backoffMs, Scheduler scheduler) {
        this(engine, periodMs, backoffMs, scheduler, false);
    }

    private MetricsPoller(Engine engine, long periodMs, long backoffMs, Scheduler scheduler, boolean ownsScheduler) {
        if (periodMs < 1) {
            throw new IllegalArgumentException("periodMs: must be at least 1 (got: " + periodMs + ")");
        }
        if (backoffMs < 0) {
            throw new IllegalArgumentException("backoffMs: must be at least 0 (got: " + backoffMs + ")");
        }
        this.engine = engine;
        this.periodMs = periodMs;
        this.backoffNanos = backoffMs * 1_000_000L;
        this.scheduler = scheduler;
        this.ownsScheduler = ownsScheduler;
        this.clock = scheduler.ticker();
        this.http = new HttpGetter("fulcrum-metrics", scheduler);
    }

    /** Starts polling every period, the first round at once. */
    public synchronized MetricsPoller start() {
        if (closed) {
            throw new IllegalStateException("metrics poller: closed");
        }
        if (rounds == null) {
            rounds = scheduler.scheduleAtFixedRate(this::roundSafely, 0, periodMs, TimeUnit.MILLISECONDS);
        }
        return this;
    }

    /**
     * One round now: polls every backend not backed off and not already being polled; completes when those
     * polls have finished (never exceptionally). The scheduler calls it; tests may too.
     */
    public CompletableFuture<Void> pollAll() {
        long now = clock.nanos();
        Set<String> ids = new HashSet<>();
        List<CompletableFuture<?>> out = new ArrayList<>();
        for (Backend b : engine.allBackends()) {
            ids.add(b.id());
            if (!usedByItsPool(b)) {
                continue;
            }
            Long until = backedOffUntil.get(b.id());
            if (until != null && now - until < 0) {
                continue;
            }
            if (polling.add(b.id())) {
                out.add(poll(b).whenComplete((r, e) -> polling.remove(b.id())));
            }
        }
        backedOffUntil.keySet().retainAll(ids);
        misses.keySet().retainAll(ids);
        return CompletableFuture.allOf(out.toArray(CompletableFuture[]::new));
    }

    /**
     * Only the adaptive strategy, and a score strategy whose formula reads {@code cpu}, read these metrics: a backend
     * in a pool with another strategy is not asked (a developer's own server would otherwise log a stray 404 for
     * /metrics.json every minute). A pool switched to one of them at run time is polled from the next round.
     */
    private boolean usedByItsPool(Backend b) {
        Pool p = engine.pool(b.pool());
        if (p == null) {
            return false;
        }
        StrategySpec spec = p.snapshot().spec();
        return StrategySpec.ADAPTIVE.equals(spec.type()) || StrategySpec.SCORE.equals(spec.type())
                && spec.option("score") instanceof String formula
                && ScoreFormula.problem(formula) == null
                && ScoreFormula.compile(formula).uses(Variable.CPU);
    }

    /** True while the backend is not being asked for metrics after a failed poll. */
    public boolean isBackedOff(String id) {
        Long until = backedOffUntil.get(id);
        return until != null && clock.nanos() - until < 0;
    }

    private CompletableFuture<Void> poll(Backend b) {
        return http.get(HttpGetter.resolve(b.url(), PATH), periodMs, MetricsPoller::cappedBody)
                .handle((response, error) -> {
                    BackendMetrics m = error == null ? parse(response) : null;
                    if (closed) {
                        return null;
                    }
                    if (m != null) {
                        backedOffUntil.remove(b.id());
                        misses.remove(b.id());
                        b.reportMetrics(m);
                    } else if (error instanceof TimeoutException) {
                        int n = misses.merge(b.id(), 1, Integer::sum);
                        long periods = (1L << Math.min(n - 1, 30)) - 1; // 0, 1, 3, 7, ...
                        long wait = Math.min(backoffNanos, periods * periodMs * 1_000_000L);
                        backedOffUntil.put(b.id(), clock.nanos() + wait);
                    } else {
                        misses.remove(b.id());
                        backedOffUntil.put(b.id(), clock.nanos() + backoffNanos);
                    }
                    return null;
                });
    }

    /** The report, or null when the answer is not a 200 with the three numbers. */
    private BackendMetrics parse(HttpResponse<byte[]> response) {
        if (response.statusCode() != 200 || response.body() == null) {
            return null;
        }
        try {
            JsonNode n = JSON.readTree(response.body());
            if (n == null || !n.path("cpu").isNumber() || !n.path("inflight").isNumber()
                    || !n.path("latencyMs").isNumber()) {
                return null;
            }
            double rawCpu = n.get("cpu").asDouble();
            double rawLatency = n.get("latencyMs").asDouble();
            if (!Double.isFinite(rawCpu) || !Double.isFinite(rawLatency) || !Double.isFinite(n.get("inflight").asDouble())) {
                // 1e999 parses as Infinity, and one infinite report would make every adaptive score NaN
                return null;
            }
            double cpu = Math.min(1, Math.max(0, rawCpu));
            int inflight = Math.max(0, n.get("inflight").asInt());
            double latency = Math.max(0, rawLatency);
            return new BackendMetrics(cpu, inflight, latency, engine.ticker().nanos());
        } catch (IOException e) {
            return null;
        }
    }

    /** The body as bytes, or null (connection dropped) once it is, or says it is, longer than the cap. */
    private static HttpResponse.BodySubscriber<byte[]> cappedBody(HttpResponse.ResponseInfo info) {
        long declared = info.headers().firstValueAsLong("Content-Length").orElse(-1);
        return new CappedBody(info.statusCode() == 200 && declared <= MAX_BODY_BYTES ? MAX_BODY_BYTES : -1);
    }

    private static final class CappedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final int max;
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private Flow.Subscription subscription;
        private byte[] bytes = new byte[0];

        CappedBody(int max) {
            this.max = max;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            if (max < 0) {
                s.cancel();
                result.complete(null);
            } else {
                s.request(1);
            }
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer b : items) {
                int n = b.remaining();
                if (bytes.length + n > max) {
                    subscription.cancel();
                    result.complete(null);
                    return;
                }
                byte[] grown = java.util.Arrays.copyOf(bytes, bytes.length + n);
                b.get(grown, bytes.length, n);
                bytes = grown;
            }
            subscription.request(1);
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(bytes);
        }
    }

    private void roundSafely() {
        try {
            pollAll();
        } catch (RuntimeException e) {
            log.warn("metrics poll round failed: {}", e.toString());
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (rounds != null) {
            rounds.cancel();
            rounds = null;
        }
        if (ownsScheduler) {
            scheduler.shutdown();
        }
    }
}
