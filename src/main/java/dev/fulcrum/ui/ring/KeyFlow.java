package dev.fulcrum.ui.ring;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.requests.RequestSample;
import dev.fulcrum.time.Ticker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
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
 *
 * <p>A change is shown as a before/after: the keys it moves travel for {@link #MOVE_NANOS}, then stay at their new
 * owner's point for {@link #HOLD_NANOS} ({@link Motion#AFTER}) while the rest of the keys recede ({@link #focus()});
 * a what-if does the same without changing the ring ({@link #preview}), and holds until it ends
 * ({@link #endPreview}). A key seen again while it moves keeps moving: a busy key would otherwise land again and drop
 * out of the picture of what moved.
 */
public final class KeyFlow {
    /** Keys seen longer ago than this are forgotten: what "the keys seen in the last minute" means. */
    static final long WINDOW_NANOS = 60_000_000_000L;
    /** A landing: falls onto the ring at its hash, then slides to its owner's point. */
    static final long LAND_NANOS = 900_000_000L;
    /** A move after a change: from the old owner's point to the new one's. */
    static final long MOVE_NANOS = 3_000_000_000L;
    /** After an applied change: how long the keys it moved stay drawn large at their new owner's point. */
    static final long HOLD_NANOS = 10_000_000_000L;
    /** Keys kept at most; past it the oldest go (a drawing of more says nothing more). */
    static final int MAX_KEYS = 4000;

    /**
     * How a dot is moving: landing from outside, travelling from its old owner to its new one after a change, held at
     * its new owner's point once there (a change's before/after), or at rest at its hash.
     */
    public enum Motion { LAND, MOVE, AFTER, REST }

    /**
     * One key on the ring now. {@code at}: its position (may exceed 1 mid-slide past 12 o'clock); {@code drop}: how
     * far above the ring it still is, 1 (just appeared) to 0 (on it); {@code owner}: whose colour it takes. A key a
     * change moves ({@link Motion#MOVE}, {@link Motion#AFTER}) also has where it travels from and to ({@code from},
     * {@code to}: its old and new owner's points, {@code to >= from}), its old owner {@code was}, and how far it has
     * come, {@code progress} 0 to 1; for any other key they are its position, its owner and 1.
     */
    public record Dot(String key, double at, double drop, String owner, Motion motion, double from, double to,
                      String was, double progress) {
        /** Whether this key is one a change (or a what-if) moves: drawn large while the others recede. */
        public boolean moving() {
            return motion == Motion.MOVE || motion == Motion.AFTER;
        }
    }

    /**
     * What a ring change moved (or a what-if would move): {@code moved} of the {@code seen} keys, against the fraction
     * of the key space that changes owner. {@code would}: a what-if ({@code cause}, e.g. "Removing demo-b"), nothing
     * moved yet; else a change of the pool's ring, {@code cause} saying on which drawing of it when not the pool's own
     * ("on the ring drawn at 3 per backend"), else null.
     */
    public record Moved(int moved, int seen, double predicted, Set<String> keys, String cause, boolean would) {
        public Moved {
            keys = Set.copyOf(keys);
        }

        /** The count alone, for the caption over the drawing: "moved 12 of 94 keys seen", "Removing b would move ...". */
        public String headline() {
            if (would) {
                return seen == 0 ? Texts.t("ring.moved.would.space", cause, percent(predicted))
                        : Texts.t("ring.moved.would.keys", cause, String.valueOf(moved), String.valueOf(seen));
            }
            return Texts.t("ring.moved.headline", String.valueOf(moved), String.valueOf(seen));
        }

        public String text() {
            if (would) {
                return seen == 0
                        ? Texts.t("ring.moved.would.space.nokeys", cause, percent(predicted))
                        : Texts.t("ring.moved.would.text", cause, String.valueOf(moved), String.valueOf(seen),
                                percent(predicted));
            }
            String text = Texts.t("ring.moved.text", String.valueOf(moved), String.valueOf(seen), percent(predicted));
            return cause == null ? text : Texts.t("ring.moved.text.on", text, cause);
        }
    }

    /** {@code 12.5}: a fraction as a percentage with one decimal, in the window language's decimal mark. */
    static String percent(double fraction) {
        return String.format(Texts.locale(), "%.1f", fraction * 100);
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
        String was; // the owner before the change (or the what-if) that moves it
        boolean previewing; // moved by a what-if only: its ring owner is still `owner`

        Key(String key, double home) {
            this.key = key;
            this.home = home;
        }
    }

    private final Ticker ticker;
    private final Map<String, Key> keys = new LinkedHashMap<>(); // least recently seen first
    private RingGeometry geometry;
    /** Keys offered before there was a ring to land on, oldest first, at most {@link #MAX_KEYS}. */
    private final ArrayDeque<RequestSample> waiting = new ArrayDeque<>();
    /** The view said there is no ring ({@link #noRing}): keys offered are not held for one. */
    private boolean ringless;
    private Moved lastMove;
    private Moved previewMove;
    private long focusUntil;

    public KeyFlow(Ticker ticker) {
        this.ticker = ticker;
    }

    /**
     * The ring keys land on. A different ring of the same pool and kind is a change: see {@link #change}. The keys
     * offered while there was no ring yet land on it now.
     */
    public void setGeometry(RingGeometry g) {
        geometry = g;
        ringless = false;
        for (RequestSample held; g != null && (held = waiting.pollFirst()) != null; ) {
            offer(held); // lands: there is a ring now
        }
    }

    /** There is no ring to draw (the strategy has none): every key is forgotten, and those offered from now on too. */
    public void noRing() {
        clear();
        geometry = null;
        ringless = true;
    }

    /** Forgets every key (another pool, another strategy: its keys say nothing about this ring). */
    public void clear() {
        keys.clear();
        waiting.clear();
        lastMove = null;
        previewMove = null;
        focusUntil = 0;
    }

    /** A sampled request: its key lands (or, seen again, lands again) and slides to the backend that served it. */
    public void offer(RequestSample s) {
        if (s.key() == null) {
            return;
        }
        if (geometry == null) { // the ring is on its way (unless there is none): the source has moved past these keys
            if (ringless) {
                return;
            }
            waiting.addLast(s);
            if (waiting.size() > MAX_KEYS) {
                waiting.removeFirst();
            }
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
        if (k.previewing || k.motion == Motion.MOVE || k.motion == Motion.AFTER && now < focusUntil) {
            return; // part of a before/after: it stays in the picture of what moved
        }
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
        return change(after, predicted, null);
    }

    /**
     * {@link #change(RingGeometry, double)} on a ring drawn otherwise than the pool's: {@code where} says how ("on the
     * ring drawn at 3 per backend"), so the count is not taken for the pool's.
     */
    public Moved change(RingGeometry after, double predicted, String where) {
        endPreview();
        long now = ticker.nanos();
        forgetOld(now);
        RingGeometry before = geometry;
        geometry = after;
        Set<String> moved = new TreeSet<>();
        for (Key k : keys.values()) {
            String next = after.ownerIdAt(k.home);
            if (next != null && !next.equals(k.owner)) {
                moved.add(k.key);
                travel(k, before == null ? k.home : before.ownerPointAfter(k.home), after.ownerPointAfter(k.home),
                        k.owner, now);
            } else if (k.motion == Motion.MOVE || k.motion == Motion.AFTER) {
                k.motion = Motion.REST; // moved by the change before: this one did not move it
            }
            k.owner = next;
            k.shownAs = next;
        }
        focusUntil = now + MOVE_NANOS + HOLD_NANOS;
        lastMove = new Moved(moved.size(), keys.size(), predicted, moved, where, false);
        return lastMove;
    }

    /** From its old owner's point {@code from} on clockwise to its new owner's point {@code to}. */
    private static void travel(Key k, double from, double to, String was, long now) {
        k.from = from;
        k.to = to < from ? to + 1 : to; // keys go on clockwise: the new point is further round
        k.via = k.to;
        k.was = was;
        k.started = now;
        k.motion = Motion.MOVE;
    }

    /**
     * A what-if: the keys seen in the last minute that {@code after} would give another owner travel to it as a
     * change would move them, and stay there until {@link #endPreview}; the ring and each key's owner stay as they
     * are. {@code predicted}: the what-if's fraction of the key space; {@code cause}: the what-if ("Removing demo-b").
     */
    public Moved preview(RingGeometry after, double predicted, String cause) {
        endPreview();
        long now = ticker.nanos();
        forgetOld(now);
        Set<String> moved = new TreeSet<>();
        for (Key k : keys.values()) {
            String next = after.ownerIdAt(k.home);
            if (geometry != null && next != null && !next.equals(k.owner)) {
                moved.add(k.key);
                travel(k, geometry.ownerPointAfter(k.home), after.ownerPointAfter(k.home), k.owner, now);
                k.previewing = true;
                k.shownAs = next;
            }
        }
        previewMove = new Moved(moved.size(), keys.size(), predicted, moved, cause, true);
        return previewMove;
    }

    /** The what-if is over: the keys it moved are back with their owners. */
    public void endPreview() {
        if (previewMove == null) {
            return;
        }
        for (Key k : keys.values()) {
            if (k.previewing) {
                k.previewing = false;
                k.shownAs = k.owner;
                k.motion = Motion.REST;
            }
        }
        previewMove = null;
    }

    /** Plays the before/after shown now once more: its keys travel again from their old owners. */
    public void replay() {
        long now = ticker.nanos();
        Moved f = focus();
        if (f == null) {
            return;
        }
        for (Key k : keys.values()) {
            if (f.keys().contains(k.key) && (k.motion == Motion.MOVE || k.motion == Motion.AFTER)) {
                k.started = now;
                k.motion = Motion.MOVE;
            }
        }
        if (!f.would()) {
            focusUntil = now + MOVE_NANOS + HOLD_NANOS;
        }
    }

    /**
     * The same keys on another drawing of the ring ({@code g}: the pool's ring at another count of virtual nodes):
     * each key takes its owner there at once, with nothing shown as moved, since the pool moved nothing.
     */
    public void reseat(RingGeometry g) {
        endPreview();
        geometry = g;
        for (Key k : keys.values()) {
            k.owner = g.ownerIdAt(k.home);
            k.shownAs = k.owner;
            k.motion = Motion.REST;
        }
        focusUntil = 0;
    }

    /** What the last change moved, or null when the ring has not changed since the keys began. */
    public Moved lastMove() {
        return lastMove;
    }

    /**
     * The before/after shown now: the what-if's, else the last change's while its keys travel or are held, else null
     * (the keys simply land).
     */
    public Moved focus() {
        if (previewMove != null) {
            return previewMove;
        }
        return lastMove != null && ticker.nanos() < focusUntil ? lastMove : null;
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
                    return still(k, k.from, 1 - ease(p / 0.35), Motion.LAND);
                }
                double q = ease((p - 0.35) / 0.65);
                double at = k.to == k.via ? k.from + (k.to - k.from) * q
                        : q < 0.5 ? k.from + (k.via - k.from) * (q / 0.5) : k.via + (k.to - k.via) * ((q - 0.5) / 0.5);
                return still(k, at, 0, Motion.LAND);
            }
        }
        if (k.motion == Motion.MOVE && t >= MOVE_NANOS) {
            k.motion = Motion.AFTER;
        }
        if (k.motion == Motion.AFTER && !k.previewing && now >= focusUntil) {
            k.motion = Motion.REST;
        }
        if (k.motion == Motion.MOVE) {
            double q = ease((double) t / MOVE_NANOS);
            return new Dot(k.key, k.from + (k.to - k.from) * q, 0, k.shownAs, Motion.MOVE, k.from, k.to, k.was, q);
        }
        if (k.motion == Motion.AFTER) {
            return new Dot(k.key, k.to, 0, k.shownAs, Motion.AFTER, k.from, k.to, k.was, 1);
        }
        return still(k, k.home, 0, Motion.REST);
    }

    private static Dot still(Key k, double at, double drop, Motion motion) {
        return new Dot(k.key, at, drop, k.shownAs, motion, at, at, k.shownAs, 1);
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
