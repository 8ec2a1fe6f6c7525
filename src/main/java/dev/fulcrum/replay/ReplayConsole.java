package dev.fulcrum.replay;

import java.io.PrintStream;
import java.net.URI;

/**
 * A live replay as headless Fulcrum shows it (docs/REFERENCE.md §1, {@code --headless --replay FILE}): a progress
 * line on standard error every {@link #PROGRESS_EVERY_MS} ms ({@code replay: 1200/5000 requests, 24%}) and the
 * summary line at the end ({@link ReplayProgress#summaryLine()}).
 */
public final class ReplayConsole {
    /** How often a progress line is printed: often enough to see it move, rarely enough not to flood a log. */
    public static final long PROGRESS_EVERY_MS = 2000;

    private ReplayConsole() {
    }

    /** Starts {@code replay}, printing its progress and summary lines to {@code err}. */
    public static LiveReplay start(LiveReplay replay, PrintStream err) {
        long[] printed = {0};
        replay.addListener(p -> {
            if (p.state() == ReplayProgress.State.SENDING
                    && p.elapsedNanos() / 1_000_000 >= printed[0] + PROGRESS_EVERY_MS) {
                printed[0] = p.elapsedNanos() / 1_000_000;
                err.println(p.progressLine());
                err.flush();
            }
        });
        replay.done().thenAccept(p -> {
            err.println(p.summaryLine());
            err.flush();
        });
        return replay.start();
    }

    /** Starts a replay of {@code source} through {@code proxy} at {@code speed}, printing to {@code err}. */
    public static LiveReplay start(LiveReplay.Source source, URI proxy, double speed, PrintStream err) {
        return start(LiveReplay.of(source, proxy, speed), err);
    }
}
