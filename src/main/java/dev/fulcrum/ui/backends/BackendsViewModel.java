package dev.fulcrum.ui.backends;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.time.Ticker;
import dev.fulcrum.ui.BackendCommands;
import dev.fulcrum.ui.UiSession;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The backends of the selected pool as long-lived rows, the live weight throttle, and the commands (through
 * {@link BackendCommands}, so each can be undone). FX thread only.
 */
public final class BackendsViewModel {
    public static final long DRAG_SEND_INTERVAL_MS = BackendCommands.DRAG_SEND_INTERVAL_MS;

    private final UiSession session;
    private final BackendCommands commands;
    private final ObservableList<BackendRow> rows = FXCollections.observableArrayList();
    private final ObservableList<BackendRow> readOnlyRows = FXCollections.unmodifiableObservableList(rows);
    private final Map<String, BackendRow> byId = new HashMap<>();
    private final ReadOnlyBooleanWrapper anyLabels = new ReadOnlyBooleanWrapper(this, "anyLabels");

    public BackendsViewModel(UiSession session) {
        this.session = session;
        this.commands = new BackendCommands(session);
        session.stateProperty().addListener((o, a, s) -> update(s));
        session.poolProperty().addListener((o, a, p) -> update(session.state()));
        // while the engine does not answer, the rows keep the figures of its last answer: the window's banner says
        // they are from then, and the table greys them (BackendsController)
    }

    public ObservableList<BackendRow> rows() {
        return readOnlyRows;
    }

    /** The window's clock, for the weight sliders. */
    public Ticker ticker() {
        return session.ticker();
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
        boolean labelled = false;
        for (BackendInfo b : s.backends()) {
            if (pool != null && !pool.equals(b.pool())) {
                continue;
            }
            seen.add(b.id());
            labelled |= !b.labels().isEmpty();
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
        anyLabels.set(labelled);
    }

    /** Whether a backend of the pool shown has labels (the Labels column shows only then). */
    public ReadOnlyBooleanProperty anyLabelsProperty() {
        return anyLabels.getReadOnlyProperty();
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

    /** Whether the strategy of {@code b}'s pool reads weights (a slider under one that does not is disabled). */
    public boolean readsWeights(BackendInfo b) {
        return session.readsWeights(b.pool());
    }

    /** A weight while a slider is dragged: see {@link BackendCommands#weightDragged}. */
    public void weightDragged(String id, int from, int weight, long nowMillis) {
        commands.weightDragged(id, from, weight, nowMillis);
    }

    /** The final weight (drag released, click or key): see {@link BackendCommands#weightSet}. */
    public void weightSet(String id, int from, int to) {
        commands.weightSet(id, from, to);
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

    /** Adds a backend with labels (empty for none). */
    public void add(String id, String url, int weight, Map<String, String> labels, Runnable onDone,
                    Consumer<String> onFail) {
        commands.add(session.pool(), id, url, weight, labels, onDone, onFail);
    }

    public void undo() {
        commands.undo();
    }

    List<BackendRow> snapshot() {
        return List.copyOf(rows);
    }
}
