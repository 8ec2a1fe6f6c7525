package dev.fulcrum.ui;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.i18n.Texts;
import java.util.function.Consumer;

/**
 * The backend changes the views make (backends table, ring what-if), each recorded with its reverse in the
 * session's {@link UndoHistory}. Every client call runs on the session's worker; the change is recorded only
 * once the engine accepted it, so undo never reverses something that did not happen.
 */
public final class BackendCommands {
    /** While a slider is dragged, at most one weight per this many ms (5 a second) goes to the engine. */
    public static final long DRAG_SEND_INTERVAL_MS = 200;

    private final UiSession session;
    /** What the current drag last sent, per backend, and when: the engine has that weight until the drag ends. */
    private final java.util.Map<String, DragSent> lastDragSent = new java.util.HashMap<>();

    private record DragSent(long atMillis, int weight) {
    }

    public BackendCommands(UiSession session) {
        this.session = session;
    }

    private EngineClient client() {
        return session.client();
    }

    /**
     * A weight while dragging from {@code from} (the weight when the drag began): sent at most every
     * {@link #DRAG_SEND_INTERVAL_MS} per backend, and only when the engine does not have it already (the weight
     * this drag last sent, else {@code from}): a drag within one step repeats the value, and each repeat would
     * be a no-op event such as {@code weight a 5->5}. FX thread.
     */
    public void weightDragged(String id, int from, int weight, long nowMillis) {
        DragSent last = lastDragSent.get(id);
        int engineHas = last == null ? from : last.weight();
        if ((last == null || nowMillis - last.atMillis() >= DRAG_SEND_INTERVAL_MS) && weight != engineHas) {
            lastDragSent.put(id, new DragSent(nowMillis, weight));
            sendWeight(id, weight);
        }
    }

    /**
     * The final weight (drag released, click or key). Sent only when the engine does not have it yet: after a drag
     * the engine has the weight the drag last sent, so a release on that weight sends nothing (sending it again would
     * make a no-op event such as {@code weight a 15->15}); otherwise the engine has {@code from}. Undo restores
     * {@code from} whenever {@code from != to}, sent now or by the drag. FX thread.
     */
    public void weightSet(String id, int from, int to) {
        DragSent dragged = lastDragSent.remove(id);
        int engineHas = dragged != null ? dragged.weight() : from;
        if (to != engineHas) {
            if (from != to) {
                setWeight(id, from, to);
            } else {
                // dragged away and back: the engine has an intermediate weight, so send the final one (nothing to undo)
                sendWeight(id, to);
            }
        } else if (from != to) {
            recordWeight(id, from, to); // the drag already sent it: only undo is left to do
        }
    }

    /** Sends a weight without recording it (the live updates while a slider is dragged). */
    public void sendWeight(String id, int weight) {
        session.run(Texts.t("main.command.weight", id), () -> client().setWeight(id, weight));
    }

    /** Sets a weight and records {@code from} as what undo restores. */
    public void setWeight(String id, int from, int to) {
        weightChange(id, from, to, () -> client().setWeight(id, to));
    }

    /**
     * Records {@code from} as what undo restores for a weight already sent (by a drag's live updates), without
     * sending it again. Queued behind those sends on the worker, so it is recorded once they have run.
     */
    public void recordWeight(String id, int from, int to) {
        weightChange(id, from, to, () -> { });
    }

    private void weightChange(String id, int from, int to, Runnable send) {
        session.run(Texts.t("main.command.weight", id), send,
                () -> record(Texts.t("main.command.weight.change", id, Integer.toString(from), Integer.toString(to)),
                        () -> client().setWeight(id, from)), null);
    }

    public void drain(EngineState.BackendInfo b) {
        session.call(Texts.t("main.command.drain", b.id()), () -> {
            boolean wasInRotation = !drainingNow(b);
            client().drain(b.id());
            return wasInRotation;
        }, wasInRotation -> {
            if (wasInRotation) {
                record(Texts.t("main.command.drain", b.id()), () -> client().enable(b.id()));
            }
        }, null);
    }

    public void enable(EngineState.BackendInfo b) {
        session.call(Texts.t("main.command.enable", b.id()), () -> {
            boolean wasDraining = drainingNow(b);
            client().enable(b.id());
            return wasDraining;
        }, wasDraining -> {
            if (wasDraining) {
                record(Texts.t("main.command.enable", b.id()), () -> client().drain(b.id()));
            }
        }, null);
    }

    /**
     * Removes a backend (the engine drains it first). Undo re-enables it while it is still draining, and adds it
     * back with the same pool, URL and weight once it is gone.
     */
    public void remove(EngineState.BackendInfo b) {
        // undone, the backend comes back as it was: its cap, backup flag, and a drain the operator had started
        session.call(Texts.t("main.command.remove", b.id()), () -> {
            boolean wasDrained = drainingNow(b);
            client().remove(b.id());
            return wasDrained;
        }, wasDrained -> record(Texts.t("main.command.remove", b.id()), () -> {
            EngineState s = client().state();
            if (s.backend(b.id()) != null) {
                client().enable(b.id());
            } else {
                client().addBackend(b.pool(), b.id(), b.url(), b.weight(), b.maxInFlight(), b.backup(), b.labels());
            }
            if (wasDrained) {
                client().drain(b.id());
            }
        }), null);
    }

    /**
     * Whether the engine has {@code b} draining or drained now, on the worker just before a command: the row the
     * operator acted on shows the last sample, up to a quarter of a second old, and a drain clicked just before
     * may not be in it yet. The sample's state where the engine no longer has the backend.
     */
    private boolean drainingNow(EngineState.BackendInfo b) {
        EngineState.BackendInfo now = client().state().backend(b.id());
        String state = now == null ? b.state() : now.state();
        return "DRAINING".equals(state) || "DRAINED".equals(state);
    }

    /** Adds a backend; {@code onFail} receives the engine's message (e.g. a duplicate id) on the FX thread. */
    public void add(String pool, String id, String url, int weight, Runnable onDone, Consumer<String> onFail) {
        add(pool, id, url, weight, java.util.Map.of(), onDone, onFail);
    }

    /** Adds a backend with labels (empty for none), as the add above does otherwise. */
    public void add(String pool, String id, String url, int weight, java.util.Map<String, String> labels,
                    Runnable onDone, Consumer<String> onFail) {
        // a backend without labels goes by the plain add, which every engine takes (an HAProxy fleet too)
        Runnable command = labels.isEmpty() ? () -> client().addBackend(pool, id, url, weight)
                : () -> client().addBackend(pool, id, url, weight, null, false, labels);
        session.run(Texts.t("main.command.add", id), command, () -> {
            record(Texts.t("main.command.add", id), () -> client().remove(id));
            if (onDone != null) {
                onDone.run();
            }
        }, onFail);
    }

    private void record(String what, Runnable reverse) {
        session.undo().record(new UndoHistory.Change(what, reverse));
    }

    /** Reverses the newest change, if any. */
    public void undo() {
        UndoHistory.Change c = session.undo().pop();
        if (c != null) {
            session.run(Texts.t("main.command.undo", c.description()), c.reverse());
        }
    }
}
