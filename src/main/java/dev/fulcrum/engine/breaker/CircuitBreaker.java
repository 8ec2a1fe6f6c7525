package dev.fulcrum.engine.breaker;

import dev.fulcrum.time.Ticker;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A per-backend circuit breaker with a count-based window, after Resilience4j.
 *
 * <pre>
 *   CLOSED --(>= minimumCalls in window and failure or slow rate >= threshold)--> OPEN
 *   OPEN   --(openMs elapsed; the control thread's tick)-----------------------> HALF_OPEN
 *   HALF_OPEN --(halfOpenCalls probes all succeed)--> CLOSED, --(any probe fails)--> OPEN
 * </pre>
 * The state is an {@link AtomicReference} to immutable state objects, moved by CAS, so request threads
 * never lock on the admission check. Recording into the CLOSED window takes a short lock on the window
 * (a ring of the last {@code window} outcomes). Every transition is reported to the listener once.
 *
 * <p>Tickets. Each state carries an epoch that every transition increments. {@link #acquire()} returns the
 * epoch the call was admitted in, and {@link #record(Call, long)} ignores a result whose epoch is no longer
 * current. Without this a request admitted while CLOSED that finishes after the breaker went OPEN and then
 * HALF_OPEN would be counted as one of the probes (closing the breaker on a call that was never a probe),
 * and a client abort of such a request would hand out a probe permit that was never taken.
 * Example with {@code halfOpenCalls = 1}: call A admitted in CLOSED (epoch 0); failures open the breaker
 * (epoch 1); openMs later it is HALF_OPEN (epoch 2); A now succeeds: ignored, the one probe permit is still
 * there and only a real probe can close the breaker.
 */
public final class CircuitBreaker {

    public enum State { CLOSED, OPEN, HALF_OPEN }

    /** Result of one call as the window sees it. */
    public enum Call { SUCCESS, FAILURE, SLOW }

    /** Told about each transition, on the thread that made it. */
    public interface Listener {
        void onTransition(CircuitBreaker breaker, State from, State to);

        /**
         * The same, with the transition's sequence number: 1 for the breaker's first transition, then 2, 3...
         * Transitions made on different threads can reach a listener out of order (each is told after its
         * CAS); the number lets a listener put them back in order.
         */
        default void onTransition(CircuitBreaker breaker, State from, State to, long sequence) {
            onTransition(breaker, from, to);
        }
    }

    /** What {@link #acquire()} returns when the call is refused. */
    public static final long REFUSED = -1;

    private sealed interface S permits Closed, Open, HalfOpen {
        State state();

        /** Incremented by every transition; admission tickets carry it. */
        long epoch();
    }

    private record Closed(Window window, long epoch) implements S {
        public State state() {
            return State.CLOSED;
        }
    }

    private record Open(long untilNanos, long epoch) implements S {
        public State state() {
            return State.OPEN;
        }
    }

    /** permitsLeft: probes not yet admitted; successes: probes that came back fine. */
    private record HalfOpen(int permitsLeft, int successes, long epoch) implements S {
        public State state() {
            return State.HALF_OPEN;
        }
    }

    /** Replaced only by {@link #retime} (the control thread), which changes nothing but openMs. */
    private volatile BreakerSpec spec;
    /** halfOpenCalls, at least 1: with 0 no probe would ever be admitted and HALF_OPEN would never end. */
    private final int probes;
    private final Ticker ticker;
    private final Listener listener;
    private final AtomicReference<S> state;
    /** Wall time of the last transition; read by the window's timeline. */
    private volatile long lastTransitionMillis;

    public CircuitBreaker(BreakerSpec spec, Ticker ticker, Listener listener) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.probes = Math.max(1, spec.halfOpenCalls());
        this.ticker = ticker;
        this.listener = listener;
        this.state = new AtomicReference<>(new Closed(new Window(spec.window()), 0));
        this.lastTransitionMillis = ticker.wallMillis();
    }

    public BreakerSpec spec() {
        return spec;
    }

    /**
     * Takes {@code to}, which differs from the settings in use only in {@code openMs}: the state and the window
     * stay, and an OPEN wait under way is counted again from when it began with the new length (so shortening it
     * past what has elapsed makes it due at once). No transition happens here; a due wait ends at the next tick.
     *
     * @throws IllegalArgumentException when {@code to} changes anything but openMs
     */
    public void retime(BreakerSpec to) {
        BreakerSpec from = spec;
        if (!from.withOpenMs(to.openMs()).equals(to)) {
            throw new IllegalArgumentException("retime: only openMs may change (from " + from + " to " + to + ")");
        }
        long by = TimeUnit.MILLISECONDS.toNanos(to.openMs() - from.openMs());
        spec = to;
        while (true) {
            S s = state.get();
            if (!(s instanceof Open o) || state.compareAndSet(s, new Open(o.untilNanos() + by, o.epoch()))) {
                return;
            }
        }
    }

    public State state() {
        return state.get().state();
    }

    /** Whether a call could be admitted now (no side effect; see {@link #tryAcquirePermission()}). */
    public boolean permitsAnother() {
        S s = state.get();
        if (s instanceof Closed || !spec.enabled()) {
            return true;
        }
        return s instanceof HalfOpen h && h.permitsLeft() > 0;
    }

    /** Admits one call: always while CLOSED, one of the probes while HALF_OPEN, never while OPEN. */
    public boolean tryAcquirePermission() {
        return acquire() != REFUSED;
    }

    /**
     * Admits one call like {@link #tryAcquirePermission()} and returns its ticket (the epoch it was admitted
     * in) for {@link #record(Call, long)} and {@link #releaseUnusedPermission(long)}, or {@link #REFUSED}.
     */
    public long acquire() {
        while (true) {
            S s = state.get();
            if (s instanceof Closed || !spec.enabled()) {
                return s.epoch();
            }
            if (!(s instanceof HalfOpen h) || h.permitsLeft() <= 0) {
                return REFUSED;
            }
            if (state.compareAndSet(s, new HalfOpen(h.permitsLeft() - 1, h.successes(), h.epoch()))) {
                return h.epoch();
            }
        }
    }

    /** Records the result of a call as if it had been admitted in the current state. */
    public void record(Call call) {
        record(call, state.get().epoch());
    }

    /**
     * Records the result of the call admitted with {@code ticket}. A result from an earlier state (the
     * breaker moved since the call was admitted) changes nothing.
     */
    public void record(Call call, long ticket) {
        if (!spec.enabled() || ticket == REFUSED) {
            return;
        }
        while (true) {
            S s = state.get();
            if (s.epoch() != ticket) {
                return; // admitted before the last transition: says nothing about the current state
            }
            if (s instanceof Closed c) {
                if (c.window().add(call, spec) && state.compareAndSet(s, open(s))) {
                    tripped = c.window().snapshot(State.CLOSED, 0, ticker.wallMillis());
                    fire(State.CLOSED, State.OPEN, s.epoch() + 1);
                }
                return;
            }
            if (s instanceof HalfOpen h) {
                // a slow probe is not a healthy one: only plain successes close the breaker
                S next = call == Call.SUCCESS
                        ? (h.successes() + 1 >= probes
                        ? new Closed(new Window(spec.window()), h.epoch() + 1)
                        : new HalfOpen(h.permitsLeft(), h.successes() + 1, h.epoch()))
                        : open(s);
                if (state.compareAndSet(s, next)) {
                    if (next.state() != State.HALF_OPEN) {
                        fire(State.HALF_OPEN, next.state(), next.epoch());
                    }
                    return;
                }
                continue;
            }
            return; // OPEN admits nothing, so no current ticket can name it
        }
    }

    /**
     * A probe admitted in HALF_OPEN never reached the backend (client went away): give its permit back so
     * the breaker cannot wedge in HALF_OPEN with no permits and no outstanding probes. Gives back only while
     * the breaker is still in the HALF_OPEN period that admitted the probe, never more than it handed out.
     */
    public void releaseUnusedPermission(long ticket) {
        while (true) {
            S s = state.get();
            if (!(s instanceof HalfOpen h) || h.epoch() != ticket
                    || h.permitsLeft() + h.successes() >= probes) {
                return;
            }
            if (state.compareAndSet(s, new HalfOpen(h.permitsLeft() + 1, h.successes(), h.epoch()))) {
                return;
            }
        }
    }

    /** {@link #releaseUnusedPermission(long)} for a probe of the current HALF_OPEN period. */
    public void releaseUnusedPermission() {
        releaseUnusedPermission(state.get().epoch());
    }

    /** Called by the control thread's tick: OPEN past its deadline becomes HALF_OPEN. */
    public boolean advance() {
        S s = state.get();
        if (s instanceof Open o && ticker.nanos() - o.untilNanos() >= 0
                && state.compareAndSet(s, new HalfOpen(probes, 0, o.epoch() + 1))) {
            fire(State.OPEN, State.HALF_OPEN, o.epoch() + 1);
            return true;
        }
        return false;
    }

    /** The OPEN deadline in ticker nanos, or {@link Long#MAX_VALUE} when not OPEN. */
    public long openUntilNanos() {
        return state.get() instanceof Open o ? o.untilNanos() : Long.MAX_VALUE;
    }

    /** Forces CLOSED with an empty window (the operator's "enable", a config change). */
    public void reset() {
        S s = state.get();
        if (!(s instanceof Closed) && state.compareAndSet(s, new Closed(new Window(spec.window()), s.epoch() + 1))) {
            fire(s.state(), State.CLOSED, s.epoch() + 1);
        }
    }

    /**
     * The failure share of the calls the window holds, 0..1 (0 for an empty window), without copying the window: the
     * score strategy's {@code errorRate}. While OPEN or HALF_OPEN the window is gone; the share of the window that
     * tripped the breaker stands in (1 when it never tripped from CLOSED).
     */
    public double errorRate() {
        S s = state.get();
        if (s instanceof Closed c) {
            return c.window().failureShare();
        }
        Snapshot t = tripped;
        return t == null ? 1 : t.failureRate() / 100;
    }

    /** What the window holds right now, oldest first, for the breaker view. */
    public Snapshot snapshot() {
        S s = state.get();
        long now = ticker.nanos();
        if (s instanceof Closed c) {
            return c.window().snapshot(State.CLOSED, 0, lastTransitionMillis);
        }
        long remaining = s instanceof Open o ? Math.max(0, (o.untilNanos() - now) / 1_000_000) : 0;
        return new Snapshot(s.state(), new Call[0], 0, 0, remaining, lastTransitionMillis);
    }

    /** A copy of the breaker for display. Rates are percent of the calls in the window. */
    public record Snapshot(State state, Call[] recent, double failureRate, double slowCallRate, long msUntilHalfOpen,
                           long lastTransitionMillis) {
    }

    private Open open(S from) {
        return new Open(ticker.nanos() + TimeUnit.MILLISECONDS.toNanos(spec.openMs()), from.epoch() + 1);
    }

    private void fire(State from, State to, long sequence) {
        lastTransitionMillis = ticker.wallMillis();
        if (listener != null) {
            listener.onTransition(this, from, to, sequence);
        }
    }

    /** The window that last opened the breaker from CLOSED, or null: its rates say why it opened. */
    private volatile Snapshot tripped;

    /**
     * The window as it was when the breaker last went from CLOSED to OPEN (its calls and rates), or null when it
     * never has: while OPEN the window is gone, and the view shows what tripped it.
     */
    public Snapshot tripped() {
        return tripped;
    }

    /** While HALF_OPEN: the probes admitted so far and those that came back fine; zeros in any other state. */
    public record Probes(int admitted, int succeeded, int of) {
    }

    public Probes probes() {
        S s = state.get();
        return s instanceof HalfOpen h ? new Probes(probes - h.permitsLeft(), h.successes(), probes)
                : new Probes(0, 0, probes);
    }

    /** Ring of the last N calls. Guarded by its own monitor; only ever owned by one Closed state. */
    private static final class Window {
        private final Call[] calls;
        private int next;
        private int size;
        private int failures;
        private int slow;

        Window(int capacity) {
            calls = new Call[Math.max(1, capacity)];
        }

        /** Adds a call and says whether the thresholds are now reached. */
        synchronized boolean add(Call call, BreakerSpec spec) {
            if (size == calls.length) {
                count(calls[next], -1);
            } else {
                size++;
            }
            calls[next] = call;
            count(call, +1);
            next = (next + 1) % calls.length;
            if (size < spec.minimumCalls()) {
                return false;
            }
            return failures * 100.0 / size >= spec.failureRateThreshold()
                    || slow * 100.0 / size >= spec.slowCallRateThreshold();
        }

        private void count(Call c, int d) {
            if (c == Call.FAILURE) {
                failures += d;
            } else if (c == Call.SLOW) {
                slow += d;
            }
        }

        synchronized double failureShare() {
            return size == 0 ? 0 : (double) failures / size;
        }

        synchronized Snapshot snapshot(State state, long remaining, long lastTransition) {
            Call[] out = new Call[size];
            int start = size == calls.length ? next : 0;
            for (int i = 0; i < size; i++) {
                out[i] = calls[(start + i) % calls.length];
            }
            double fr = size == 0 ? 0 : failures * 100.0 / size;
            double sr = size == 0 ? 0 : slow * 100.0 / size;
            return new Snapshot(state, out, fr, sr, remaining, lastTransition);
        }
    }
}
