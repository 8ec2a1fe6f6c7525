package dev.fulcrum.ui;

import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.HttpEngineClient;
import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.app.EmbeddedFulcrum;
import dev.fulcrum.app.FulcrumApp;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.time.Ticker;
import dev.fulcrum.ui.workshop.WorkshopContext;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.Labeled;
import javafx.stage.Stage;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The window tests' one TestFX harness: before each test it registers TestFX's stage (headless on Monocle, as the
 * surefire argLine sets it up); it opens the whole window on an engine, in process or attached over the admin API,
 * with preferences of its own so a test neither reads nor changes the user's; and after each test it closes what it
 * opened, newest first (the window, its session, the engine), then hides the stages and lets go of the robot's keys
 * and buttons. Test methods take an {@link FxRobot} parameter, as under TestFX's own extension.
 *
 * <pre>{@code
 * @RegisterExtension
 * final WindowHarness fx = new WindowHarness();
 *
 * @Test
 * void x(FxRobot robot) {
 *     MainWindow window = fx.open(RunningFulcrum.demoApp());
 *     fx.waitFor("#row-demo-a");
 * }
 * }</pre>
 */
public final class WindowHarness implements BeforeEachCallback, AfterEachCallback, ParameterResolver {
    /** How long the FX thread may take to put a window up, on two cores the whole suite shares. */
    private static final long FX_SETUP_SECONDS = 60;
    /** How long {@link #until}, {@link #untilAsserted} and {@link #waitFor} wait unless told. */
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final FxRobot robot = new FxRobot();
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    private Stage stage;

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        stage = FxToolkit.registerPrimaryStage();
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        try {
            closeAll();
        } finally {
            FxToolkit.cleanupStages();
            FxToolkit.cleanupInput(robot);
            WaitForAsyncUtils.waitForFxEvents();
        }
    }

    /**
     * Closes what was opened so far, newest first, and forgets it (so nothing here keeps it reachable): the end of each
     * test, or a test's own switch to another engine on the same stage.
     */
    public void closeAll() throws Exception {
        Exception first = null;
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType().isAssignableFrom(FxRobot.class);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return robot;
    }

    /** The stage TestFX registered: each test's one window goes on it. */
    public Stage stage() {
        return stage;
    }

    /** Closes {@code resource} after the test, before what was opened earlier. */
    public <T extends AutoCloseable> T closeAfter(T resource) {
        opened.push(resource);
        return resource;
    }

    /**
     * The whole window over {@code fulcrum}'s engine in process, on the Backends tab (the table most tests drive; a
     * hidden tab's rows are not laid out), on the system clock. The engine is closed after the test.
     */
    public MainWindow open(RunningFulcrum fulcrum) {
        return open(fulcrum, Ticker.system());
    }

    /** {@link #open(RunningFulcrum)} with the window on {@code ticker}: a test that moves time gives a ManualClock. */
    public MainWindow open(RunningFulcrum fulcrum, Ticker ticker) {
        closeAfter(fulcrum);
        return openOn(fulcrum.app(), ticker);
    }

    /** {@link #open(RunningFulcrum)} for an app the test started itself; it is closed after the test. */
    public MainWindow open(FulcrumApp app) {
        closeAfter(app::close);
        return openOn(app, Ticker.system());
    }

    private MainWindow openOn(FulcrumApp app, Ticker ticker) {
        UiSession session = new UiSession(new InProcessEngineClient(app), "embedded engine (test)", ticker);
        session.setBreakerConfig(app.currentConfig().circuitBreaker());
        return show(session, null, null, w -> w.controller().select("Backends"));
    }

    /**
     * The whole window attached to the admin API at {@code url}, as {@code --attach} does, on {@code ticker}; it opens
     * on its first tab.
     */
    public MainWindow attach(String url, Ticker ticker) {
        return show(new UiSession(new HttpEngineClient(URI.create(url), null), "remote engine at " + url, ticker));
    }

    /** The whole window over {@code session}, which starts sampling once the window shows. */
    public MainWindow show(UiSession session) {
        return show(session, null, null, w -> { });
    }

    /** {@link #show(UiSession)} with the workshop tabs and the embedded engine's extras, when not null. */
    public MainWindow show(UiSession session, WorkshopContext workshop, EmbeddedFulcrum embedded) {
        return show(session, workshop, embedded, w -> { });
    }

    private MainWindow show(UiSession session, WorkshopContext workshop, EmbeddedFulcrum embedded,
                            Consumer<MainWindow> beforeShown) {
        closeAfter(session);
        MainWindow w = onFx(() -> {
            MainWindow shown = MainWindow.show(stage, session, testPrefs(), workshop, embedded);
            beforeShown.accept(shown);
            stage.setWidth(1280);
            stage.setHeight(800);
            stage.show();
            session.start();
            return shown;
        });
        closeAfter(() -> onFx(w::close));
        return w;
    }

    /**
     * Runs {@code work} on the FX thread and waits for its answer, then for the events it set off (as
     * {@link FxRobot#interact} does: a window put up is laid out before the test looks for its nodes); what it throws is
     * thrown here. Called on the FX thread (in a condition of {@link #until}), it just runs {@code work}: the events
     * cannot run before that thread is done anyway.
     */
    public <T> T onFx(Callable<T> work) {
        T answer = answerOnFx(work);
        if (!Platform.isFxApplicationThread()) {
            WaitForAsyncUtils.waitForFxEvents();
        }
        return answer;
    }

    /**
     * {@code work}'s answer, worked out on the FX thread; what it throws is thrown here, an error (a failed assertion)
     * as it is. For this package's static helpers, which have no harness at hand.
     */
    static <T> T answerOnFx(Callable<T> work) {
        try {
            return WaitForAsyncUtils.asyncFx(work).get(FX_SETUP_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the FX thread did not finish in " + FX_SETUP_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the FX thread worked", e);
        }
    }

    /** {@link #onFx(Callable)} for work without an answer. */
    public void onFx(Runnable work) {
        onFx(() -> {
            work.run();
            return null;
        });
    }

    /**
     * The node {@code query} finds, once there is one (within ten seconds). Looked for on the FX thread: a walk of the
     * scene graph from another thread can meet a child list the FX thread is changing.
     */
    public Node waitFor(String query) {
        return waitFor(() -> robot.lookup(query).<Node>tryQuery().orElse(null));
    }

    /**
     * What {@code find} answers once it answers other than null (within ten seconds), asked on the FX thread each time
     * (as {@link #until(Callable)}), and handed back as found: a second look could miss a node the FX thread has laid
     * out again meanwhile (a table's cells).
     */
    public <T> T waitFor(Callable<T> find) {
        T found = await().atMost(WAIT).until(() -> answerOnFx(find), Objects::nonNull);
        WaitForAsyncUtils.waitForFxEvents();
        return found;
    }

    /**
     * The node {@code query} finds now, failing as {@link org.testfx.service.query.NodeQuery#queryAs} does when there
     * is none; looked for on the FX thread (as {@link #waitFor(String)}), for a test to click it, or to read it with
     * {@link #onFx(Callable)}.
     */
    public <T extends Node> T lookup(String query, Class<T> type) {
        return onFx(() -> robot.lookup(query).queryAs(type));
    }

    /** The text of the label, button or other {@link Labeled} {@code query} finds now, read on the FX thread. */
    public String text(String query) {
        return onFx(() -> robot.lookup(query).queryLabeled().getText());
    }

    /**
     * Waits up to ten seconds until {@code condition} holds, evaluated on the FX thread each time (read from
     * Awaitility's thread, the scene graph, or what else the FX thread writes, can be met half changed); then for the
     * events under way, as {@link #onFx(Callable)} does.
     */
    public void until(Callable<Boolean> condition) {
        until(WAIT, condition);
    }

    /** {@link #until(Callable)}, waiting up to {@code atMost}. */
    public void until(Duration atMost, Callable<Boolean> condition) {
        await().atMost(atMost).until(() -> answerOnFx(condition));
        WaitForAsyncUtils.waitForFxEvents();
    }

    /**
     * Waits up to ten seconds until {@code assertion}, run on the FX thread each time (as {@link #until(Callable)}),
     * passes; when it never does, its last failure is the one reported.
     */
    public void untilAsserted(Runnable assertion) {
        untilAsserted(WAIT, assertion);
    }

    /** {@link #untilAsserted(Runnable)}, waiting up to {@code atMost}. */
    public void untilAsserted(Duration atMost, Runnable assertion) {
        await().atMost(atMost).untilAsserted(() -> {
            // a failure comes back as the answer rather than thrown on the FX thread, where TestFX prints each one
            AssertionError failure = answerOnFx(() -> {
                try {
                    assertion.run();
                    return null;
                } catch (AssertionError e) {
                    return e;
                }
            });
            if (failure != null) {
                throw failure;
            }
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    /**
     * The node of id {@code query} ({@code "#id"}) in {@code window}'s scene or in a view parked off it while its tab
     * is not selected ({@link ParkedTabs}; {@link CutText#find} also walks a never-shown view's skinless controls), or
     * null: for a test that reads a view it has not selected. FX thread.
     */
    public static Node anywhere(MainWindow window, String query) {
        Node n = window.scene().lookup(query);
        MainController main = window.controller();
        for (javafx.scene.control.Tab t : main.tabs().getTabs()) {
            if (n == null && main.parkedTabs().content(t) instanceof javafx.scene.Parent view) {
                n = CutText.find(view, query.substring(1));
            }
        }
        return n;
    }

    /** {@link #anywhere} from the test's thread. */
    public <T extends Node> T anywhere(MainWindow window, String query, Class<T> type) {
        return type.cast(onFx(() -> anywhere(window, query)));
    }

    /** Window preferences of the tests' own, cleared: the defaults, never the user's. */
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
