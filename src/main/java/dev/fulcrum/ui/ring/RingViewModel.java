package dev.fulcrum.ui.ring;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.ui.BackendCommands;
import dev.fulcrum.ui.UiSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.scene.paint.Color;

/**
 * The ring view's state: the selected pool's ring or table (fetched again only when the pool's strategy,
 * members, weights or states change), the looked-up key, and a what-if preview. FX thread only; every client
 * call goes through the session's worker.
 */
public final class RingViewModel {
    /** A what-if: remove a backend, add one (id, weight), or reweight one. */
    public enum Mode { REMOVE, ADD, REWEIGHT }

    public record WhatIf(Mode mode, String backend, int weight) {
    }

    private final UiSession session;
    private final BackendCommands commands;
    private final ReadOnlyObjectWrapper<RingGeometry> geometry = new ReadOnlyObjectWrapper<>(this, "geometry");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper(this, "message", "loading…");
    private final ReadOnlyObjectWrapper<EngineClient.Lookup> lookup = new ReadOnlyObjectWrapper<>(this, "lookup");
    private final ReadOnlyObjectWrapper<EngineClient.Preview> preview = new ReadOnlyObjectWrapper<>(this, "preview");
    private final ReadOnlyStringWrapper previewText = new ReadOnlyStringWrapper(this, "previewText", "");
    private final ReadOnlyObjectWrapper<List<RingGeometry.Change>> previewChanges =
            new ReadOnlyObjectWrapper<>(this, "previewChanges");
    private final ReadOnlyObjectWrapper<KeyFlow.Moved> moved = new ReadOnlyObjectWrapper<>(this, "moved");
    private final KeyFlow keys;
    private String signature;
    private String lastKey;
    /** The pool and strategy type of the ring shown: a ring of another pool or kind is no change, just another. */
    private String shownOf;

    /** The keys on the window's clock ({@link UiSession#ticker()}). */
    public RingViewModel(UiSession session) {
        this(session, session.ticker());
    }

    /** @param ticker the keys' clock: the window's, or a test's {@code ManualClock} */
    public RingViewModel(UiSession session, dev.fulcrum.time.Ticker ticker) {
        this.session = session;
        this.keys = new KeyFlow(ticker);
        this.commands = new BackendCommands(session);
        session.stateProperty().addListener((o, a, s) -> stateChanged(s));
        session.poolProperty().addListener((o, a, p) -> stateChanged(session.state()));
    }

    private void stateChanged(EngineState s) {
        if (s == null) {
            return;
        }
        String pool = session.pool();
        StringBuilder sig = new StringBuilder(pool).append('|');
        EngineState.PoolInfo pi = s.pools().get(pool);
        sig.append(pi == null ? null : pi.strategy()).append('|');
        for (EngineState.BackendInfo b : s.backends()) {
            if (b.pool().equals(pool)) {
                sig.append(b.id()).append(':').append(b.effectiveWeight()).append(':').append(b.state()).append(':')
                        .append(b.breaker() == null ? "" : b.breaker().state()).append(',');
            }
        }
        String next = sig.toString();
        if (!next.equals(signature)) {
            signature = next;
            clearPreview(); // a what-if of the ring as it was: it answers nothing about this one
            refresh();
        }
    }

    /** Fetches the ring again (and the looked-up key's owner, which may have changed with it). */
    public void refresh() {
        String pool = session.pool();
        // the geometry (8,000 points at 50 x 160) is built on the worker too, not on the FX thread
        int tableSize = tableSize(pool);
        Map<String, Color> palette = dev.fulcrum.ui.Palette.forPool(session.state(), pool);
        session.call("ring of " + pool, () -> java.util.Optional.ofNullable(session.ring(pool))
                        .map(r -> RingGeometry.of(r, tableSize, palette)),
                g -> {
                    if (pool.equals(session.pool())) {
                        show(g.orElse(null), pool + "|" + strategyType(pool));
                        // the looked-up key's owner, asked of this ring now that it is here (asked before it, the
                        // answer would come from no ring or the last one and stay "…" after a switch of strategy)
                        lookup(lastKey);
                    }
                }, msg -> message.set("Cannot read the ring: " + msg));
    }

    private int tableSize(String pool) {
        EngineState s = session.state();
        Object size = s == null || s.pools().get(pool) == null || s.pools().get(pool).strategy() == null ? null
                : s.pools().get(pool).strategy().get("tableSize");
        return size instanceof Number n ? n.intValue() : 0;
    }

    private String strategyType(String pool) {
        EngineState s = session.state();
        if (s == null || s.pools().get(pool) == null || s.pools().get(pool).strategy() == null) {
            return "?";
        }
        return String.valueOf(s.pools().get(pool).strategy().get("type"));
    }

    /** Shows {@code ring}, or says that the strategy has none when it is null. Public so tests can hand-build one. */
    public void setRing(EngineClient.Ring ring, String strategyType) {
        show(ring == null ? null : RingGeometry.of(ring), session.pool() + "|" + strategyType);
    }

    /**
     * Shows {@code g}, the ring of {@code of} (pool|strategy type). The same pool and kind of ring with other owners
     * is a change: the keys seen in the last minute that it moves travel to their new owners and are counted.
     */
    public void show(RingGeometry g, String of) {
        RingGeometry before = geometry.get();
        if (g == null) {
            geometry.set(null);
            keys.clear();
            moved.set(null);
            message.set("The " + of.substring(of.indexOf('|') + 1) + " strategy has no ring or table: keys are not "
                    + "hashed to backends. Choose consistent-hash or maglev in the Strategy tab to see one.");
        } else {
            double changed = before == null || !of.equals(shownOf) ? 0 : RingGeometry.movedFraction(before, g);
            if (before != null && !of.equals(shownOf)) {
                keys.clear();
                moved.set(null);
            }
            if (changed > 0) {
                moved.set(keys.change(g, changed));
            } else {
                keys.setGeometry(g);
            }
            geometry.set(g);
            message.set(null);
        }
        shownOf = of;
    }

