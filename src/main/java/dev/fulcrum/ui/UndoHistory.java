package dev.fulcrum.ui;

import java.util.ArrayDeque;
import java.util.Deque;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

/**
 * The changes the operator made from this window, newest first, each with the command that reverses it. Only the
 * window's own changes are here: undoing a weight someone else set through the admin API would be a surprise.
 * Used on the FX thread only.
 */
public final class UndoHistory {
    /** Deep enough for "oops, and the one before"; older changes fall off. */
    public static final int DEPTH = 20;

    /** One reversible change: what it was, in words, and how to reverse it (runs on the session's worker). */
    public record Change(String description, Runnable reverse) {
    }

    private final Deque<Change> changes = new ArrayDeque<>();
    private final ReadOnlyObjectWrapper<Change> last = new ReadOnlyObjectWrapper<>(this, "last");

    public void record(Change c) {
        changes.push(c);
        while (changes.size() > DEPTH) {
            changes.removeLast();
        }
        last.set(c);
    }

    /** Removes and returns the newest change, or null when there is none. */
    public Change pop() {
        Change c = changes.poll();
        last.set(changes.peek());
        return c;
    }

    /** Forgets every change: they were made on an engine that is gone (a restarted one has none of them). */
    public void clear() {
        changes.clear();
        last.set(null);
    }

    /** The change Ctrl+Z would reverse, or null; the toolbar shows its description. */
    public ReadOnlyObjectProperty<Change> lastProperty() {
        return last.getReadOnlyProperty();
    }
}
