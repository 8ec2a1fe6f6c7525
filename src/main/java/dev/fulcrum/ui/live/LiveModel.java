package dev.fulcrum.ui.live;

import dev.fulcrum.admin.RequestSource;
import dev.fulcrum.requests.RequestSample;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;

/**
 * What the Live stage shows, as plain Java on a clock (design rule 9 of docs/ARCHITECTURE.md): the requests the
 * proxy completed, each turned into a {@link Flight} bound for the backend that served it, and the figures the stage
 * prints beside them. The view asks {@link #flights()} and {@link #now()} once per frame and draws; a test moves the
 * clock and reads the same.
 *
 * <p>Drawing budget: at most {@value #MAX_DOTS_PER_SECOND} dots a second. When more requests arrive, one dot stands for
 * {@code n} requests, with {@code n} the arrival rate over that budget, rounded up; each group is of requests that
 * took the same path and ended alike, so a retry or a refusal still gets its dot at its share. The stage says so
 * ({@link #scale()}).
 *
 * <p>Pause: the stage's clock stops; dots hold still; requests that complete meanwhile are counted and not drawn.
 * So are those that completed while the stage was not drawn at all ({@link #skip}).
 *
 * <p>Example: 1,000 requests a second over three backends: {@code scale()} is 5, about 200 dots a second fly, each for 5
 * requests, a backend taking half the traffic gets half the dots.
 */
public final class LiveModel {
    public static final int MAX_DOTS_PER_SECOND = 200;
    /** Dots alive at once at the most (a burst beyond it waits for the next frame). */
    static final int MAX_FLIGHTS = 1_200;
    /** A frame's length at 20 Hz: the time the very first batch is taken to cover (no read came before it). */
    static final double FRAME = 0.05;
    /** The shortest time a rate is taken over: a few requests in the first frames are not a burst of thousands. */
    static final double SHORTEST_SPAN = 0.25;
    /** How late a batch's last dot may leave: at a few frames a second, a batch's dots leave over its frame. */
    static final double LONGEST_SPREAD = 1.0;

    private final DoubleSupplier clock;
    private final List<Flight> flights = new ArrayList<>();
    /** Arrivals in the last second, for the scale: (stage time read, requests, stage time the batch began). */
    private final ArrayDeque<double[]> arrivals = new ArrayDeque<>();
    /** Requests waiting to make up a dot, by path and ending. */
    private final Map<String, double[]> groups = new HashMap<>();
    private final Map<String, Integer> lanes = new java.util.LinkedHashMap<>();
    private double pausedAt = Double.NaN;
    /** The stage time of the last batch read: the next one covers the time since. */
    private double lastRead = Double.NaN;
    private double pausedFor;
    private long seenWhilePaused;
    private long requests;
    private long mirrors;
    private long dots;
    private int scale = 1;

    /** @param clock seconds, monotonic: the frame's time in the window, a fake clock in a test */
    public LiveModel(DoubleSupplier clock) {
        this.clock = clock;
    }

    /** The stage's own time: the clock, less the time spent paused. */
    public double now() {
        return (paused() ? pausedAt : clock.getAsDouble()) - pausedFor;
    }

    public boolean paused() {
        return !Double.isNaN(pausedAt);
    }

    public void pause() {
        if (!paused()) {
            pausedAt = clock.getAsDouble();
        }
    }

    public void resume() {
        if (paused()) {
            pausedFor += clock.getAsDouble() - pausedAt;
            pausedAt = Double.NaN;
            seenWhilePaused = 0;
        }
    }

    /** Requests completed while paused, not drawn. */
    public long seenWhilePaused() {
        return seenWhilePaused;
    }

