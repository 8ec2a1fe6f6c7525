package dev.fulcrum.ui.lessons;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.app.FulcrumApp;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.ui.MainWindow;
import dev.fulcrum.ui.Tours;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.WindowHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.stage.Stage;

/**
 * Looks at the Lessons tab as a trainer would: opens the real window (not headless) on an embedded engine, plays a
 * lesson step by step and captures the X display with ImageMagick's {@code import} at each step. Not a test; run
 * under Xvfb: {@code DISPLAY=:99 java -cp target/test-classes:target/classes:target/fulcrum.jar
 * dev.fulcrum.ui.lessons.LessonScreenshotTour LESSON-NAME OUT-DIR [dark]}. As a trainer in front of a room:
 * {@code -Dtour.present=true} (Present mode, the screen's size: {@code xvfb-run -s "-screen 0 1280x720x24"}) and
 * {@code -Dtour.talkMs=12000} (that long of talk after each step before Next, three frames taken over it).
 */
public final class LessonScreenshotTour {
    private static String lesson;
    private static Path out;
    private static boolean dark;

    private LessonScreenshotTour() {
    }

    public static void main(String[] args) throws Exception {
        lesson = args[0];
        out = Path.of(args[1]);
        dark = args.length > 2 && args[2].equals("dark");
        Files.createDirectories(out);
        Application.launch(Tour.class);
    }

    /** Separate from the main class: the java launcher refuses a main class extending Application on the class path. */
    public static final class Tour extends Application {
        private FulcrumApp app;
        private MainWindow window;

        @Override
        public void start(Stage stage) {
            FulcrumConfig cfg = ConfigLoader.workshop().withProxyPort(0).withAdminPort(0);
            cfg = cfg.withDefaultPool(new dev.fulcrum.config.PoolConfig(cfg.strategy(), cfg.backends(),
                    cfg.demoBackends().stream().map(d -> new dev.fulcrum.config.DemoBackendConfig(d.id(), 0, d.weight(),
                            d.latencyMs(), d.errorRate())).toList()));
            app = FulcrumApp.start(cfg, null);
            UiSession session = new UiSession(new InProcessEngineClient(app), "embedded engine, proxy " + app.proxyUrl());
            session.setBreakerConfig(cfg.circuitBreaker());
            stage.setX(0);
            stage.setY(0);
            window = MainWindow.show(stage, session, WindowHarness.testPrefs(),
                    dev.fulcrum.ui.workshop.WorkshopContext.embedded(app, null));
            window.setDark(dark);
            stage.setWidth(1280);
            stage.setHeight(800);
            stage.show();
            if (Boolean.getBoolean("tour.present")) {
                // a projector's screen: full screen needs a window manager, which Xvfb has not
                javafx.geometry.Rectangle2D screen = javafx.stage.Screen.getPrimary().getBounds();
                stage.setWidth(screen.getWidth());
                stage.setHeight(screen.getHeight());
                window.present().toggle();
            }
            session.start();
            Thread tour = new Thread(this::tour, "tour");
            tour.setDaemon(true);
            tour.start();
        }

        private void tour() {
            try {
                LessonsController c = window.lessons().controller();
                fx(() -> {
                    window.controller().select("Lessons");
                    c.list().getSelectionModel().select(dev.fulcrum.lesson.Lessons.SHIPPED.indexOf(lesson));
                });
                Tours.drawn();
                shot("0-list");
                fx(c::play);
                int steps = dev.fulcrum.lesson.Lessons.shipped().get(dev.fulcrum.lesson.Lessons.SHIPPED.indexOf(lesson))
                        .steps().size();
                for (int i = 0; i < steps; i++) {
                    int step = i;
                    Tours.until(() -> c.player() != null && c.player().view().shown() == step
                            && !c.player().view().playing() && c.player().view().report() != null,
                            Duration.ofSeconds(30));
                    long talk = Long.getLong("tour.talkMs", 0);
                    Tours.letPlay(900); // the views the step names show its outcome moving (breakers, dots)
                    shot((i + 1) + "-step");
                    if (talk > 0) {
                        Tours.letPlay(talk / 2);
                        shot((i + 1) + "-step-talk");
                        Tours.letPlay(talk / 2 - 900);
                        shot((i + 1) + "-step-next");
                    }
                    fx(c::next);
                }
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                Platform.runLater(() -> {
                    window.close();
                    app.close();
                    Platform.exit();
                });
            }
        }


        private static void fx(Runnable r) throws InterruptedException {
            Tours.fx(r);
        }

        private static void shot(String name) throws Exception {
            Path file = out.resolve(lesson + "-" + name + ".png");
            Tours.capture(file, 0);
            System.out.println("screenshot " + file);
        }
    }
}
