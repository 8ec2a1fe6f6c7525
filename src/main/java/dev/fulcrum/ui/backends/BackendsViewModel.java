package dev.fulcrum.ui.backends;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.ui.BackendCommands;
import dev.fulcrum.ui.UiSession;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The backends of the selected pool as long-lived rows, the live weight throttle, and the commands (through
 * {@link BackendCommands}, so each can be undone). FX thread only.
 */
public final class BackendsViewModel {
    /** While a slider is dragged, at most one weight per this many ms (5 a second) goes to the engine. */
    public static final long DRAG_SEND_INTERVAL_MS = 200;
    /** After a local weight change, samples older than the change may still arrive: ignore their weight. */
    static final long LOCAL_WEIGHT_HOLD_MS = 1000;

    private final UiSession session;
    private final BackendCommands commands;
    private final ObservableList<BackendRow> rows = FXCollections.observableArrayList();
    private final ObservableList<BackendRow> readOnlyRows = FXCollections.unmodifiableObservableList(rows);
    private final Map<String, BackendRow> byId = new HashMap<>();
    /** What the current drag last sent, per backend, and when: the engine has that weight until the drag ends. */
    private final Map<String, DragSent> lastDragSent = new HashMap<>();

    private record DragSent(long atMillis, int weight) {
    }

    public BackendsViewModel(UiSession session) {
        this.session = session;
        this.commands = new BackendCommands(session);
        session.stateProperty().addListener((o, a, s) -> update(s));
        session.poolProperty().addListener((o, a, p) -> update(session.state()));
    }

    public ObservableList<BackendRow> rows() {
        return readOnlyRows;
    }

    public BackendCommands commands() {
        return commands;
    }

    void update(EngineState s) {
        if (s == null) {
            return;
        }
        String pool = session.pool();
        Set<String> seen = new HashSet<>();
        int index = 0;
        for (BackendInfo b : s.backends()) {
            if (pool != null && !pool.equals(b.pool())) {
                continue;
            }
            seen.add(b.id());
            BackendRow row = byId.get(b.id());
            if (row == null) {
                row = new BackendRow(b);
                byId.put(b.id(), row);
                rows.add(Math.min(index, rows.size()), row);
            } else {
                row.update(b);
            }
            index++;
        }
        if (seen.size() != rows.size()) {
            rows.removeIf(r -> !seen.contains(r.id()));
            byId.keySet().retainAll(seen);
        }
    }

    /** Every backend id in every pool (ids are unique across pools), for the Add dialog's check. */
    public Set<String> allIds() {
        Set<String> ids = new HashSet<>();
        EngineState s = session.state();
        if (s != null) {
            s.backends().forEach(b -> ids.add(b.id()));
        }
        return ids;
    }

    /**
     * A weight while dragging from {@code from} (the weight when the drag began): sent at most every
     * {@link #DRAG_SEND_INTERVAL_MS} per backend, and only when the engine does not have it already (the weight
     * this drag last sent, else {@code from}): a drag within one step repeats the value, and each repeat would
     * be a no-op event such as {@code weight a 5->5}.
     */
    public void weightDragged(String id, int from, int weight, long nowMillis) {
        DragSent last = lastDragSent.get(id);
        int engineHas = last == null ? from : last.weight();
        if ((last == null || nowMillis - last.atMillis() >= DRAG_SEND_INTERVAL_MS) && weight != engineHas) {
            lastDragSent.put(id, new DragSent(nowMillis, weight));
            commands.sendWeight(id, weight);
        }
    }

    /**
     * The final weight (drag released, click or key). Sent only when the engine does not have it yet: after a drag
     * the engine has the weight the drag last sent, so a release on that weight sends nothing (sending it again would
     * make a no-op event such as {@code weight a 15->15}); otherwise the engine has {@code from}. Undo restores
     * {@code from} whenever {@code from != to}, sent now or by the drag.
     */
    public void weightSet(String id, int from, int to) {
        DragSent dragged = lastDragSent.remove(id);
        int engineHas = dragged != null ? dragged.weight() : from;
        if (to != engineHas) {
            if (from != to) {
                commands.setWeight(id, from, to);
            } else {
                // dragged away and back: the engine has an intermediate weight, so send the final one (nothing to undo)
                commands.sendWeight(id, to);
            }
        } else if (from != to) {
            commands.recordWeight(id, from, to); // the drag already sent it: only undo is left to do
        }
    }

    public void drain(BackendRow r) {
        commands.drain(r.info());
    }

    public void enable(BackendRow r) {
        commands.enable(r.info());
    }

    public void remove(BackendRow r) {
        commands.remove(r.info());
    }

    public void add(String id, String url, int weight, Runnable onDone, Consumer<String> onFail) {
        commands.add(session.pool(), id, url, weight, onDone, onFail);
    }

    public void undo() {
        commands.undo();
    }

    List<BackendRow> snapshot() {
        return List.copyOf(rows);
    }
}
