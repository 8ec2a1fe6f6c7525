package dev.fulcrum.ui;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
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
 * <p>At most one tick of each action waits on the FX thread: a busy FX thread gets the next tick late, not a backlog.
 */
public final class FxTicks {
    private static final ScheduledExecutorService TICKS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fulcrum-ui-ticks");
        t.setDaemon(true);
        return t;
    });

    private FxTicks() {
    }

    /** A periodic action under way. */
    public interface Ticking {
        /** No more ticks; one already handed to the FX thread still runs. */
        void stop();
    }

    /** Runs {@code action} on the FX thread every {@code periodNanos}, the first time one period from now. */
    public static Ticking every(long periodNanos, Runnable action) {
        AtomicBoolean waiting = new AtomicBoolean();
        AtomicBoolean stopped = new AtomicBoolean();
        ScheduledFuture<?> f = TICKS.scheduleAtFixedRate(() -> {
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
        }, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
        return () -> {
            stopped.set(true);
            f.cancel(false);
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
