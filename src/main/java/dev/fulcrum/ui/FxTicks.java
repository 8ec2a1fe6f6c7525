package dev.fulcrum.ui;

import dev.fulcrum.time.Cancellable;
import dev.fulcrum.time.Scheduler;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.util.Duration;

/**
 * Periodic work on the FX thread that does not hold the pulse. While any Timeline or AnimationTimer runs, JavaFX pulses
 * 60 times a second, and every pulse walks the bounds of the whole scene (every tab's nodes, shown or not): at full
 * proxy load that walk was the largest part of the window's FX-thread time. A tick here is a {@code runLater} from one
 * shared daemon thread instead, so between ticks the FX thread sleeps unless something on screen changed.
 *
 * <p>Every tick lands on one grid: an action every p nanoseconds runs at the multiples of p counted from one origin, so
 * actions whose periods divide one another (125 ms, 250 ms, 500 ms, 1 s) reach the FX thread back to back and share one
 * pulse. A worker's result handed over with {@link #soon} waits for the next point of the {@link #GRID_NANOS} grid, so
 * it shares that pulse too: with the stage held to 4 frames a second on a saturated machine, the window pulses 4 times
 * a second rather than once for each sample, status line and timeline tick besides.
 *
 * <p>At most one tick of each action waits on the FX thread: a busy FX thread gets the next tick late, not a backlog.
 * The ticks run on the system clock, as the pulses do: they pace the screen, and no test waits for one to measure time.
 */
public final class FxTicks {
    /**
     * The grid {@link #soon} hands over on: 1/4 s, the stage's frame gap when the machine is saturated, and the
     * session's sample period, so a sample waits at most one period to be shown.
     */
    public static final long GRID_NANOS = 250_000_000;
    private static final Scheduler TICKS = Scheduler.daemon("fulcrum-ui-ticks");
    private static final long ORIGIN = TICKS.ticker().nanos();

    private FxTicks() {
    }

    /** A periodic action under way. */
    public interface Ticking {
        /** No more ticks; one already handed to the FX thread still runs. */
        void stop();
    }

    /** How long from {@code now} (the ticks' clock) to the next multiple of {@code periodNanos} on the grid; never 0. */
    static long untilNext(long now, long periodNanos) {
        return periodNanos - Math.floorMod(now - ORIGIN, periodNanos);
    }

    /**
     * Runs {@code action} once on the FX thread at the next point of the {@link #GRID_NANOS} grid (within 1/4 s): for a
     * worker handing over what it read, so that it shares the pulse of the ticks due then.
     */
    public static void soon(Runnable action) {
        TICKS.schedule(() -> {
            try {
                Platform.runLater(action);
            } catch (IllegalStateException toolkitGone) {
                // the window has closed: nothing is left to show it
            }
        }, untilNext(TICKS.ticker().nanos(), GRID_NANOS), TimeUnit.NANOSECONDS);
    }

    /** Runs {@code action} on the FX thread at every multiple of {@code periodNanos} on the grid, the first within one period. */
    public static Ticking every(long periodNanos, Runnable action) {
        AtomicBoolean waiting = new AtomicBoolean();
        AtomicBoolean stopped = new AtomicBoolean();
        Cancellable f = TICKS.scheduleAtFixedRate(() -> {
            if (stopped.get() || !waiting.compareAndSet(false, true)) {
                return;
            }
            try {
                Platform.runLater(() -> {
                    waiting.set(false);
                    if (!stopped.get()) {
                        action.run();
                    }
                });
            } catch (IllegalStateException toolkitGone) {
                stopped.set(true);
            }
        }, untilNext(TICKS.ticker().nanos(), periodNanos), periodNanos, TimeUnit.NANOSECONDS);
        return () -> {
            stopped.set(true);
            f.cancel();
        };
    }

    /** {@link #every} for a {@link Duration}. */
    public static Ticking every(Duration period, Runnable action) {
        return every((long) (period.toMillis() * 1_000_000), action);
    }

    /**
     * Runs {@code action} every {@code period} while {@code node} is in a scene: a running tick holds the view (and an
     * engine client behind it) alive, so it stops when the node leaves its scene and starts again when it is shown.
     */
    public static void everyWhileShown(Node node, Duration period, Runnable action) {
        Ticking[] current = {null};
        Runnable start = () -> {
            if (current[0] == null) {
                current[0] = every(period, action);
            }
        };
        node.sceneProperty().addListener((o, a, sc) -> {
            if (sc == null) {
                if (current[0] != null) {
                    current[0].stop();
                    current[0] = null;
                }
            } else {
                start.run();
            }
        });
        if (node.getScene() != null) {
            start.run();
        }
    }
}
