package dev.fulcrum.ui.workshop;


import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.Tours;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.Views;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Spinner;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextField;
import javafx.stage.Stage;

/**
 * Takes the README's screenshots of the workshop tabs ({@code docs/screenshot-workshop-*.png}): the tabs in a
 * window of their own on an embedded engine with the workshop's demo backends. Not a test; run under Xvfb:
 * {@code xvfb-run -a -s "-screen 0 1400x900x24" java -cp target/classes:target/test-classes:CP
 * dev.fulcrum.ui.workshop.WorkshopScreenshotTour docs}.
 */
public final class WorkshopScreenshotTour {
    private static Path out;

    /** Separate from the main class: the java launcher refuses a main class extending Application. */
    public static final class Tour extends Application {
        private RunningFulcrum fulcrum;
        private UiSession session;
        private WorkshopTabs.Workshop workshop;
        private TabPane tabs;
        private final List<String> opened = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void start(Stage stage) {
            fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.bare("consistent-hash").with("key", "path").with("virtualNodes", 160), new BreakerConfig(false, 10, 5, 50, 2000, 100, 5000, 1), List.of(
                    RunningFulcrum.demo("demo-a", 5, 8, 0), RunningFulcrum.demo("demo-b", 3, 20, 0),
                    RunningFulcrum.demo("demo-c", 1, 5, 0), RunningFulcrum.demo("flaky", 1, 15, 0.2)))).start();
            session = new UiSession(new InProcessEngineClient(fulcrum.app()), "embedded engine, proxy " + fulcrum.url());
            workshop = WorkshopTabs.create(session, WorkshopContext.embedded(fulcrum.app(), opened::add));
            tabs = new TabPane();
            tabs.getTabs().addAll(workshop.tabs());
            Scene scene = new Scene(tabs, 1400, 900);
            scene.getStylesheets().add(Views.stylesheet("fulcrum"));
            stage.setScene(scene);
            stage.setX(0);
            stage.setY(0);
            stage.setTitle("Fulcrum workshop");
            stage.show();
            session.start();
            Thread t = new Thread(this::tour, "tour");
            t.setDaemon(true);
            t.start();
        }

        @SuppressWarnings("unchecked")
        private void tour() {
            try {
                Files.createDirectories(out);
                Tours.until(() -> session.state() != null, Duration.ofSeconds(30)); // the proxy's address, for traffic
                fx(() -> {
                    tabs.getSelectionModel().select(0);
                    ((Spinner<Double>) tabs.getScene().lookup("#trafficRate")).getValueFactory().setValue(200.0);
                    ((Spinner<Integer>) tabs.getScene().lookup("#trafficDuration")).getValueFactory().setValue(15);
                    workshop.traffic().start();
                });
                Tours.letPlay(7000); // seven seconds of the run, in its figures
                shot("traffic");
                Tours.until(() -> !workshop.traffic().viewModel().runningProperty().get(), Duration.ofSeconds(60));
                fx(() -> {
                    tabs.getSelectionModel().select(1);
                    ((ComboBox<String>) tabs.getScene().lookup("#sbsSlowBackend")).setValue("demo-b");
                    workshop.sideBySide().run();
                });
                Tours.until(() -> workshop.sideBySide().reportProperty().get() != null
                        && !workshop.sideBySide().runningProperty().get(), Duration.ofSeconds(60));
                Tours.letPlay(1000); // the report's charts grow to their values
                shot("sidebyside");
                fulcrum.engine().drain("flaky");
                fx(() -> {
                    tabs.getSelectionModel().select(2);
                    ((TextField) tabs.getScene().lookup("#whyPath")).setText("/k/k42");
                    workshop.why().step();
                });
                Tours.until(() -> workshop.why().traceProperty().get() != null, Duration.ofSeconds(10));
                Tours.drawn();
                shot("why");
                fx(() -> {
                    tabs.getSelectionModel().select(3);
                    workshop.scenarios().list().getSelectionModel().select(2);
                });
                Tours.drawn();
                shot("scenarios");
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                Platform.runLater(() -> {
                    workshop.close();
                    session.close();
                    fulcrum.close();
                    Platform.exit();
                });
            }
        }
    }

    private static void shot(String name) throws Exception {
        Tours.capture(out.resolve("screenshot-workshop-" + name + ".png"), 0);
    }

    private static void fx(Runnable r) throws InterruptedException {
        Tours.fx(r);
    }

    public static void main(String[] args) {
        out = Path.of(args.length > 0 ? args[0] : "docs");
        Application.launch(Tour.class, args);
    }
}
