package dev.fulcrum.ui.ring;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.BackendCommands;
import dev.fulcrum.ui.UiSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.scene.paint.Color;

/**
 * The ring view's state: the selected pool's ring or table (fetched again only when the pool's strategy,
 * members, weights or states change), the looked-up key, and a what-if preview. FX thread only; every client
 * call goes through the session's worker.
 *
 * <p>The teaching view: a consistent-hash ring can be drawn at another count of virtual nodes per backend than the
 * pool's ({@link #setDrawnVirtualNodes}, a {@link TeachingRing}), with each backend's share against its fair share
 * ({@link #spreadProperty()}); the pool keeps its own count until {@link #applyVirtualNodes()} sets it. A what-if on
 * that ring is worked out on it, as the engine would.
 */
public final class RingViewModel {
    /** A what-if: remove a backend, add one (id, weight), or reweight one. */
    public enum Mode { REMOVE, ADD, REWEIGHT }

    public record WhatIf(Mode mode, String backend, int weight) {
    }

    private final UiSession session;
    private final BackendCommands commands;
    private final ReadOnlyObjectWrapper<RingGeometry> geometry = new ReadOnlyObjectWrapper<>(this, "geometry");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper(this, "message", Texts.t("ring.loading"));
    private final ReadOnlyObjectWrapper<EngineClient.Lookup> lookup = new ReadOnlyObjectWrapper<>(this, "lookup");
    private final ReadOnlyObjectWrapper<EngineClient.Preview> preview = new ReadOnlyObjectWrapper<>(this, "preview");
    private final ReadOnlyStringWrapper previewText = new ReadOnlyStringWrapper(this, "previewText", "");
    private final ReadOnlyObjectWrapper<List<RingGeometry.Change>> previewChanges =
            new ReadOnlyObjectWrapper<>(this, "previewChanges");
    private final ReadOnlyObjectWrapper<KeyFlow.Moved> moved = new ReadOnlyObjectWrapper<>(this, "moved");
    private final ReadOnlyIntegerWrapper poolVirtualNodes = new ReadOnlyIntegerWrapper(this, "poolVirtualNodes");
    private final ReadOnlyIntegerWrapper drawnVirtualNodes = new ReadOnlyIntegerWrapper(this, "drawnVirtualNodes");
    private final ReadOnlyObjectWrapper<Spread> spread = new ReadOnlyObjectWrapper<>(this, "spread");
    private final ReadOnlyObjectWrapper<Spread> spreadAfter = new ReadOnlyObjectWrapper<>(this, "spreadAfter");
    private final ReadOnlyObjectWrapper<RingGeometry> previewGeometry = new ReadOnlyObjectWrapper<>(this, "previewGeometry");
    private final ReadOnlyStringWrapper virtualNodesResult = new ReadOnlyStringWrapper(this, "virtualNodesResult", "");
    private final KeyFlow keys;
    /** The pool's own ring as the engine sent it last (the teaching view draws its backends at another count). */
    private EngineClient.Ring poolRing;
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
        int vn = virtualNodesOf(pi);
        if (vn != poolVirtualNodes.get()) {
            // another count for the pool (applied here, in the Strategy tab, or another pool): the drawing follows it
            poolVirtualNodes.set(vn);
            drawnVirtualNodes.set(vn);
        }
        if (!next.equals(signature)) {
            signature = next;
            clearPreview(); // a what-if of the ring as it was: it answers nothing about this one
            refresh();
        }
    }

    /** The pool's virtual nodes per backend (its strategy's setting, or the setting's default), 0 when it has none. */
    static int virtualNodesOf(EngineState.PoolInfo pi) {
        if (pi == null || pi.strategy() == null || !(pi.strategy().get("type") instanceof String type)) {
            return 0;
        }
        dev.fulcrum.engine.strategy.StrategyDescriptor d = dev.fulcrum.engine.strategy.Strategies.descriptor(type);
        dev.fulcrum.engine.strategy.StrategyOption o = d == null ? null : d.option(VIRTUAL_NODES);
        if (o == null) {
            return 0;
        }
        Object v = pi.strategy().get(VIRTUAL_NODES);
        return v instanceof Number n ? n.intValue() : o.defaultValue() instanceof Number n ? n.intValue() : 0;
    }

    private static final String VIRTUAL_NODES = "virtualNodes";

    /** Whether {@code ring} is drawn at {@code drawn} virtual nodes per backend instead of the pool's own count. */
    private static boolean teaching(EngineClient.Ring ring, int poolCount, int drawn) {
        return ring != null && poolCount > 0 && drawn > 0 && drawn != poolCount
                && dev.fulcrum.engine.strategy.StrategySpec.CONSISTENT_HASH.equals(ring.type());
    }

    /** Whether the ring shown is drawn at another count of virtual nodes than the pool's. */
    public boolean teaching() {
        return teaching(poolRing, poolVirtualNodes.get(), drawnVirtualNodes.get());
    }

    /** What is drawn of {@code ring}: itself, or its backends at {@code drawn} points each. */
    private static EngineClient.Ring drawnOf(EngineClient.Ring ring, int poolCount, int drawn) {
        return teaching(ring, poolCount, drawn) ? TeachingRing.of(ring, poolCount).ring(drawn) : ring;
    }

    private record Fetched(EngineClient.Ring ring, RingGeometry geometry, int drawn) {
    }

    /** Fetches the ring again (and the looked-up key's owner, which may have changed with it). */
    public void refresh() {
        String pool = session.pool();
        // the geometry (8,000 points at 50 x 160) is built on the worker too, not on the FX thread
        int tableSize = tableSize(pool);
        Map<String, Color> palette = dev.fulcrum.ui.Palette.forPool(session.state(), pool);
        int poolCount = poolVirtualNodes.get();
        int drawn = drawnVirtualNodes.get();
        session.call("ring of " + pool, () -> java.util.Optional.ofNullable(session.ring(pool))
                        .map(r -> new Fetched(r, RingGeometry.of(drawnOf(r, poolCount, drawn), tableSize, palette),
                                drawn)),
                f -> {
                    if (pool.equals(session.pool())) {
                        poolRing = f.map(Fetched::ring).orElse(null);
                        if (f.isPresent() && f.get().drawn() != drawnVirtualNodes.get()) {
                            redraw(false); // the count changed while this ring was on its way: draw it at the new one
                            return;
                        }
                        show(f.map(Fetched::geometry).orElse(null), pool + "|" + strategyType(pool));
                        // the looked-up key's owner, asked of this ring now that it is here (asked before it, the
                        // answer would come from no ring or the last one and stay "…" after a switch of strategy)
                        lookup(lastKey);
                    }
                }, msg -> message.set(Texts.t("ring.error.read", msg)));
    }

    /**
     * Draws the pool's ring at {@code count} virtual nodes per backend (one of {@link TeachingRing#COUNTS}, or the
     * pool's own count to draw its own ring again); the pool is not touched. The keys seen take their owners on the
     * ring drawn at once: nothing moved in the pool.
     */
    public void setDrawnVirtualNodes(int count) {
        int before = drawnVirtualNodes.get();
        if (count == before || count < 1) {
            return;
        }
        drawnVirtualNodes.set(count);
        virtualNodesResult.set("");
        clearPreview(); // a what-if on the ring drawn before
        redraw(true);
    }

    /** Draws the pool's last ring again at the count chosen now; {@code reseat}: a new drawing, not a change. */
    private void redraw(boolean reseat) {
        EngineClient.Ring r = poolRing;
        if (r == null) {
            return; // the ring is on its way, and is drawn at the count chosen when it comes
        }
        String pool = session.pool();
        int tableSize = tableSize(pool);
        Map<String, Color> palette = dev.fulcrum.ui.Palette.forPool(session.state(), pool);
        int poolCount = poolVirtualNodes.get();
        int drawn = drawnVirtualNodes.get();
        session.call("ring of " + pool + " at " + drawn + " points per backend",
                () -> RingGeometry.of(drawnOf(r, poolCount, drawn), tableSize, palette), g -> {
                    if (pool.equals(session.pool()) && r == poolRing && drawn == drawnVirtualNodes.get()) {
                        show(g, pool + "|" + strategyType(pool), reseat);
                    }
                }, msg -> message.set(Texts.t("ring.error.draw", msg)));
    }

    /** The pool's own virtual nodes per backend, 0 when its strategy has none (round robin, maglev...). */
    public ReadOnlyIntegerProperty poolVirtualNodesProperty() {
        return poolVirtualNodes.getReadOnlyProperty();
    }

    /** The virtual nodes per backend drawn: the pool's own, or the teaching view's count. */
    public ReadOnlyIntegerProperty drawnVirtualNodesProperty() {
        return drawnVirtualNodes.getReadOnlyProperty();
    }

    /** Each backend's share of the ring or table shown against its fair share; null when there is none. */
    public ReadOnlyObjectProperty<Spread> spreadProperty() {
        return spread.getReadOnlyProperty();
    }

    /** The ring or table the what-if previewed would leave, or null (none, or not known from this engine). */
    public ReadOnlyObjectProperty<RingGeometry> previewGeometryProperty() {
        return previewGeometry.getReadOnlyProperty();
    }

    /** The spread the what-if previewed would leave, or null. */
    public ReadOnlyObjectProperty<Spread> spreadAfterProperty() {
        return spreadAfter.getReadOnlyProperty();
    }

    /** What the last {@link #applyVirtualNodes()} came to ("applying…", done, or the engine's refusal). */
    public ReadOnlyStringProperty virtualNodesResultProperty() {
        return virtualNodesResult.getReadOnlyProperty();
    }

    /**
     * Sets the pool's virtual nodes per backend to the count drawn, through the engine client as the Strategy tab
     * sets a strategy: the pool's strategy object as it is, with only {@code virtualNodes} changed.
     */
    public void applyVirtualNodes() {
        String pool = session.pool();
        EngineState s = session.state();
        EngineState.PoolInfo pi = s == null ? null : s.pools().get(pool);
        int count = drawnVirtualNodes.get();
        if (pi == null || pi.strategy() == null || poolVirtualNodes.get() == 0 || count == poolVirtualNodes.get()) {
            return;
        }
        Map<String, Object> spec = new java.util.LinkedHashMap<>();
        pi.strategy().forEach((k, v) -> {
            if (v != null) {
                spec.put(k, v);
            }
        });
        spec.put(VIRTUAL_NODES, count);
        virtualNodesResult.set(Texts.t("ring.applying"));
        session.run("virtual nodes of " + pool, () -> session.client().setStrategy(pool, spec),
                () -> virtualNodesResult.set(Texts.t("ring.points.applied", pool, String.valueOf(count))),
                virtualNodesResult::set);
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
        show(g, of, false);
    }

    /** {@link #show(RingGeometry, String)}; {@code reseat}: another drawing of the same ring, whose keys move nowhere. */
    private void show(RingGeometry g, String of, boolean reseat) {
        RingGeometry before = geometry.get();
        if (g == null) {
            geometry.set(null);
            spread.set(null);
            keys.noRing();
            moved.set(null);
            message.set(Texts.t("ring.none", of.substring(of.indexOf('|') + 1)));
        } else {
            double changed = before == null || !of.equals(shownOf) || reseat ? 0 : RingGeometry.movedFraction(before, g);
            if (before != null && !of.equals(shownOf)) {
                keys.clear();
                moved.set(null);
            }
            if (reseat) {
                keys.reseat(g);
            } else if (changed > 0) {
                moved.set(keys.change(g, changed, teaching()
                        ? Texts.t("ring.moved.drawn", String.valueOf(drawnVirtualNodes.get())) : null));
            } else {
                keys.setGeometry(g);
            }
            spread.set(Spread.of(shares(g), weights(g)));
            geometry.set(g);
            message.set(null);
        }
        shownOf = of;
    }

    private static Map<String, Double> shares(RingGeometry g) {
        Map<String, Double> m = new java.util.LinkedHashMap<>();
        for (RingGeometry.Part p : g.parts()) {
            m.put(p.backend(), p.share());
        }
        return m;
    }

    /**
     * Each backend's weight, for its fair share: on a consistent-hash ring the units its points say (what the ring
     * was built from), else the effective weight the engine reports.
     */
    private Map<String, ? extends Number> weights(RingGeometry g) {
        if (!g.isTable() && poolRing != null && poolVirtualNodes.get() > 0) {
            return TeachingRing.of(poolRing, poolVirtualNodes.get()).weights();
        }
        Map<String, Double> w = new java.util.HashMap<>();
        EngineState s = session.state();
        if (s != null) {
            for (EngineState.BackendInfo b : s.backends()) {
                if (b.pool().equals(session.pool())) {
                    w.put(b.id(), b.effectiveWeight());
                }
            }
        }
        return w;
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
        // a ring drawn at the teaching view's count is previewed on itself, as the engine would preview it
        TeachingRing drawn = teaching() ? TeachingRing.of(poolRing, poolVirtualNodes.get()) : null;
        int count = drawnVirtualNodes.get();
        Map<String, Number> weightsAfter = new java.util.LinkedHashMap<>(now == null ? Map.of() : weights(now));
        switch (w.mode()) {
            case REMOVE -> weightsAfter.remove(w.backend());
            case ADD, REWEIGHT -> weightsAfter.put(w.backend(), w.weight());
        }
        // the stretches that change owner, worked out on the worker like the ring itself
        session.call("preview", () -> {
            EngineClient.Preview p = drawn != null ? drawn.preview(count, w) : session.client().preview(pool, r, a, wt);
            RingGeometry after = after(now, p, w, tableSize, palette);
            return new Previewed(p, after, after == null ? null : RingGeometry.changes(now, after));
        }, pv -> {
            if (now != geometry.get()) {
                return; // the ring changed while the what-if was worked out: it answers nothing about this one
            }
            previewChanges.set(pv.changes());
            preview.set(pv.preview());
            spreadAfter.set(Spread.of(pv.preview().share(), weightsAfter));
            previewGeometry.set(pv.after());
            // the keys seen that it would give another owner, counted, where the view knows the ring after it
            previewText.set(pv.after() != null
                    ? keys.preview(pv.after(), pv.preview().movedFraction(), describe(w)).text()
                    : Texts.t("ring.preview.moved", describe(w), KeyFlow.percent(pv.preview().movedFraction())));
        }, msg -> {
            previewGeometry.set(null);
            previewChanges.set(null);
            preview.set(null);
            spreadAfter.set(null);
            keys.endPreview();
            previewText.set(msg);
        });
    }

    private record Previewed(EngineClient.Preview preview, RingGeometry after, List<RingGeometry.Change> changes) {
    }

    /**
     * What a what-if gives another owner: the engine's key space after the change against the one shown, for any
     * change and for a Maglev table as for a ring; from an engine that sends no points, a removal from a ring is
     * worked out here (its keys go on to the next point) and anything else shows no stretches.
     */
    static List<RingGeometry.Change> changes(RingGeometry now, EngineClient.Preview p, WhatIf w, int tableSize,
                                             Map<String, Color> palette) {
        RingGeometry after = after(now, p, w, tableSize, palette);
        return after == null ? null : RingGeometry.changes(now, after);
    }

    /** The ring or table a what-if would leave, as {@link #changes} works it out; null when it cannot be known. */
    static RingGeometry after(RingGeometry now, EngineClient.Preview p, WhatIf w, int tableSize,
                              Map<String, Color> palette) {
        if (now == null) {
            return null;
        }
        if (p.points() != null) {
            return RingGeometry.of(new EngineClient.Ring(now.type(), p.points(), p.share()), tableSize, palette);
        }
        return w.mode() == Mode.REMOVE && !now.isTable() ? now.without(w.backend()) : null;
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
        previewGeometry.set(null);
        previewChanges.set(null);
        preview.set(null);
        spreadAfter.set(null);
        previewText.set("");
        keys.endPreview();
    }

    static String describe(WhatIf w) {
        return switch (w.mode()) {
            case REMOVE -> Texts.t("ring.whatif.removing", w.backend());
            case ADD -> Texts.t("ring.whatif.adding", w.backend(), String.valueOf(w.weight()));
            case REWEIGHT -> Texts.t("ring.whatif.reweighting", w.backend(), String.valueOf(w.weight()));
        };
    }
}
