package dev.fulcrum.ui;

import dev.fulcrum.time.Ticker;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

/**
 * How old the figures on screen are, and which engine instance gave them, on the session's {@link Ticker}. The
 * figures count as stale once a read of the engine failed, or once a remote engine has not answered for
 * {@link #STALE_AFTER_MS}; the next answer shown clears it. Views grey their figures and disable their actions while
 * it is set. An engine that answers as another instance than before was restarted: its listener hears of it before
 * {@link #instanceProperty()} changes, so the session drops the undo history of the old one first.
 *
 * <p>Example, remote engine, answered at 0 s: {@link #check} at 1.999 s leaves the figures live, at 2 s marks them
 * stale ({@link #msSinceLastAnswer()} 2000); an answer read at 5 s and shown makes them live again.
 *
 * <p>{@link #answered} runs on the session's worker, the rest on the FX thread.
 */
public final class Staleness {
    /** Milliseconds without an answer after which the figures on screen count as stale. */
    public static final long STALE_AFTER_MS = 2_000;

    private final Ticker ticker;
    private final boolean remote;
    private final Runnable newInstance;
    private final ReadOnlyBooleanWrapper stale = new ReadOnlyBooleanWrapper(this, "stale");
    private final ReadOnlyObjectWrapper<String> instance = new ReadOnlyObjectWrapper<>(this, "instance");
    private volatile String answeredAs;
    /** When the engine last answered a state read (the ticker's nanos), or when this began. */
    private volatile long lastAnswerNanos;
    private volatile long lastAnswerWallMillis;

    /**
     * @param remote      whether a long silence means the engine may be gone: false for the window's own engine,
     *                    which answers from this process, so a slow answer is a busy machine
     * @param newInstance told (FX thread) when an engine answers as another instance than the one before
     */
    Staleness(Ticker ticker, boolean remote, Runnable newInstance) {
        this.ticker = ticker;
        this.remote = remote;
        this.newInstance = newInstance;
        this.lastAnswerNanos = ticker.nanos();
        this.lastAnswerWallMillis = ticker.wallMillis();
    }

    /** The engine answered a state read now, as {@code instance} (null when it does not say). Session's worker. */
    void answered(String instance) {
        answeredAs = instance;
        lastAnswerNanos = ticker.nanos();
        lastAnswerWallMillis = ticker.wallMillis();
    }

    /** The last answer is on screen: the figures are live. An answer from another instance is told first. */
    void shown() {
        String now = answeredAs;
        if (now != null && !now.equals(instance.get())) {
            if (instance.get() != null) {
                newInstance.run();
            }
            instance.set(now);
        }
        stale.set(false);
    }

    /** A read failed: nothing answers, so figures on screen ({@code figuresShown}) are the last ones, not live. */
    void failed(boolean figuresShown) {
        if (figuresShown) {
            stale.set(true);
        }
    }

    /**
     * Marks the figures on screen stale once a remote engine has not answered for {@link #STALE_AFTER_MS}; the window
     * calls it on a timer. The window's own engine is never stale by time.
     */
    void check(boolean figuresShown) {
        if (remote && figuresShown && msSinceLastAnswer() >= STALE_AFTER_MS) {
            stale.set(true);
        }
    }

    /** Milliseconds since the engine last answered a state read: a stalled or gone engine shows as figures aging. */
    public long msSinceLastAnswer() {
        return (ticker.nanos() - lastAnswerNanos) / 1_000_000;
    }

    /** The wall-clock time of the last answer, for saying how old the figures on screen are. */
    public long lastAnswerWallMillis() {
        return lastAnswerWallMillis;
    }

    /** Whether the figures on screen are not live. FX thread. */
    public ReadOnlyBooleanProperty staleProperty() {
        return stale.getReadOnlyProperty();
    }

    public boolean stale() {
        return stale.get();
    }

    /**
     * Which engine instance answers ({@code "instance"} of {@code GET /api/state}), or null when it does not say (an
     * embedded engine, HAProxy). A change from one to another is a restarted engine. FX thread.
     */
    public ReadOnlyObjectProperty<String> instanceProperty() {
        return instance.getReadOnlyProperty();
    }
}
