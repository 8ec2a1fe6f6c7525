package dev.fulcrum.ui;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.time.Ticker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

/**
 * What the window saw over the last {@value #KEEP_MS} ms, so a trainer can drag the timeline back and every view shows
 * the pool as it was: each state sample (weights, states, breakers, rates), each ring or Maglev table as it was
 * fetched, and the events to mark on the timeline; and which moment the views show, now or one of those. Plain Java,
 * FX thread only; times are wall-clock milliseconds of the window's {@link Ticker} when the sample was taken.
 *
 * <p>Example: samples at 10:00:00.000, .250 and .500, the weight of a changed between the second and the third:
 * {@code stateAt(10:00:00.400)} is the second sample (the weight before the change), {@code stateAt(...600)} the third.
 * {@code viewAt(10:00:00.400)} shows the second to every view, and later samples are recorded without being shown
 * until {@link #backToLive()} shows the newest.
 */
public final class TimeMachine {
    public static final long KEEP_MS = 5 * 60_000;

    private final Ticker ticker;
    private final ReadOnlyLongWrapper viewingAt = new ReadOnlyLongWrapper(this, "viewingAt", -1);
    private final ReadOnlyObjectWrapper<EngineState> shown = new ReadOnlyObjectWrapper<>(this, "state");
    /** The newest live sample, shown again on the way back to live. */
    private EngineState newestLive;
    /** When the views stopped following the engine (wall milliseconds), or -1 while live. */
    private long pausedSince = -1;

    private record Sample(long at, EngineState state) {
    }

    private record RingAt(long at, EngineClient.Ring ring) {
    }

    private final ArrayDeque<Sample> samples = new ArrayDeque<>();
    private final ArrayDeque<EngineEvent> events = new ArrayDeque<>();
    private final Map<String, ArrayDeque<RingAt>> rings = new HashMap<>();

    /** @param ticker the window's clock: {@link #now()} reads it */
    public TimeMachine(Ticker ticker) {
        this.ticker = ticker;
    }

    /** Now, in wall-clock milliseconds of the window's clock: when a ring is fetched, where the timeline ends. */
    public long now() {
        return ticker.wallMillis();
    }

    // ---------------------------------------------------------------- what the views show

    /**
     * The state every view shows: the newest sample while live, the one recorded at {@link #viewingAtProperty()}
     * while looking back; null until the first sample.
     */
    public ReadOnlyObjectProperty<EngineState> stateProperty() {
        return shown.getReadOnlyProperty();
    }

    /** A live sample taken at {@code at}: recorded, and shown unless the views look back. */
    void sampled(long at, EngineState s) {
        record(at, s);
        newestLive = s;
        if (live()) {
            shown.set(s);
        }
    }

    /** The moment the views show (wall milliseconds), or -1 for now. */
    public ReadOnlyLongProperty viewingAtProperty() {
        return viewingAt.getReadOnlyProperty();
    }

    public boolean live() {
        return viewingAt.get() < 0;
    }

    /**
     * When the views stopped following the engine, wall milliseconds of the window's clock: the moment the timeline
     * was first dragged back or the space bar pressed, however far back it looks since; -1 while live. What came
     * from the engine since then is recorded but not shown ("paused: 1,234 requests since 10:42:07").
     */
    public long pausedSince() {
        return pausedSince;
    }

    /** Shows every view as it was at {@code wallMillis} (or the oldest moment kept, if that is later). */
    public void viewAt(long wallMillis) {
        if (live()) {
            pausedSince = now();
        }
        viewingAt.set(Math.max(wallMillis, oldest()));
        EngineState past = stateAt(viewingAt.get());
        if (past != null) {
            shown.set(past);
        }
    }

    /** Pauses every view on what it shows now (the space bar). */
    public void pause() {
        if (live()) {
            viewAt(Math.max(0, newest()));
        }
    }

    /** Back to the live engine: the newest sample is shown. */
    public void backToLive() {
        pausedSince = -1;
        viewingAt.set(-1);
        if (newestLive != null) {
            shown.set(newestLive);
        }
    }

    // ---------------------------------------------------------------- what the window saw

    /** A state sample taken at {@code at}; older than {@link #KEEP_MS} before it are forgotten. */
    public void record(long at, EngineState s) {
        if (s == null) {
            return;
        }
        samples.addLast(new Sample(at, s));
        while (!samples.isEmpty() && samples.peekFirst().at() < at - KEEP_MS) {
            samples.pollFirst();
        }
        while (!events.isEmpty() && events.peekFirst().at() < at - KEEP_MS) {
            events.pollFirst();
        }
        for (ArrayDeque<RingAt> r : rings.values()) {
            // keep the newest ring older than the window: it is the one the window's first moment had
            while (r.size() > 1 && peekSecond(r).at() <= at - KEEP_MS) {
                r.pollFirst();
            }
        }
    }

    private static RingAt peekSecond(ArrayDeque<RingAt> r) {
        Iterator<RingAt> it = r.iterator();
        it.next();
        return it.next();
    }

    public void event(EngineEvent e) {
        events.addLast(e);
    }

    /** A pool's ring as fetched at {@code at}. */
    public void ring(String pool, long at, EngineClient.Ring ring) {
        rings.computeIfAbsent(pool, k -> new ArrayDeque<>()).addLast(new RingAt(at, ring));
    }

    /** The state the window had at {@code t}: the last sample taken at or before it, or the oldest kept. */
    public EngineState stateAt(long t) {
        EngineState found = null;
        for (Sample s : samples) {
            if (s.at() > t) {
                break;
            }
            found = s.state();
        }
        return found != null ? found : samples.isEmpty() ? null : samples.peekFirst().state();
    }

    /** The ring of {@code pool} the window had at {@code t}, or null when none was fetched by then. */
    public EngineClient.Ring ringAt(String pool, long t) {
        ArrayDeque<RingAt> r = rings.get(pool);
        if (r == null) {
            return null;
        }
        EngineClient.Ring found = null;
        for (RingAt x : r) {
            if (x.at() > t) {
                break;
            }
            found = x.ring();
        }
        return found;
    }

    /** The events of the kept window, oldest first, for the timeline's marks. */
    public List<EngineEvent> events() {
        return new ArrayList<>(events);
    }

    /** The oldest moment kept, or -1 when nothing is. */
    public long oldest() {
        return samples.isEmpty() ? -1 : samples.peekFirst().at();
    }

    /** The newest sample's time, or -1. */
    public long newest() {
        return samples.isEmpty() ? -1 : samples.peekLast().at();
    }
}
