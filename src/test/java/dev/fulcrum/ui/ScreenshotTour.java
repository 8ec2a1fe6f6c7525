package dev.fulcrum.ui;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.HealthCheckConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.ring.RingViewModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ScheduledExecutorService;
import javafx.application.Application;
import javafx.scene.control.TextField;
import javafx.stage.Stage;

/**
 * Takes the README's screenshots: opens the real window (not headless) on an embedded engine with demo
 * backends and traffic, visits each view and captures the X display with ImageMagick's {@code import}; the Live tab
 * also as frames ({@code live-frames/}, beside the pictures) that {@code convert} makes into {@code live.gif}
 * (README: "See it move"). Not a
 * test; run under Xvfb:
 * {@code xvfb-run -a -s "-screen 0 1400x900x24" java -cp target/classes:target/test-classes:CP dev.fulcrum.ui.ScreenshotTour docs}.
 */
public final class ScreenshotTour {
    private static Path out;

    /** Separate from the main class: the java launcher refuses a main class extending Application on the class path. */
    public static final class Tour extends Application {
    private RunningFulcrum fulcrum;
    private MainWindow window;
    private ScheduledExecutorService traffic;


    @Override
    public void start(Stage stage) {
        FulcrumConfig base = RunningFulcrum.demoConfig(StrategySpec.bare("consistent-hash").with("key", "path").with("virtualNodes", 160), new BreakerConfig(true, 10, 5, 50, 300, 100, 8000, 2), List.of(
                RunningFulcrum.demo("demo-a", 5, 8, 0), RunningFulcrum.demo("demo-b", 3, 20, 0),
                RunningFulcrum.demo("demo-c", 1, 5, 0), RunningFulcrum.demo("flaky", 1, 15, 0.55)));
        FulcrumConfig cfg = new FulcrumConfig(base.proxy(), base.admin(), base.strategy(), base.backends(),
                base.demoBackends(), new HealthCheckConfig(true, "/health", 1000, 500, 200, 2, 3), base.outlierDetection(),
                base.circuitBreaker(), base.retries(), base.timeouts(), base.slowStartMs(), base.stickySession(),
                base.pools(), base.routes());
        fulcrum = RunningFulcrum.wholeApp(cfg).start();
        UiSession session = new UiSession(new InProcessEngineClient(fulcrum.app()), "embedded engine, proxy " + fulcrum.url());
        session.setBreakerConfig(cfg.circuitBreaker());
        stage.setX(0);
        stage.setY(0);
        window = MainWindow.show(stage, session, WindowHarness.testPrefs());
        stage.setWidth(1400);
        stage.setHeight(900);
        stage.show();
        session.start();
        Random random = new Random(1);
        traffic = Tours.traffic(fulcrum.url(), 4, 25, b -> b, () -> "/users/" + random.nextInt(500));
        Thread tour = new Thread(this::tour, "tour");
        tour.setDaemon(true);
        tour.start();
    }

