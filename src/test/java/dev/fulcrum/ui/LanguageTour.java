package dev.fulcrum.ui;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.workshop.WorkshopContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ScheduledExecutorService;
import javafx.application.Application;
import javafx.scene.control.Tab;
import javafx.stage.Stage;

/**
 * Screenshots of every tab in the system's language, to read: opens the real window at 1280 by 800 in the language of
 * {@code -Duser.language} (as the window picks it at start) on {@code args[1]} (a config with routes, so the Routes
 * tab shows), with the workshop tabs and the Requests tab, sends traffic, and captures each tab as
 * {@code OUT/LANG-VIEW.png}. Not a test; run under Xvfb:
 * {@code DISPLAY=:99 java -Duser.language=zh -Duser.country=CN -cp target/classes:target/test-classes:CP
 * dev.fulcrum.ui.LanguageTour /tmp/shots samples/canary.json}.
 */
public final class LanguageTour {
    private static Path out;
    private static Path config;

    /** Separate from the main class: the java launcher refuses a main class extending Application on the class path. */
    public static final class Tour extends Application {
        private RunningFulcrum fulcrum;
        private MainWindow window;
        private ScheduledExecutorService traffic;

        @Override
        public void start(Stage stage) throws Exception {
            Texts.use(Locale.getDefault());
            fulcrum = RunningFulcrum.wholeApp(Files.readString(config)).start();
            UiSession session = new UiSession(new InProcessEngineClient(fulcrum.app()),
                    "embedded engine, proxy " + fulcrum.url());
            stage.setX(0);
            stage.setY(0);
            window = MainWindow.show(stage, session, WindowHarness.testPrefs(),
                    WorkshopContext.embedded(fulcrum.app(), resource -> { }), fulcrum.app());
            stage.setWidth(1280);
            stage.setHeight(800);
            stage.show();
            session.start();
            Random random = new Random(1);
            traffic = Tours.traffic(fulcrum.url(), 1, 20, b -> b.header("Cookie", "user=u" + random.nextInt(50)),
                    () -> "/api/items/" + random.nextInt(500));
            Thread tour = new Thread(this::tour, "tour");
            tour.setDaemon(true);
            tour.start();
        }

        private void tour() {
            try {
                Files.createDirectories(out);
                Tours.letPlay(8000);
                java.util.List<String> views = new java.util.ArrayList<>();
                Tours.fx(() -> {
                    for (Tab t : window.controller().tabs().getTabs()) {
                        views.add(MainController.viewName(t));
                    }
                });
                for (String view : views) {
                    Tours.fx(() -> window.controller().select(view));
                    Tours.letPlay(1500);
                    Tours.capture(out.resolve(Texts.language() + "-" + view.toLowerCase(Locale.ROOT)
                            .replace(' ', '-') + ".png"), 0);
                }
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                Tours.end(traffic, window, fulcrum);
            }
        }
    }

    public static void main(String[] args) {
        out = Path.of(args.length > 0 ? args[0] : "/tmp/language-tour");
        config = Path.of(args.length > 1 ? args[1] : "samples/canary.json");
        Application.launch(Tour.class, args);
    }
}
