package dev.fulcrum.ui.ring;

import dev.fulcrum.requests.RequestSample;
import dev.fulcrum.time.Ticker;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The keys the ring has seen in the last minute and how each is moving, as positions on the ring (fractions of the
 * key space, clockwise from 12 o'clock) at the ticker's now. Plain Java: the canvas draws {@link #dots()} each frame.
 *
 * <p>A sampled request's key lands at its hash and slides clockwise to its owner's point, the first point at or after
 * it (a spilled key, bounded loads, walks on to the next point of the backend that served it). When the ring changes
 * (a backend added, removed, drained or reweighted) every key seen in the last minute is looked up in the new ring;
 * those whose owner differs travel from their old owner's point to their new owner's and are counted. Example: keys
 * k1 at 0.10 and k2 at 0.60 on a ring with points a@0.20, b@0.70; removing a moves k1 (it goes on to b@0.70) and not
 * k2: "moved 1 of 2 keys seen".
 */
public final class KeyFlow {
    /** Keys seen longer ago than this are forgotten: what "the keys seen in the last minute" means. */
    static final long WINDOW_NANOS = 60_000_000_000L;
    /** A landing: falls onto the ring at its hash, then slides to its owner's point. */
    static final long LAND_NANOS = 900_000_000L;
    /** A move after a change: from the old owner's point to the new one's. */
    static final long MOVE_NANOS = 2_500_000_000L;
    /** Keys kept at most; past it the oldest go (a drawing of more says nothing more). */
    static final int MAX_KEYS = 4000;

    /** How a dot is moving: landing from outside, sliding to a new owner after a change, or at rest at its hash. */
    public enum Motion { LAND, MOVE, REST }

    /**
     * One key on the ring now. {@code at}: its position (may exceed 1 mid-slide past 12 o'clock); {@code drop}: how
     * far above the ring it still is, 1 (just appeared) to 0 (on it); {@code owner}: whose colour it takes.
     */
    public record Dot(String key, double at, double drop, String owner, Motion motion) {
    }

    /** What a ring change moved: {@code moved} of the {@code seen} keys, against the predicted fraction. */
    public record Moved(int moved, int seen, double predicted, Set<String> keys) {
        public String text() {
            return String.format(Locale.ROOT, "moved %d of %d keys seen (what-if predicted %.1f%%)", moved, seen,
                    predicted * 100);
        }
    }

    private static final class Key {
        final String key;
        final double home; // where its hash is
        String owner; // the ring's owner (what /api/ring/lookup says)
        String shownAs; // who served it: the owner, or a backend further on when it spilled
        long lastSeen;
        double from;
        double to;
        double via; // a spilled key's stop at its full owner's point before walking on
        long started;
        Motion motion;

        Key(String key, double home) {
            this.key = key;
            this.home = home;
        }
    }

    private final Ticker ticker;
    private final Map<String, Key> keys = new LinkedHashMap<>(); // least recently seen first
    private RingGeometry geometry;
    private Moved lastMove;

    public KeyFlow(Ticker ticker) {
        this.ticker = ticker;
    }

    /** The ring keys land on. A different ring of the same pool and kind is a change: see {@link #change}. */
    public void setGeometry(RingGeometry g) {
        geometry = g;
    }

    /** Forgets every key (another pool, another strategy: its keys say nothing about this ring). */
    public void clear() {
        keys.clear();
        lastMove = null;
    }

    /** A sampled request: its key lands (or, seen again, lands again) and slides to the backend that served it. */
    public void offer(RequestSample s) {
        if (s.key() == null || geometry == null) {
            return;
        }
        long now = ticker.nanos();
        double home = geometry.keyPosition(s.keyHash());
        Key k = keys.remove(s.key());
        if (k == null) {
            k = new Key(s.key(), home);
        }
        keys.put(s.key(), k);
        k.lastSeen = now;
        k.owner = geometry.ownerIdAt(home);
        k.via = geometry.ownerPointAfter(home);
        boolean spilled = s.spilled() && s.backend() != null && !s.backend().equals(k.owner);
        k.shownAs = spilled ? s.backend() : k.owner;
        k.from = home;
        k.to = spilled ? geometry.pointOfAfter(k.via, s.backend()) : k.via;
        k.started = now;
        k.motion = Motion.LAND;
        while (keys.size() > MAX_KEYS) {
            Iterator<Key> it = keys.values().iterator();
            it.next();
            it.remove();
        }
    }

    /**
     * The ring became {@code after}: every key seen in the last minute whose owner differs there starts to travel
     * from its old owner's point to its new owner's. {@code predicted} is the what-if's fraction of the key space.
     */
    public Moved change(RingGeometry after, double predicted) {
        long now = ticker.nanos();
        forgetOld(now);
        RingGeometry before = geometry;
        geometry = after;
        Set<String> moved = new TreeSet<>();
        for (Key k : keys.values()) {
            String next = after.ownerIdAt(k.home);
            if (next != null && !next.equals(k.owner)) {
                moved.add(k.key);
                k.from = before == null ? k.home : before.ownerPointAfter(k.home);
                k.to = after.ownerPointAfter(k.home);
                if (k.to < k.from) {
                    k.to += 1; // keys go on clockwise: the new point is further round
                }
                k.via = k.to;
                k.started = now;
                k.motion = Motion.MOVE;
            }
            k.owner = next;
            k.shownAs = next;
        }
        lastMove = new Moved(moved.size(), keys.size(), predicted, moved);
        return lastMove;
    }

    /** What the last change moved, or null when the ring has not changed since the keys began. */
    public Moved lastMove() {
        return lastMove;
    }

    /** How many keys were seen in the last minute. */
    public int seen() {
        forgetOld(ticker.nanos());
        return keys.size();
    }

    /** Every key seen in the last minute where it is now, least recently seen first. */
    public List<Dot> dots() {
        long now = ticker.nanos();
        forgetOld(now);
        List<Dot> out = new ArrayList<>(keys.size());
        for (Key k : keys.values()) {
            out.add(dot(k, now));
        }
        return out;
    }

    private Dot dot(Key k, long now) {
        long t = now - k.started;
        if (k.motion == Motion.LAND) {
            if (t >= LAND_NANOS) {
                k.motion = Motion.REST;
            } else {
                double p = (double) t / LAND_NANOS;
                if (p < 0.35) { // falls onto the ring at its hash
                    return new Dot(k.key, k.from, 1 - ease(p / 0.35), k.shownAs, Motion.LAND);
                }
                double q = ease((p - 0.35) / 0.65);
                double at = k.to == k.via ? k.from + (k.to - k.from) * q
                        : q < 0.5 ? k.from + (k.via - k.from) * (q / 0.5) : k.via + (k.to - k.via) * ((q - 0.5) / 0.5);
                return new Dot(k.key, at, 0, k.shownAs, Motion.LAND);
            }
        }
        if (k.motion == Motion.MOVE) {
            if (t >= MOVE_NANOS) {
                k.motion = Motion.REST;
            } else {
                double q = ease((double) t / MOVE_NANOS);
                return new Dot(k.key, k.from + (k.to - k.from) * q, 0, k.shownAs, Motion.MOVE);
            }
        }
        return new Dot(k.key, k.home, 0, k.shownAs, Motion.REST);
    }

    private static double ease(double p) {
        double c = Math.max(0, Math.min(1, p));
        return c * c * (3 - 2 * c);
    }

    private void forgetOld(long now) {
        Iterator<Key> it = keys.values().iterator();
        while (it.hasNext()) {
            if (now - it.next().lastSeen > WINDOW_NANOS) {
                it.remove();
            } else {
                break; // least recently seen first: the rest are newer
            }
        }
    }
}
