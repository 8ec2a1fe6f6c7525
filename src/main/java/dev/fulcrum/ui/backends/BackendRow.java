package dev.fulcrum.ui.backends;

import dev.fulcrum.admin.EngineState.BackendInfo;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

/**
 * One table row, kept for as long as the backend exists so its cells (and a slider being dragged) survive
 * every sample; only the properties change.
 */
public final class BackendRow {
    private final String id;
    private final ReadOnlyObjectWrapper<BackendInfo> info = new ReadOnlyObjectWrapper<>(this, "info");
    private final ReadOnlyDoubleWrapper drainProgress = new ReadOnlyDoubleWrapper(this, "drainProgress", -1);
    /** In-flight requests when the drain was first seen; the progress bar counts down from it. */
    private int drainStartInFlight = -1;

    BackendRow(BackendInfo b) {
        this.id = b.id();
        update(b);
    }

    void update(BackendInfo b) {
        info.set(b);
        switch (b.state()) {
            case "DRAINING" -> {
                if (drainStartInFlight < 0) {
                    drainStartInFlight = b.activeRequests();
                }
                drainStartInFlight = Math.max(drainStartInFlight, b.activeRequests());
                drainProgress.set(drainStartInFlight == 0 ? 1.0
                        : (drainStartInFlight - b.activeRequests()) / (double) drainStartInFlight);
            }
            case "DRAINED" -> {
                drainStartInFlight = Math.max(drainStartInFlight, 0);
                drainProgress.set(1.0);
            }
            default -> {
                drainStartInFlight = -1;
                drainProgress.set(-1);
            }
        }
    }

    public String id() {
        return id;
    }

    public BackendInfo info() {
        return info.get();
    }

    public ReadOnlyObjectProperty<BackendInfo> infoProperty() {
        return info.getReadOnlyProperty();
    }

    /** 0..1 while draining or drained (share of the in-flight requests finished), -1 otherwise. */
    public ReadOnlyDoubleProperty drainProgressProperty() {
        return drainProgress.getReadOnlyProperty();
    }
}
