package dev.fulcrum.ui;

import dev.fulcrum.admin.haproxy.HaproxyFleetClient;
import dev.fulcrum.app.EmbeddedFulcrum;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.requests.RequestsContext;
import dev.fulcrum.ui.requests.RequestsController;
import dev.fulcrum.ui.requests.RequestsTab;
import dev.fulcrum.ui.workshop.WorkshopContext;
import dev.fulcrum.ui.lessons.LessonsTab;
import dev.fulcrum.ui.workshop.WorkshopTabs;

import javafx.scene.Scene;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.stage.Stage;

/**
 * Puts the whole window for one session on a stage: the views (the Lessons tab among them), light or dark style, keyboard shortcuts
 * (Ctrl+N add, Ctrl+Z undo, Ctrl+plus / Ctrl+minus / Ctrl+0 text size; in the table D drain, E enable, Del remove), the title naming the engine, and the
 * remembered size. The application and the tests both open the window through here.
 */
public final class MainWindow {
    private final UiSession session;
    private final Views.Loaded<MainController> main;
    private final Scene scene;

    private MainWindow(UiSession session, Views.Loaded<MainController> main, Scene scene, WindowPrefs prefs) {
        this.prefs = prefs;
        this.session = session;
        this.main = main;
        this.scene = scene;
    }

    private WorkshopTabs.Workshop workshop;
    private PresentMode present;
    private LessonsTab lessons;

    public PresentMode present() {
        return present;
    }

    private final WindowPrefs prefs;
    private TextScale textScale;

    /** Ctrl+plus, Ctrl+minus and Ctrl+0's text size. */
    public TextScale textScale() {
        return textScale;
    }

    private FxTicks.Ticking divergenceTimer;

    public static MainWindow show(Stage stage, UiSession session, WindowPrefs prefs) {
        return show(stage, session, prefs, null);
    }

    /** With {@code workshop} set, the workshop tabs (traffic, side by side, why this backend, scenarios) too. */
    public static MainWindow show(Stage stage, UiSession session, WindowPrefs prefs, WorkshopContext workshop) {
        return show(stage, session, prefs, workshop, null);
    }