    /** The keys seen in the last minute and where each is moving. */
    public KeyFlow keys() {
        return keys;
    }

    /** What the last change of the ring moved ("moved 61 of 540 keys seen ..."), or null. */
    public ReadOnlyObjectProperty<KeyFlow.Moved> movedProperty() {
        return moved.getReadOnlyProperty();
    }

    /**
     * The stretches of the key space a what-if would give another owner, or null when the view cannot draw them (only
     * a removal from a consistent-hash ring is known here exactly: each key goes on to the next point of another
     * backend; the engine's preview gives the shares of the others).
     */
    public ReadOnlyObjectProperty<List<RingGeometry.Change>> previewChangesProperty() {
        return previewChanges.getReadOnlyProperty();
    }

    /** Offers the sampled requests of the pool shown: each key lands on the ring. */
    public void offer(List<dev.fulcrum.requests.RequestSample> requests) {
        String pool = session.pool();
        for (dev.fulcrum.requests.RequestSample r : requests) {
            if (r.key() != null && (pool == null || pool.equals(r.pool()))) {
                keys.offer(r);
            }
        }
    }

    public ReadOnlyObjectProperty<RingGeometry> geometryProperty() {
        return geometry.getReadOnlyProperty();
    }

    /** Why there is nothing to draw, or null when there is a ring. */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<EngineClient.Lookup> lookupProperty() {
        return lookup.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<EngineClient.Preview> previewProperty() {
        return preview.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty previewTextProperty() {
        return previewText.getReadOnlyProperty();
    }

    /** Backend id → colour of the ring shown now (empty when none). */
    public Map<String, Color> colours() {
        RingGeometry g = geometry.get();
        return g == null ? Map.of() : g.colours();
    }

    public void lookup(String key) {
        lastKey = key == null || key.isEmpty() ? null : key;
        if (lastKey == null || geometry.get() == null) {
            lookup.set(null);
            return;
        }
        String pool = session.pool();
        String k = lastKey;
        session.call("lookup " + k, () -> session.client().lookup(pool, k), l -> {
            if (k.equals(lastKey)) {
                lookup.set(l);
            }
        }, msg -> lookup.set(null));
    }

    public void preview(WhatIf w) {
        String pool = session.pool();
        List<String> remove = new ArrayList<>();
        Map<String, Integer> add = Map.of();
        Map<String, Integer> weights = Map.of();
        switch (w.mode()) {
            case REMOVE -> remove.add(w.backend());
            case ADD -> add = Map.of(w.backend(), w.weight());
            case REWEIGHT -> weights = Map.of(w.backend(), w.weight());
        }
        List<String> r = remove;
        Map<String, Integer> a = add;
        Map<String, Integer> wt = weights;
        RingGeometry now = geometry.get();
        int tableSize = tableSize(pool);
        Map<String, Color> palette = dev.fulcrum.ui.Palette.forPool(session.state(), pool);
        // the stretches that change owner, worked out on the worker like the ring itself
        session.call("preview", () -> {
            EngineClient.Preview p = session.client().preview(pool, r, a, wt);
            return new Previewed(p, changes(now, p, w, tableSize, palette));
        }, pv -> {
            previewChanges.set(pv.changes());
            preview.set(pv.preview());
            previewText.set(String.format("%s would move %.1f%% of keys", describe(w),
                    pv.preview().movedFraction() * 100));
        }, msg -> {
            previewChanges.set(null);
            preview.set(null);
            previewText.set(msg);
        });
    }

    private record Previewed(EngineClient.Preview preview, List<RingGeometry.Change> changes) {
    }

    /**
     * What a what-if gives another owner: the engine's key space after the change against the one shown, for any
     * change and for a Maglev table as for a ring; from an engine that sends no points, a removal from a ring is
     * worked out here (its keys go on to the next point) and anything else shows no stretches.
     */
    static List<RingGeometry.Change> changes(RingGeometry now, EngineClient.Preview p, WhatIf w, int tableSize,
                                             Map<String, Color> palette) {
        if (now == null) {
            return null;
        }
        if (p.points() != null) {
            return RingGeometry.changes(now, RingGeometry.of(new EngineClient.Ring(now.type(), p.points(), p.share()),
                    tableSize, palette));
        }
        return w.mode() == Mode.REMOVE && !now.isTable() ? RingGeometry.changes(now, now.without(w.backend())) : null;
    }

    /** Makes the previewed change for real (undoable like any other). */
    public void apply(WhatIf w, String addUrl) {
        EngineState s = session.state();
        EngineState.BackendInfo b = s == null ? null : s.backend(w.backend());
        switch (w.mode()) {
            case REMOVE -> {
                if (b != null) {
                    commands.remove(b);
                }
            }
            case REWEIGHT -> {
                if (b != null) {
                    commands.setWeight(b.id(), b.weight(), w.weight());
                }
            }
            case ADD -> commands.add(session.pool(), w.backend(), addUrl, w.weight(), null, previewText::set);
        }
        clearPreview();
    }

    public void clearPreview() {
        previewChanges.set(null);
        preview.set(null);
        previewText.set("");
    }

    static String describe(WhatIf w) {
        return switch (w.mode()) {
            case REMOVE -> "Removing " + w.backend();
            case ADD -> "Adding " + w.backend() + " (weight " + w.weight() + ")";
            case REWEIGHT -> "Reweighting " + w.backend() + " to " + w.weight();
        };
    }
}
