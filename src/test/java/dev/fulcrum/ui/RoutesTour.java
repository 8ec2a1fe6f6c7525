package dev.fulcrum.ui;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.testkit.RunningFulcrum;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.ScheduledExecutorService;
import javafx.application.Application;
import javafx.stage.Stage;

/**
 * Screenshots of a split and a mirror in the real window, to look at: opens it on {@code args[1]} (a config with
 * routes, e.g. stable 90 / canary 10 mirrored to shadow), sends traffic through the proxy (most under {@code /api},
 * some elsewhere), and captures the Live tab (several frames), the Routes tab, the Requests tab filtered to the canary
 * arm, and Live in present mode at 1280 by 720. Not a test; run under Xvfb:
 * {@code DISPLAY=:99 java -cp target/classes:target/test-classes:CP dev.fulcrum.ui.RoutesTour /tmp/shots CONFIG}.
 */
public final class RoutesTour {
    private static Path out;
    private static Path config;

    /** Separate from the main class: the java launcher refuses a main class extending Application on the class path. */
    public static final class Tour extends Application {
        private RunningFulcrum fulcrum;
        private MainWindow window;
        private ScheduledExecutorService traffic;

        @Override
        public void start(Stage stage) throws Exception {
            fulcrum = RunningFulcrum.wholeApp(Files.readString(config)).start();
            UiSession session = new UiSession(new InProcessEngineClient(fulcrum.app()),
                    "embedded engine, proxy " + fulcrum.url());
            stage.setX(0);
            stage.setY(0);
            window = MainWindow.show(stage, session, WindowHarness.testPrefs());
            stage.setWidth(1280);
            stage.setHeight(800);
            stage.show();
            session.start();
            Random random = new Random(1);
            traffic = Tours.traffic(fulcrum.url(), 4, 40, b -> b.header("Cookie", "user=u" + random.nextInt(50)),
                    () -> random.nextInt(10) < 8 ? "/api/items/" + random.nextInt(500) : "/home");
            Thread tour = new Thread(this::tour, "tour");
            tour.setDaemon(true);
            tour.start();
        }

        private void tour() {
            try {
                Files.createDirectories(out);
                Tours.letPlay(12_000);
                Tours.fx(() -> window.controller().select("Live"));
                for (int i = 0; i < 4; i++) {
                    Tours.letPlay(700);
                    Tours.capture(out.resolve("live-" + i + ".png"), 0);
                }
                Tours.fx(() -> window.controller().select("Routes"));
                Tours.letPlay(1500);
                Tours.capture(out.resolve("routes.png"), 0);
                Tours.fx(() -> ((javafx.scene.control.Slider) window.scene().lookup("#split-slider-0")).setValue(25));
                Tours.letPlay(2500);
                Tours.capture(out.resolve("routes-25.png"), 0);
                window.session().client().rollback(0);
                Tours.fx(() -> {
                    window.controller().select("Requests");
                    window.requests().viewModel().armProperty().set("canary");
                });
                Tours.letPlay(2500);
                Tours.capture(out.resolve("requests.png"), 0);
                Tours.fx(() -> window.requests().viewModel().armProperty().set("all arms"));
                Tours.fx(() -> window.controller().select("Events"));
                Tours.letPlay(1000);
                Tours.capture(out.resolve("events.png"), 0);
                Tours.fx(() -> {
                    window.present().toggle();
                    window.controller().select("Live");
                });
                Tours.letPlay(2500);
                Tours.capture(out.resolve("live-present.png"), 0);
                Tours.fx(() -> window.controller().select("Routes"));
                Tours.letPlay(1500);
                Tours.capture(out.resolve("routes-present.png"), 0);
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                Tours.end(traffic, window, fulcrum);
            }
        }
    }

    public static void main(String[] args) {
        out = Path.of(args.length > 0 ? args[0] : "/tmp/routes-tour");
        config = Path.of(args[1]);
        Application.launch(Tour.class, args);
    }
}
