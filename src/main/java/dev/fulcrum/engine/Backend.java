package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.time.Ticker;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One backend server, long-lived across snapshots so its counters, breaker and EWMA survive reweights.
 *
 * <p>Who owns what: the fields under "control" are read and written only by the engine's control thread
 * and reach request threads only through an immutable {@link PoolSnapshot}; the counters, the breaker and
 * the EWMA are written by request threads through atomics and read by anyone.
 */
public final class Backend implements Comparable<Backend> {
    private final String id;
    private final String pool;
    private final URI url;
    private final String authority;
    private final String host;
    private final int port;
    private final int maxInFlight; // 0 = no cap
    private final boolean backup;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger consecutiveFailures = new AtomicInteger();
    private final BackendStats stats = new BackendStats();
    private final CircuitBreaker.Listener breakerListener;
    private final Ticker ticker;
    private volatile CircuitBreaker breaker; // replaced (control thread) when the breaker settings change
    private volatile PeakEwma ewma;
    private volatile BackendMetrics metrics;
    private volatile java.util.Map<String, String> labels; // replaced whole (control thread) when a config changes them

    // control: owned by the control thread; in brackets, the class whose job each field serves
    int weight; // [PoolControl]
    HealthStatus health = HealthStatus.UNKNOWN; // [ProbeHysteresis]
    volatile boolean draining; // [PoolControl] volatile: request threads read it (tryAcquire, Pool.release)
    int probeStreak; // [ProbeHysteresis] > 0 successes in a row, < 0 failures in a row
    boolean removeWhenDrained; // [PoolControl]
    long ejectedUntilNanos = Long.MIN_VALUE; // [OutlierEjection] MIN = not ejected
    int timesEjected; // [OutlierEjection]
    /**
     * [OutlierEjection] back in rotation after an ejection, with no request to it nor active probe succeeded since:
     * nothing has shown it works. Volatile: the control thread sets it, a request thread's success clears it.
     */
    volatile boolean unverified;
    long upSinceNanos; // [SlowStart] MIN = not ramping
    /**
     * [PoolControl] when it joined a running pool (ticker nanos), set once before the snapshot that first holds it;
     * MIN = present when the pool started. The score strategy's cold start reads it.
     */
    long joinedAtNanos = Long.MIN_VALUE;
    BackendState lastReportedState = BackendState.UP; // [PoolControl] the state the last event told
    final BreakerEventOrder breakerEvents = new BreakerEventOrder();

    Backend(String pool, BackendSpec spec, CircuitBreaker.Listener breakerListener, BreakerSpec breakerSpec,
            Ticker ticker, long decayMs) {
        this.id = spec.id();
        this.pool = pool;
        this.url = URI.create(spec.url());
        this.host = url.getHost();
        this.port = url.getPort() > 0 ? url.getPort() : 80;
        this.authority = host + ":" + port;
        this.maxInFlight = spec.maxInFlight() == null ? 0 : spec.maxInFlight();
        this.backup = spec.backup();
        this.weight = spec.weight();
        this.labels = spec.labels();
        this.breakerListener = breakerListener;
        this.ticker = ticker;
        this.breaker = new CircuitBreaker(breakerSpec, ticker, breakerListener);
        this.ewma = new PeakEwma(ticker, decayMs);
        this.upSinceNanos = Long.MIN_VALUE; // configured at start: no slow start
    }

    public String id() {
        return id;
    }

    public String pool() {
        return pool;
    }

