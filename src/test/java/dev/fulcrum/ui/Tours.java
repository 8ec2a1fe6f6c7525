package dev.fulcrum.ui;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import org.awaitility.Awaitility;

/**
 * What the screenshot tours share (they are programs run under Xvfb, not tests): running a step on the FX thread and
 * waiting for it, waiting for what a picture is to show (a condition, or the scene drawn), letting the live views play
 * before a picture, and capturing the X display with ImageMagick's {@code import}.
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

    /**
     * Waits until {@code shown} holds, at most {@code atMost}: for what the next picture is to show. Asked on the FX
     * thread, which changes the views and what they show while the tour waits.
     */
    public static void until(Callable<Boolean> shown, Duration atMost) {
        Awaitility.await().atMost(atMost).pollInterval(Duration.ofMillis(50)).until(() -> {
            FutureTask<Boolean> asked = new FutureTask<>(shown);
            Platform.runLater(asked);
            return asked.get();
        });
    }

    /**
     * Waits until the FX thread has drawn the scene as it is now: two pulses after this call, so a change made on the FX
     * thread before it is on the display for the next capture (at most 10 s: a tour goes on rather than hangs).
     */
    public static void drawn() throws InterruptedException {
        CountDownLatch pulses = new CountDownLatch(2);
        AnimationTimer[] timer = new AnimationTimer[1];
        Platform.runLater(() -> {
            timer[0] = new AnimationTimer() {
                @Override
                public void handle(long now) {
                    pulses.countDown();
                    if (pulses.getCount() == 0) {
                        stop();
                    }
                }
            };
            timer[0].start();
        });
        pulses.await(10, TimeUnit.SECONDS);
    }

    /**
     * Lets the window play for {@code ms} before the next picture, on purpose: the live views (the stage's dots, the
     * load charts, the breakers, a traffic run) show real seconds of real traffic, as they do for a person watching,
     * and a picture is of what they show after them. The tours' one wait for time to pass.
     */
    public static void letPlay(long ms) throws InterruptedException {
        Thread.sleep(ms);
    }

    /** The whole display into {@code file}, scaled to {@code width} pixels wide when it is positive. */
    public static void capture(Path file, int width) throws Exception {
        ProcessBuilder b = width > 0
                ? new ProcessBuilder("import", "-window", "root", "-resize", width + "x", file.toString())
                : new ProcessBuilder("import", "-window", "root", file.toString());
        b.inheritIO().start().waitFor(30, TimeUnit.SECONDS);
    }

    /**
     * Requests through the proxy at {@code url}, each {@code everyMs} from each of {@code threads} threads, to the
     * path {@code path} gives (and with the headers it adds), until the returned executor is shut down. A refused
     * request is part of the picture (a breaker open), not a reason to stop.
     */
    public static java.util.concurrent.ScheduledExecutorService traffic(String url, int threads, long everyMs,
            java.util.function.Function<java.net.http.HttpRequest.Builder, java.net.http.HttpRequest.Builder> headers,
            java.util.function.Supplier<String> path) {
        java.util.concurrent.ScheduledExecutorService traffic =
                java.util.concurrent.Executors.newScheduledThreadPool(threads);
        java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build();
        for (int t = 0; t < threads; t++) {
            traffic.scheduleAtFixedRate(() -> {
                try {
                    http.send(headers.apply(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url + path.get())))
                            .timeout(Duration.ofSeconds(5)).build(),
                            java.net.http.HttpResponse.BodyHandlers.discarding());
                } catch (Exception e) {
                    // refused or timed out: the picture shows it
                }
            }, 0, everyMs, TimeUnit.MILLISECONDS);
        }
        return traffic;
    }

    /** The tour is over: the traffic stops, then (on the FX thread) the window's session, the engine, the toolkit. */
    public static void end(java.util.concurrent.ExecutorService traffic, MainWindow window, AutoCloseable fulcrum) {
        traffic.shutdownNow();
        javafx.application.Platform.runLater(() -> {
            window.session().close();
            try {
                fulcrum.close();
            } catch (Exception e) {
                e.printStackTrace();
            }
            javafx.application.Platform.exit();
        });
    }
}
