package dev.fulcrum.ui.routes;

import dev.fulcrum.engine.routing.Split;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The canary slider's sends, as the backend weight slider's ({@link dev.fulcrum.ui.BackendCommands}): while it is
 * dragged, at most one split per {@link #DRAG_SEND_INTERVAL_MS} per route goes to the engine, and only one the engine
 * does not have; on release the final split is sent unless the drag already sent it, and recorded for undo with the
 * split the drag began from. Plain Java: the window hands it a sender that runs {@code EngineClient.setSplit} on the
 * session's worker and an undo that records into the session's history; a test hands it lists.
 */
public final class SplitCommands {
    /** As {@link dev.fulcrum.ui.BackendCommands#DRAG_SEND_INTERVAL_MS}: 5 splits a second at the most. */
    public static final long DRAG_SEND_INTERVAL_MS = dev.fulcrum.ui.BackendCommands.DRAG_SEND_INTERVAL_MS;

    /** Sends a split of a route to the engine (off the FX thread in the window). */
    public interface Sender {
        void send(int route, List<Split.Arm> arms);
    }

    /** Records a change that was sent: {@code restore} is the split undo puts back. */
    public interface Undo {
        void record(int route, List<Split.Arm> restore, List<Split.Arm> to);
    }

    private record Sent(long atMillis, List<Split.Arm> arms) {
    }

    private final Sender sender;
    private final Undo undo;
    private final Map<Integer, Sent> lastDragSent = new HashMap<>();

    public SplitCommands(Sender sender, Undo undo) {
        this.sender = sender;
        this.undo = undo;
    }

    /** A split while dragging from {@code from} (the split when the drag began). FX thread. */
    public void dragged(int route, List<Split.Arm> from, List<Split.Arm> to, long nowMillis) {
        Sent last = lastDragSent.get(route);
        List<Split.Arm> engineHas = last == null ? from : last.arms();
        if ((last == null || nowMillis - last.atMillis() >= DRAG_SEND_INTERVAL_MS) && !to.equals(engineHas)) {
            lastDragSent.put(route, new Sent(nowMillis, to));
            sender.send(route, to);
        }
    }

    /** The final split (released, a click on the track, a key). FX thread. */
    public void set(int route, List<Split.Arm> from, List<Split.Arm> to) {
        Sent dragged = lastDragSent.remove(route);
        List<Split.Arm> engineHas = dragged != null ? dragged.arms() : from;
        if (!to.equals(engineHas)) {
            sender.send(route, to);
        }
        if (!to.equals(from)) {
            undo.record(route, from, to);
        }
    }
}