    /**
     * Takes what the request source gave this frame: {@code batch.requests()} drawn at their share, each standing for
     * {@code (requests + dropped) / requests} of what arrived, as the source sampled them. The batch came over the time
     * since the last read; when that is longer than {@link #LONGEST_SPREAD} (the window stalled, or ran a frame a
     * second), only the share of its last second is drawn, the rest counted: a stall's requests drawn at once would be
     * clumps the scale does not explain.
     */
    public void offer(RequestSource.Batch batch) {
        int mirrored = 0;
        for (RequestSample r : batch.requests()) {
            if (isMirror(r)) {
                mirrored++;
            }
        }
        // a mirrored copy is no client's request: drawn as a ring, counted apart, never in the rate or the scale
        int n = batch.requests().size() - mirrored;
        mirrors += mirrored;
        long total = n + batch.dropped();
        double now = now();
        double covers = Double.isNaN(lastRead) ? FRAME : Math.max(0, now - lastRead);
        lastRead = now;
        if (total == 0 && mirrored == 0) {
            return;
        }
        requests += total;
        if (paused()) {
            seenWhilePaused += total;
            return;
        }
        arrivals.addLast(new double[] {now, total, now - covers});
        // the rate over the last second, each batch taken as spread evenly over the time it covered, or over what
        // there is of the second when the traffic has just begun
        double lastSecond = 0;
        double since = now;
        for (Iterator<double[]> it = arrivals.iterator(); it.hasNext(); ) {
            double[] a = it.next();
            if (a[0] < now - 1) {
                it.remove();
                continue;
            }
            double from = Math.max(a[2], now - 1);
            lastSecond += a[0] > a[2] ? a[1] * (a[0] - from) / (a[0] - a[2]) : a[1];
            since = Math.min(since, from);
        }
        double span = Math.max(SHORTEST_SPAN, now - since);
        scale = (int) Math.max(1, Math.ceil(lastSecond / span / MAX_DOTS_PER_SECOND));
        if (n == 0 && mirrored == 0) {
            return;
        }
        // at least one request's worth: a lone request after a slow frame is still the dot a user sent it for
        double each = n == 0 ? 1
                : Math.max(total * Math.min(1, LONGEST_SPREAD / Math.max(covers, FRAME)), Math.min(total, 1)) / n;
        List<Pending> born = new ArrayList<>();
        for (RequestSample r : batch.requests()) {
            List<String> tried = r.attempts().stream().map(RequestSample.Attempt::backend).toList();
            boolean mirror = isMirror(r);
            // a request shed at its class's ceiling is a refusal at the proxy, as one no backend could take
            boolean refused = !mirror && (r.refused() || tried.isEmpty()
                    || (r.routing() != null && r.routing().shed()));
            if (mirror && tried.isEmpty()) {
                continue; // a copy no backend took (dropped): nothing travelled
            }
            Flight.Kind kind = Flight.kindOf(r.status(), refused);
            double[] g = groups.computeIfAbsent((mirror ? "mirror|" : "") + String.join(">", tried) + "|" + kind,
                    k -> new double[1]);
            g[0] += each;
            if (g[0] >= scale) {
                int count = (int) Math.floor(g[0] / scale) * scale;
                g[0] -= count;
                int lane = laneOf(r.client());
                born.add(new Pending(lane, tried, refused, r.latencyMs(), kind, count, mirror));
            }
        }
        // this frame's dots leave over the time the batch covered (at least a tenth of a second), as their requests
        // came: at a few frames a second a batch would otherwise fly as one clump
        double spread = Math.max(0.1, Math.min(LONGEST_SPREAD, covers));
        for (int i = 0; i < born.size() && flights.size() < MAX_FLIGHTS; i++) {
            Pending p = born.get(i);
            double at = now + spread * i / born.size();
            // a copy leaves the proxy as its client's request reaches it
            flights.add(p.mirror() ? Flight.mirror(at + Flight.TO_PROXY, p.tried().get(p.tried().size() - 1),
                    p.kind(), p.count())
                    : new Flight(at, p.lane(), p.tried(), p.refused(), p.latencyMs(), p.kind(), p.count()));
            dots++;
        }
    }

    /**
     * Takes what the request source kept while the stage was not drawn (its tab hidden): those requests are counted
     * ({@link #requests()}, and {@link #seenWhilePaused()} when paused) but not drawn, and not taken into the rate the
     * scale follows. Drawn, a minute away would fly as one burst of clumps ("1 dot = 80 requests" at 50 req/s) over
     * the first second back.
     */
    public void skip(RequestSource.Batch backlog) {
        lastRead = now();
        long copies = backlog.requests().stream().filter(LiveModel::isMirror).count();
        mirrors += copies;
        long total = backlog.requests().size() - copies + backlog.dropped();
        requests += total;
        if (paused()) {
            seenWhilePaused += total;
        }
    }

    private record Pending(int lane, List<String> tried, boolean refused, double latencyMs, Flight.Kind kind,
                           int count, boolean mirror) {
    }

    private static boolean isMirror(RequestSample r) {
        return r.routing() != null && r.routing().mirror();
    }

    /** Mirrored copies seen since the stage opened: never among {@link #requests()}. */
    public long mirrors() {
        return mirrors;
    }

    /** The dots in flight now, oldest first; finished ones are forgotten. */
    public List<Flight> flights() {
        double now = now();
        flights.removeIf(f -> f.done(now));
        return flights;
    }

    /**
     * The client lane of an address: the first clients seen each get a lane of their own, in the order they came;
     * once every lane is taken, the others share them by hash.
     */
    int laneOf(String client) {
        String c = client == null ? "?" : client;
        Integer lane = lanes.get(c);
        if (lane == null) {
            lane = lanes.size() < StageLayout.CLIENT_LANES ? lanes.size()
                    : Math.floorMod(c.hashCode(), StageLayout.CLIENT_LANES);
            if (lanes.size() < StageLayout.CLIENT_LANES) {
                lanes.put(c, lane);
            }
        }
        return lane;
    }

    /** What each client lane is labelled: the address that has it, or "clients" for a shared or empty one. */
    public String[] laneLabels() {
        String[] out = new String[StageLayout.CLIENT_LANES];
        java.util.Arrays.fill(out, lanes.size() >= StageLayout.CLIENT_LANES ? RateSource.CLIENT : "");
        lanes.forEach((client, lane) -> out[lane] = client);
        return out;
    }

    /** Requests one dot stands for now. */
    public int scale() {
        return scale;
    }

    /** Requests seen since the stage opened (drawn or not). */
    public long requests() {
        return requests;
    }

    /** Dots launched since the stage opened. */
    public long dots() {
        return dots;
    }
}