    public URI url() {
        return url;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    /** {@code host:port}, as a Host header names the backend. */
    public String authority() {
        return authority;
    }

    public boolean isBackup() {
        return backup;
    }

    /** 0 when uncapped. */
    public int maxInFlight() {
        return maxInFlight;
    }

    public int inFlight() {
        return inFlight.get();
    }

    public CircuitBreaker breaker() {
        return breaker;
    }

    /**
     * A fresh CLOSED breaker with new settings (control thread). Requests admitted by the old one report to
     * it (their {@link Lease} keeps it), so they cannot disturb the new window.
     *
     * @return the breaker it replaces
     */
    CircuitBreaker replaceBreaker(BreakerSpec spec) {
        CircuitBreaker old = breaker;
        breaker = new CircuitBreaker(spec, ticker, breakerListener);
        breakerEvents.reset();
        return old;
    }

    public BackendStats stats() {
        return stats;
    }

    public PeakEwma ewma() {
        return ewma;
    }

    void resetEwma(Ticker ticker, long decayMs) {
        ewma = new PeakEwma(ticker, decayMs);
    }

    /**
     * The configured weight, as the control thread last set it. A strategy reads it when it is built (on the control
     * thread); from a request thread it may be one reweight behind.
     */
    public int weight() {
        return weight;
    }

    /** When it joined its pool after the pool started (ticker nanos), or {@link Long#MIN_VALUE} when it was there. */
    public long joinedAtNanos() {
        return joinedAtNanos;
    }

    /** Its labels, sorted by name, never null (docs/REFERENCE.md §2.1 {@code labels}). */
    public java.util.Map<String, String> labels() {
        return labels;
    }

    /** The label {@code name}, or null. */
    public String label(String name) {
        return labels.get(name);
    }

    /** Control thread: a config gave this backend other labels. */
    void relabel(java.util.Map<String, String> newLabels) {
        this.labels = newLabels == null ? java.util.Map.of() : newLabels;
    }

    public BackendMetrics metrics() {
        return metrics;
    }

    /** Written by the metrics poller. */
    public void reportMetrics(BackendMetrics m) {
        this.metrics = m;
    }

    /**
     * Under its in-flight cap, not draining, and admitted by its breaker: may take one more request now.
     * (Draining is checked here too because a request may hold a snapshot from before the drain.)
     */
    public boolean admitsAnother() {
        return (maxInFlight == 0 || inFlight.get() < maxInFlight) && !draining && breaker.permitsAnother();
    }

    /**
     * Takes one in-flight slot and, if the breaker is HALF_OPEN, one probe permit.
     *
     * <p>A draining backend refuses even when a request thread still holds a snapshot from before the drain:
     * the slot is taken first and {@code draining} read after it, while the control thread writes
     * {@code draining} first and reads the in-flight count after it. One of the two always sees the other
     * (both are volatile), so a backend reported DRAINED never receives a request afterwards.
     *
     * @param breaker this backend's breaker as read once by the caller (the lease reports back to it)
     * @return the breaker ticket for {@link Lease}, or {@link CircuitBreaker#REFUSED}
     */
    long tryAcquire(CircuitBreaker breaker) {
        if (maxInFlight > 0) {
            int n;
            do {
                n = inFlight.get();
                if (n >= maxInFlight) {
                    return CircuitBreaker.REFUSED;
                }
            } while (!inFlight.compareAndSet(n, n + 1));
        } else {
            inFlight.incrementAndGet();
        }
        if (draining) {
            inFlight.decrementAndGet();
            return CircuitBreaker.REFUSED;
        }
        long ticket = breaker.acquire();
        if (ticket == CircuitBreaker.REFUSED) {
            inFlight.decrementAndGet();
        }
        return ticket;
    }

    /** {@link #tryAcquire(CircuitBreaker)} with the current breaker. */
    long tryAcquire() {
        return tryAcquire(breaker);
    }

    /** @return the in-flight count after the release */
    int releaseSlot() {
        return inFlight.decrementAndGet();
    }

    AtomicInteger consecutiveFailures() {
        return consecutiveFailures;
    }

    /**
     * The state views report and the snapshot filters by (control thread). EJECTED lasts until the tick that
     * ends the ejection clears its deadline, not until the clock passes it: the snapshot leaves the backend
     * out until then, and a view saying UP while no request can reach it would mislead whoever waits for UP
     * to send traffic.
     */
    BackendState state() {
        if (draining) {
            return inFlight() == 0 ? BackendState.DRAINED : BackendState.DRAINING;
        }
        if (health == HealthStatus.DOWN) {
            return BackendState.DOWN;
        }
        if (ejectedUntilNanos != Long.MIN_VALUE) {
            return BackendState.EJECTED;
        }
        return BackendState.UP;
    }

    @Override
    public int compareTo(Backend o) {
        return id.compareTo(o.id);
    }

    @Override
    public String toString() {
        return id;
    }
}
