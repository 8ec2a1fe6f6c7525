package dev.fulcrum.ui;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;

/**
 * What the screenshot tours share (they are programs run under Xvfb, not tests): running a step on the FX thread and
 * waiting for it, and capturing the X display with ImageMagick's {@code import}.
 */
public final class Tours {
    private Tours() {
    }

    /** Runs {@code r} on the FX thread and waits for it (at most 10 s: a tour goes on rather than hangs). */
    public static void fx(Runnable r) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        Platform.runLater(() -> {
            try {
                r.run();
            } finally {
                done.countDown();
            }
        });
        done.await(10, TimeUnit.SECONDS);
    }

    /** The whole display into {@code file}, scaled to {@code width} pixels wide when it is positive. */
    public static void capture(Path file, int width) throws Exception {
        ProcessBuilder b = width > 0
                ? new ProcessBuilder("import", "-window", "root", "-resize", width + "x", file.toString())
                : new ProcessBuilder("import", "-window", "root", file.toString());
        b.inheritIO().start().waitFor(30, TimeUnit.SECONDS);
    }
}
