package dev.fulcrum.ui;

import dev.fulcrum.ui.connect.EngineConnector;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The desktop application: shows progress while the embedded engine starts (or the remote one is reached) on a
 * background thread, then the main window; closing the window stops what it started.
 */
public final class FulcrumWindow extends Application {
    private static final Logger LOG = LoggerFactory.getLogger(FulcrumWindow.class);
    private static volatile int exitCode;
    private volatile EngineConnector.Connection connection;
    private volatile UiSession session;

    static int exitCode() {
        return exitCode;
    }

    @Override
    public void start(Stage stage) {
        WindowPrefs prefs = WindowPrefs.user();
        Gui.Options o = Gui.options();
        boolean attach = o != null && o.attachUrl() != null;
        Label what = new Label(attach ? "Connecting to " + o.attachUrl() + "…" : "Starting the embedded engine…");
        ProgressIndicator spinner = new ProgressIndicator();
        VBox splash = new VBox(16, spinner, what);
        splash.setPadding(new Insets(40));
        splash.setStyle("-fx-alignment: center;");
        stage.setScene(new Scene(splash, prefs.width(), prefs.height()));
        prefs.attach(stage);
        stage.setTitle("Fulcrum");
        stage.show();
        Thread starter = new Thread(() -> {
            try {
                EngineConnector.Connection c = attach ? EngineConnector.attach(o.attachUrl(), o.token())
                        : EngineConnector.embedded(o.embedded().config(), o.embedded().configFile());
                connection = c;
                UiSession s = new UiSession(c.client(), c.description());
                s.setBreakerConfig(c.breaker());
                session = s;
                Platform.runLater(() -> {
                    MainWindow.show(stage, s, prefs);
                    s.start();
                });
            } catch (RuntimeException e) {
                LOG.debug("cannot start", e);
                String msg = e instanceof EngineConnector.UnavailableException ? e.getMessage()
                        : (attach ? "Cannot attach to " + o.attachUrl() : "Cannot start the engine") + ": " + e.getMessage();
                exitCode = 1;
                Platform.runLater(() -> {
                    Alert a = new Alert(Alert.AlertType.ERROR, msg);
                    a.setHeaderText(attach ? "Remote attach failed" : "Fulcrum could not start");
                    a.initOwner(stage);
                    a.showAndWait();
                    Platform.exit();
                });
            }
        }, "fulcrum-ui-connect");
        starter.setDaemon(true);
        starter.start();
    }

    @Override
    public void stop() {
        UiSession s = session;
        if (s != null) {
            s.close();
        }
        EngineConnector.Connection c = connection;
        if (c != null) {
            c.close();
        }
    }
}
