package dev.fulcrum.ui;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.app.FulcrumApp;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;
import javafx.stage.Stage;

/**
 * The window for its tests: opened on a running app (see {@link dev.fulcrum.testkit.RunningFulcrum}), with
 * preferences of its own so a test neither reads nor changes the user's.
 */
public final class UiTestSupport {
    private UiTestSupport() {
    }

    /** Opens the whole window for {@code app} on {@code stage}, with preferences that are not the user's. */
    public static MainWindow open(Stage stage, FulcrumApp app) {
        UiSession session = new UiSession(new InProcessEngineClient(app), "embedded engine (test)");
        session.setBreakerConfig(app.currentConfig().circuitBreaker());
        MainWindow w = MainWindow.show(stage, session, testPrefs());
        // the window opens on Live; the table the tests drive is on Backends (a hidden tab's rows are not laid out)
        w.controller().select("Backends");
        stage.setWidth(1280);
        stage.setHeight(800);
        stage.show();
        session.start();
        return w;
    }

    public static WindowPrefs testPrefs() {
        Preferences node = Preferences.userRoot().node("dev/fulcrum/test-window");
        try {
            node.clear();
        } catch (BackingStoreException e) {
            // a fresh node is as good: the tests only need the defaults
        }
        return new WindowPrefs(node);
    }
}