    /**
     * With {@code embedded} set (the window's own engine), the Requests tab also asks its live pools why a request
     * went where it did, and offers local HTTPS trust.
     */
    public static MainWindow show(Stage stage, UiSession session, WindowPrefs prefs, WorkshopContext workshop,
                                  EmbeddedFulcrum embedded) {
        Fonts.apply();
        Views.Loaded<MainController> main = Views.load("main", session);
        Scene scene = stage.getScene();
        if (scene == null) {
            scene = new Scene(main.root(), prefs.width(), prefs.height());
            stage.setScene(scene);
        } else {
            scene.setRoot(main.root());
        }
        MainWindow w = new MainWindow(session, main, scene, prefs);
        main.controller().applyCapabilities(session.client().capabilities());
        if (session.client() instanceof HaproxyFleetClient fleet) {
            // the fleet's instances may disagree (a change behind the window's back) or not answer: say so until they do
            w.divergenceTimer = FxTicks.every(javafx.util.Duration.seconds(1), () -> session.call(
                    Texts.t("main.divergence.read"), fleet::problems, text -> main.controller().showDivergence(text),
                    err -> { }));
        }
        if (session.client() instanceof dev.fulcrum.admin.fleet.EtcdFleetClient etcdFleet) {
            w.addInstancesTab(etcdFleet);
        } else {
            // one engine whose config is kept in etcd (embedded or attached) says so in /api/state's configSource
            session.stateProperty().addListener((o, a, s) -> {
                if (s != null) {
                    main.controller().showConfigBanner(dev.fulcrum.ui.fleet.ConfigSourceText.instance(s.configSource()));
                }
            });
        }
        w.addRequestsTab(embedded);
        if (!(session.client() instanceof HaproxyFleetClient)) {
            // an HAProxy fleet reports no routes of ours; the tab shows itself once a route splits or mirrors
            w.routes = dev.fulcrum.ui.routes.RoutesTab.create(session, main.controller().tabs().getTabs(),
                    main.controller().tabsByName().get("Backends")).controller();
        }
        if (workshop != null) {
            w.workshop = WorkshopTabs.lazy(session, workshop);
            java.util.List<javafx.scene.control.Tab> workshopTabs =
                    w.workshop.tabsFor(session.client() instanceof HaproxyFleetClient);
            if (session.client() instanceof dev.fulcrum.admin.fleet.EtcdFleetClient) {
                // "Why this backend" asks a pool in this process: a fleet's pools are in its instances
                workshopTabs = workshopTabs.stream().filter(t -> !"workshopWhyTab".equals(t.getId())).toList();
            }
            main.controller().tabs().getTabs().addAll(workshopTabs);
        }
        if (!(session.client() instanceof HaproxyFleetClient)
                && !(session.client() instanceof dev.fulcrum.admin.fleet.EtcdFleetClient)) {
            // a lesson applies a Fulcrum config and drives demo backends: an HAProxy fleet has neither, and the
            // instances of an etcd fleet each start demo backends of their own
            w.lessons = LessonsTab.create(session, main.controller()::showBeside, main.controller()::select, main.root());
            main.controller().tabs().getTabs().add(w.lessons.tab());
        }
        w.setDark(prefs.dark());
        main.controller().darkToggle().setSelected(prefs.dark());
        main.controller().darkToggle().selectedProperty().addListener((o, a, dark) -> {
            prefs.setDark(dark);
            w.setDark(dark);
        });
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.N, KeyCombination.SHORTCUT_DOWN), () -> {
            main.controller().select("Backends");
            main.controller().backends().showAddDialog();
        });
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.Z, KeyCombination.SHORTCUT_DOWN),
                () -> main.controller().backends().undo());
        w.present = new PresentMode(stage, scene, session, main.controller());
        w.textScale = new TextScale(main.root(), prefs);
        for (KeyCode larger : new KeyCode[] {KeyCode.PLUS, KeyCode.EQUALS, KeyCode.ADD}) {
            scene.getAccelerators().put(new KeyCodeCombination(larger, KeyCombination.SHORTCUT_DOWN,
                    KeyCombination.SHIFT_ANY), w.textScale::larger);
        }
        for (KeyCode smaller : new KeyCode[] {KeyCode.MINUS, KeyCode.SUBTRACT}) {
            scene.getAccelerators().put(new KeyCodeCombination(smaller, KeyCombination.SHORTCUT_DOWN,
                    KeyCombination.SHIFT_ANY), w.textScale::smaller);
        }
        for (KeyCode normal : new KeyCode[] {KeyCode.DIGIT0, KeyCode.NUMPAD0}) {
            scene.getAccelerators().put(new KeyCodeCombination(normal, KeyCombination.SHORTCUT_DOWN), w.textScale::reset);
        }
        stage.setTitle("Fulcrum — " + session.description());
        session.onError(msg -> Notifier.error(stage, msg));
        return w;
    }

    /**
     * The Instances tab after Events, and the config banner kept in step with the fleet on every state sample: etcd not
     * answering, or a config the instances refuse.
     */
    private void addInstancesTab(dev.fulcrum.admin.fleet.EtcdFleetClient fleet) {
        instances = dev.fulcrum.ui.fleet.InstancesTab.create(session, fleet);
        javafx.collections.ObservableList<javafx.scene.control.Tab> tabs = main.controller().tabs().getTabs();
        tabs.add(tabs.indexOf(main.controller().tabsByName().get("Events")) + 1, instances.tab());
        Runnable banner = () -> main.controller().showConfigBanner(dev.fulcrum.ui.fleet.ConfigSourceText.fleet(
                fleet.source(), fleet.configProblems(), fleet.fleet()));
        // the fleet changes in etcd, not in the state the window samples (an instance gone leaves it as it was):
        // both are read from the client each second, which keeps them from etcd's watch at no cost
        configTimer = FxTicks.every(javafx.util.Duration.seconds(1), () -> {
            banner.run();
            instances.refresh();
        });
        banner.run();
    }

    private dev.fulcrum.ui.fleet.InstancesTab instances;
    private FxTicks.Ticking configTimer;

    /** The Instances tab, or null (not attached to an etcd fleet). */
    public dev.fulcrum.ui.fleet.InstancesTab instances() {
        return instances;
    }

    /** The Requests tab after Events; hidden once the engine turns out to show no requests (an HAProxy fleet). */
    private void addRequestsTab(EmbeddedFulcrum embedded) {
        RequestsTab.Built built = RequestsTab.create(session,
                embedded == null ? RequestsContext.remote() : RequestsContext.embedded(embedded));
        javafx.collections.ObservableList<javafx.scene.control.Tab> tabs = main.controller().tabs().getTabs();
        tabs.add(tabs.indexOf(main.controller().tabsByName().get("Events")) + 1, built.tab());
        built.controller().onUnavailable(() -> tabs.remove(built.tab()));
        requests = built.controller();
    }

    private RequestsController requests;
    private dev.fulcrum.ui.routes.RoutesController routes;

    /** The Routes tab's controller, or null (an HAProxy fleet). */
    public dev.fulcrum.ui.routes.RoutesController routes() {
        return routes;
    }

    /** The Requests tab's controller (tests drive it). */
    public RequestsController requests() {
        return requests;
    }

    /**
     * What picking a language in the window does after the choice is remembered: the window is built again in it
     * (null: nothing more; a test's window keeps its views).
     */
    public void onLanguageChange(java.util.function.Consumer<java.util.Locale> rebuild) {
        main.controller().languageBox().valueProperty().addListener((o, a, l) -> {
            if (l != null && !l.equals(a) && !l.equals(Texts.locale())) {
                prefs.setLanguage(l);
                if (rebuild != null) {
                    rebuild.accept(l);
                }
            }
        });
    }

    /** Light is the base stylesheet; dark adds its overrides on top. */
    public void setDark(boolean dark) {
        scene.getStylesheets().setAll(Views.stylesheet("fulcrum"));
        if (dark) {
            scene.getStylesheets().add(Views.stylesheet("dark"));
        }
    }

    /** Stops what the window's views run on their own (a traffic run, a simulation, a lesson). */
    public void close() {
        if (divergenceTimer != null) {
            divergenceTimer.stop();
        }
        if (configTimer != null) {
            configTimer.stop();
        }
        requests.close();
        if (workshop != null) {
            workshop.close();
        }
        if (lessons != null) {
            lessons.close();
        }
    }

    /** The Lessons tab, or null (an HAProxy fleet has none). */
    public LessonsTab lessons() {
        return lessons;
    }

    public MainController controller() {
        return main.controller();
    }

    public UiSession session() {
        return session;
    }

    public Scene scene() {
        return scene;
    }
}