    private void tour() {
        try {
            Files.createDirectories(out);
            Tours.letPlay(45_000); // the load charts fill up a little
            fx(() -> window.controller().select("Live"));
            Tours.letPlay(3000); // dots in flight
            shot("live");
            liveFrames();
            RingViewModel ring = window.controller().ring().viewModel();
            fx(() -> {
                window.controller().select("Ring");
                TextField key = (TextField) window.scene().lookup("#ringKey");
                key.setText("/users/42");
            });
            Tours.until(() -> ring.lookupProperty().get() != null
                    && "/users/42".equals(ring.lookupProperty().get().key()), Duration.ofSeconds(10));
            fx(() -> ring.preview(new RingViewModel.WhatIf(RingViewModel.Mode.REMOVE, "demo-b", 0)));
            Tours.until(() -> ring.previewProperty().get() != null, Duration.ofSeconds(10));
            Tours.letPlay(1500); // the keys move along the ring
            shot("ring");
            for (String[] v : new String[][] {{"Load", "load"}, {"Breakers", "breakers"}, {"Health", "health"},
                    {"Strategy", "strategy"}, {"Events", "events"}, {"Demo faults", "demo"}}) {
                fx(() -> window.controller().select(v[0]));
                Tours.letPlay(2000); // a view shown catches up on what it held back while hidden, then moves live
                shot(v[1]);
            }
            fx(() -> {
                window.controller().darkToggle().setSelected(true);
                window.controller().select("Ring");
            });
            Tours.letPlay(2000); // the ring's keys, in the dark style
            shot("dark");
            // the backends view with a drained backend and a reweighted one (an undoable change)
            fx(() -> {
                window.controller().darkToggle().setSelected(false);
                window.controller().select("Backends");
            });
            window.session().client().drain("demo-c");
            new BackendCommands(window.session()).setWeight("demo-a", 5, 6);
            Tours.until(() -> {
                dev.fulcrum.admin.EngineState st = window.session().state();
                return st != null && st.backend("demo-a").weight() == 6
                        && java.util.Set.of("DRAINING", "DRAINED").contains(st.backend("demo-c").state())
                        && window.session().undo().lastProperty().get() != null;
            }, Duration.ofSeconds(10));
            Tours.drawn();
            shot("backends");
        } catch (Exception e) {
            e.printStackTrace();
        } finally {
            Tours.end(traffic, window, fulcrum);
        }
    }

    /**
     * Six seconds of the Live tab as frames, ten a second: the scene's own snapshot (an X capture takes half a second
     * a frame here), its pixels written as PPM off the FX thread, the time between frames recorded for the GIF's
     * delay. The stage's third backend is reweighted half-way so the flow visibly changes.
     */
    private void liveFrames() throws Exception {
        Path dir = out.resolve("live-frames");
        Files.createDirectories(dir);
        int n = 60;
        long started = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long due = started + i * 100_000_000L;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                Tours.letPlay(wait / 1_000_000); // the stage moves on to the next frame's moment
            }
            if (i == n / 2) {
                new BackendCommands(window.session()).setWeight("demo-c", 1, 8);
            }
            int[][] frame = new int[1][];
            int[] size = new int[2];
            fx(() -> {
                javafx.scene.image.WritableImage img = window.scene().getRoot().snapshot(null, null);
                size[0] = (int) img.getWidth();
                size[1] = (int) img.getHeight();
                frame[0] = new int[size[0] * size[1]];
                img.getPixelReader().getPixels(0, 0, size[0], size[1],
                        javafx.scene.image.PixelFormat.getIntArgbInstance(), frame[0], 0, size[0]);
            });
            writePpm(dir.resolve(String.format("frame-%02d.ppm", i)), frame[0], size[0], size[1]);
        }
        long perFrameMs = (System.nanoTime() - started) / 1_000_000 / n;
        Files.writeString(dir.resolve("delay-ms"), Long.toString(perFrameMs));
    }

    private static void writePpm(Path file, int[] argb, int w, int h) throws java.io.IOException {
        byte[] head = ("P6\n" + w + " " + h + "\n255\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] rgb = new byte[w * h * 3];
        for (int i = 0; i < argb.length; i++) {
            rgb[3 * i] = (byte) (argb[i] >> 16);
            rgb[3 * i + 1] = (byte) (argb[i] >> 8);
            rgb[3 * i + 2] = (byte) argb[i];
        }
        try (java.io.OutputStream o = Files.newOutputStream(file)) {
            o.write(head);
            o.write(rgb);
        }
    }

    private static void shot(String name) throws Exception {
        Tours.capture(out.resolve("screenshot-" + name + ".png"), 0);
    }

    private static void fx(Runnable r) throws InterruptedException {
        Tours.fx(r);
    }
    }

    public static void main(String[] args) {
        out = Path.of(args.length > 0 ? args[0] : "docs");
        Application.launch(Tour.class, args);
    }
}
