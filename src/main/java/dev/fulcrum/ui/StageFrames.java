package dev.fulcrum.ui;

import dev.fulcrum.time.SystemClock;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleConsumer;
import javafx.animation.AnimationTimer;
import javafx.scene.Node;

/**
 * The frames of an animated view (Live, the ring's keys, the breakers), on the clock the moment allows: every pulse
 * (an {@link AnimationTimer}) while the view is on screen and the machine has room; a few ticks a second
 * ({@link FxTicks}) when {@link FramePacer} holds the stage back, so JavaFX does not pulse 60 times a second for the
 * frames it does not draw; and a slow look every {@link #HIDDEN_CHECK_MS} ms while the view is hidden, to see it come
 * back. Runs while the view's node is in a scene; FX thread only.
 *
 * <p>{@code frame} gets the time in seconds of each frame drawn, on the pulse's clock: JavaFX stamps each pulse with
 * the system's monotonic clock, so a frame between pulses reads {@link SystemClock#nanoTime()} (not an injected clock)
 * and the two kinds of frame keep one time line.
 */
public final class StageFrames {
    static final long HIDDEN_CHECK_MS = 250;

    private final BooleanSupplier shown;
    private final FramePacer pacer;
    private final DoubleConsumer frame;
    private final AnimationTimer pulses = new AnimationTimer() {
        @Override
        public void handle(long now) {
            tick(now / 1e9);
        }
    };
    private boolean running;
    private boolean pulsing;
    private FxTicks.Ticking ticking;
    private long tickNanos;

    private StageFrames(BooleanSupplier shown, FramePacer pacer, DoubleConsumer frame) {
        this.shown = shown;
        this.pacer = pacer;
        this.frame = frame;
    }

    /** Frames for the view under {@code node}, drawn while {@code shown} says so and the node is in a scene. */
    public static StageFrames of(Node node, BooleanSupplier shown, FramePacer pacer, DoubleConsumer frame) {
        StageFrames f = new StageFrames(shown, pacer, frame);
        node.sceneProperty().addListener((o, a, sc) -> {
            if (sc == null) {
                f.stop();
            } else {
                f.start();
            }
        });
        if (node.getScene() != null) {
            f.start();
        }
        return f;
    }

    /** Whether the stage draws on every pulse now (false: on ticks, or not at all); for tests. */
    public boolean everyPulse() {
        return pulsing;
    }

    private void start() {
        running = true;
        tick(SystemClock.nanoTime() / 1e9);
    }

    private void stop() {
        running = false;
        clock(-1);
    }

    private void tick(double seconds) {
        if (!running) {
            return;
        }
        boolean on = shown.getAsBoolean();
        if (on && pulsing) {
            if (pacer.due(seconds)) {
                frame.accept(seconds);
            }
        } else if (on) {
            pacer.check(seconds); // a tick comes at the cap's rate already: each one is drawn
            frame.accept(seconds);
        }
        clock(!on ? HIDDEN_CHECK_MS * 1_000_000 : pacer.cap() > 0 ? 1_000_000_000L / pacer.cap() : 0);
    }

    /** Pulses for 0, ticks every {@code nanos} for more, nothing for -1. */
    private void clock(long nanos) {
        if (nanos != 0 && pulsing) {
            pulses.stop();
            pulsing = false;
        }
        if (ticking != null && nanos != tickNanos) {
            ticking.stop();
            ticking = null;
        }
        if (nanos == 0 && !pulsing) {
            pulses.start();
            pulsing = true;
        } else if (nanos > 0 && ticking == null) {
            tickNanos = nanos;
            ticking = FxTicks.every(nanos, () -> tick(SystemClock.nanoTime() / 1e9));
        }
    }
}
