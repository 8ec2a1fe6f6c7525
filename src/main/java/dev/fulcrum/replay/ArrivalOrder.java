package dev.fulcrum.replay;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * A recording put into arrival order as it streams. Logs are written when requests end, so a slow request's line
 * comes after those of quicker requests that arrived later; a HAR is in order already. Requests are held in a
 * priority queue until the latest arrival read is {@code windowMicros} past them, and given out earliest first (ties
 * in file order). Memory is bounded by the requests of one window (at 1,000 requests a second and the default 10 s,
 * 10,000 of them). A request that arrived more than the window before one already given out comes out as soon as it
 * is read and is counted in {@link #late}; a replay plays it at the time it has reached.
 */
public final class ArrivalOrder implements Iterator<RecordedRequest> {
    /** The default window: 10 s, longer than any but the slowest requests of most logs (a guess). */
    public static final long DEFAULT_WINDOW_MICROS = 10_000_000L;

    private final Iterator<RecordedRequest> source;
    private final long windowMicros;
    private final PriorityQueue<Held> held = new PriorityQueue<>(ArrivalOrder::earlier);
    private long newest = Long.MIN_VALUE;
    private long lastOut = Long.MIN_VALUE;
    private long seq;
    private long late;

    private record Held(RecordedRequest request, long seq) {
    }

    /** Earliest arrival first, then file order (a plain method: a queue of thousands compares millions of times). */
    private static int earlier(Held a, Held b) {
        int c = Long.compare(a.request.atMicros(), b.request.atMicros());
        return c != 0 ? c : Long.compare(a.seq, b.seq);
    }

    public ArrivalOrder(Iterator<RecordedRequest> source, long windowMicros) {
        this.source = source;
        this.windowMicros = windowMicros;
    }

    public ArrivalOrder(Iterator<RecordedRequest> source) {
        this(source, DEFAULT_WINDOW_MICROS);
    }

    @Override
    public boolean hasNext() {
        fill();
        return !held.isEmpty();
    }

    private void fill() {
        while (source.hasNext() && (held.isEmpty() || held.peek().request.atMicros() > newest - windowMicros)) {
            RecordedRequest r = source.next();
            newest = Math.max(newest, r.atMicros());
            held.add(new Held(r, seq++));
        }
    }

    @Override
    public RecordedRequest next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        RecordedRequest r = held.poll().request;
        if (r.atMicros() < lastOut) {
            late++;
        } else {
            lastOut = r.atMicros();
        }
        return r;
    }

    /** Requests given out after a later one, for arriving more than the window before the newest read. */
    public long late() {
        return late;
    }
}
