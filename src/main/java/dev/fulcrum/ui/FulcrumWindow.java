package dev.fulcrum.ui;

import dev.fulcrum.app.EmbeddedFulcrum;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.connect.EngineConnector;
import dev.fulcrum.ui.workshop.WorkshopContext;
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
    /** The application JavaFX started, from its {@link #start}; null while the toolkit starts. */
    private static volatile FulcrumWindow running;
    private volatile EngineConnector.Connection connection;
    private volatile UiSession session;
    private volatile MainWindow window;
    private Stage stage;
    private WindowPrefs prefs;

    static int exitCode() {
        return exitCode;
    }

    @Override
    public void start(Stage stage) {
        this.stage = stage;
        this.prefs = WindowPrefs.user();
        Gui.Options o = Gui.options();
        boolean attach = o != null && o.attachUrl() != null;
        prefs.attach(stage);
        Texts.use(prefs.language() != null ? prefs.language() : java.util.Locale.getDefault());
        Fonts.apply();
        stage.setTitle("Fulcrum");
        running = this;
        open(attach ? Texts.t("window.connecting", o.attachUrl()) : Texts.t("window.starting"),
                attach ? () -> (o.fleet() != null ? EngineConnector.fleet(o.fleet().get())
                        : EngineConnector.attach(o.attachUrl(), o.token(), dev.fulcrum.ui.connect.TokenDialog.asking(stage)))
                        : () -> EngineConnector.embedded(o.embedded().config(), o.embedded().configFile(),
                                o.embedded().overrides()),
                attach ? Texts.t("window.attach.failed", o.attachUrl()) : Texts.t("window.start.failed"), true,
                !attach && o.embedded().gentleTraffic());
        stage.show();
    }

    /**
     * Shows progress, connects off the FX thread, then the main window. The first failure ends the
     * application; a failure opening a scenario later only says so and keeps nothing half open. With
     * {@code gentleTraffic} the window starts gentle traffic once the engine's proxy is known.
     */
    private void open(String progress, java.util.function.Supplier<EngineConnector.Connection> connect, String failure,
                      boolean exitOnFailure, boolean gentleTraffic) {
        ProgressIndicator spinner = new ProgressIndicator();
        VBox splash = new VBox(16, spinner, new Label(progress));
        splash.setPadding(new Insets(40));
        splash.setStyle("-fx-alignment: center;");
        if (stage.getScene() == null) {
            stage.setScene(new Scene(splash, prefs.width(), prefs.height()));
        } else {
            stage.getScene().setRoot(splash);
        }
        Thread starter = new Thread(() -> {
            try {
                EngineConnector.Connection c = connect.get();
                connection = c;
                UiSession s = new UiSession(c.client(), c.description());
                s.setBreakerConfig(c.breaker());
                session = s;
                WorkshopContext ctx = c.owned() instanceof EmbeddedFulcrum app
                        ? WorkshopContext.embedded(app, this::openScenario) : WorkshopContext.remote(null);
                if (c.owned() instanceof EmbeddedFulcrum app) {
                    app.handleOperatorSignals(); // SIGHUP reads the config again, SIGUSR1 reopens the access log
                }
                if (exitOnFailure && c.owned() instanceof EmbeddedFulcrum app) {
                    // the ready line of docs/REFERENCE.md §1, as headless prints it, once the first engine listens
                    System.out.println(app.readyLine());
                    System.out.flush();
                }
                workshop = ctx;
                Platform.runLater(() -> {
                    showWindow(s, c);
                    if (exitOnFailure && c.owned() instanceof EmbeddedFulcrum app && app.portNote() != null) {
                        stage.setTitle(stage.getTitle() + " (" + app.portNote() + ")");
                    }
                    if (gentleTraffic) {
                        s.traffic().startGentle();
                    }
                    Gui.ReplayAtStart replay = exitOnFailure ? Gui.replayAtStart() : null;
                    if (replay != null) { // --replay FILE: once, on the engine the window started with
                        s.traffic().replayWhenReady(replay.recording(), replay.speed());
                    }
                });
            } catch (RuntimeException e) {
                LOG.debug("cannot start", e);
                String msg = failure + ": " + e.getMessage();
                if (exitOnFailure) {
                    exitCode = 1;
                }
                Platform.runLater(() -> {
                    Alert a = new Alert(Alert.AlertType.ERROR, msg);
                    a.setTitle(Texts.t("window.error"));
                    a.setHeaderText(exitOnFailure ? Texts.t("window.failed") : Texts.t("window.scenario.failed"));
                    a.initOwner(stage);
                    a.showAndWait();
                    if (exitOnFailure) {
                        Platform.exit();
                    }
                });
            }
        }, "fulcrum-ui-connect");
        starter.setDaemon(true);
        starter.start();
    }

    private volatile WorkshopContext workshop;

    /** The main window on {@code s}, and its sampling started (FX thread). */
    private void showWindow(UiSession s, EngineConnector.Connection c) {
        window = MainWindow.show(stage, s, prefs, workshop, c.owned() instanceof EmbeddedFulcrum app ? app : null);
        window.onLanguageChange(this::relocalize);
        s.start();
        HeapSettle.forThisProcess(); // the first window's start: from now on the heap follows the machine's load
    }

    /**
     * The window built again in {@code language} on the same engine: the views are made anew (their texts are read
     * as they are built), the engine, its connection and a traffic run going stay, so neither the proxy nor the
     * traffic stops for a language (FX thread).
     */
    private void relocalize(java.util.Locale language) {
        EngineConnector.Connection c = connection;
        UiSession old = session;
        if (c == null || old == null || window == null) {
            return;
        }
        Texts.use(language);
        SessionTraffic.Run running = old.handOver(); // before the window's close, whose Traffic tab would end the run
        window.close();
        UiSession s = new UiSession(c.client(), c.description());
        s.setBreakerConfig(c.breaker());
        session = s;
        showWindow(s, c);
        s.traffic().adopt(running); // the dots keep coming: a room does not lose its traffic to a language
    }

    /** Workshop scenarios: stop the running engine, start one on the chosen sample (FX thread). */
    private void openScenario(String resource) {
        FulcrumConfig next;
        try {
            next = ConfigLoader.loadResource(resource);
        } catch (RuntimeException e) {
            Notifier.error(stage, Texts.t("window.open.failed", resource) + ": " + e.getMessage());
            return;
        }
        MainWindow oldWindow = window;
        UiSession oldSession = session;
        EngineConnector.Connection old = connection;
        window = null;
        session = null;
        connection = null;
        if (oldWindow != null) {
            oldWindow.close();
        }
        // stopping the running engine (its listeners, demo backends) happens off the FX thread, before the new
        // one binds the same ports
        open(Texts.t("window.opening", resource), () -> {
            if (oldSession != null) {
                oldSession.close();
            }
            if (old != null) {
                old.close();
            }
            return EngineConnector.embedded(next, null, c -> c);
        }, Texts.t("window.open.failed", resource), false, false);
    }

    private void closeCurrent() {
        MainWindow w = window;
        if (w != null) {
            w.close();
        }
        UiSession s = session;
        if (s != null) {
            s.close();
        }
        EngineConnector.Connection c = connection;
        if (c != null) {
            c.close();
        }
        window = null;
        session = null;
        connection = null;
    }

    @Override
    public void stop() {
        closeCurrent();
    }

    /**
     * Hides every window, then exits on the FX thread's outer event loop. A dialog waiting in {@code showAndWait} runs a
     * nested event loop, and {@link Platform#exit()} while one runs makes GTK's glass library free the dialog's window
     * twice (a JVM crash, an hs_err file); hiding the windows first ends each nested loop, so the exit that follows
     * finds none.
     */
    private static void closeWindowsAndExit() {
        for (javafx.stage.Window w : java.util.List.copyOf(javafx.stage.Window.getWindows())) {
            w.hide();
        }
        Platform.runLater(Platform::exit);
    }

    /**
     * SIGTERM and SIGINT stop the window's engine as they stop a headless one (docs/REFERENCE.md §1): no new requests, those
     * in flight finish (up to drainTimeoutMs), then the window closes and the process exits 0. Installed before the
     * JavaFX toolkit starts: a signal while it starts (connecting to the X server, loading GTK) finds no window and
     * no engine (the engine starts from the window), so the process exits 0 at once. Without a handler the JVM would
     * end at once (exit 143) and drop the requests in flight.
     */
    static void stopGracefullyOnSignals() {
        sun.misc.SignalHandler h = sig -> {
            Thread t = new Thread(() -> {
                FulcrumWindow w = running;
                if (w == null) {
                    LOG.info("stopping before the window opened: no engine was started");
                    System.exit(0);
                    return;
                }
                EngineConnector.Connection c = w.connection;
                if (c != null && c.owned() instanceof EmbeddedFulcrum app) {
                    LOG.info("shutting down: refusing new requests, letting in-flight ones finish");
                    app.shutdownGracefully();
                }
                try {
                    Platform.runLater(FulcrumWindow::closeWindowsAndExit);
                } catch (IllegalStateException exited) {
                    LOG.debug("the window is already gone", exited); // a second signal, after the first one's exit
                }
            }, "fulcrum-shutdown");
            t.setDaemon(false);
            t.start();
        };
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("TERM"), h);
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), h);
        } catch (IllegalArgumentException unsupported) {
            LOG.debug("signals not handled here", unsupported);
        }
    }
}
