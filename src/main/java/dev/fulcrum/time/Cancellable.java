package dev.fulcrum.time;

/** A task handed to a {@link Scheduler}; cancelling it stops future runs (a run under way finishes). */
@FunctionalInterface
public interface Cancellable {
    void cancel();
}
