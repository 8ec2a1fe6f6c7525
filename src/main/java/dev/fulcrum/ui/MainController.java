package dev.fulcrum.ui;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.backends.BackendsController;
import dev.fulcrum.ui.breakers.BreakersController;
import dev.fulcrum.ui.demo.DemoController;
import dev.fulcrum.ui.events.EventsController;
import dev.fulcrum.ui.health.HealthController;
import dev.fulcrum.ui.live.LiveController;
import dev.fulcrum.ui.load.LoadController;
import dev.fulcrum.ui.ring.RingController;
import dev.fulcrum.ui.strategy.StrategyController;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javafx.fxml.FXML;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.layout.BorderPane;
import org.controlsfx.control.StatusBar;
import org.controlsfx.control.ToggleSwitch;

/**
 * The window's frame: which engine (title and toolbar), the pool selector, the theme switch, the tabs of the
 * views and the status bar (proxy URL, total requests/s, errors). Each view has its own controller.
 */
public final class MainController {
    private final UiSession session;
    private final Label rpsLabel = new Label();
    private final Label errorsLabel = new Label();
    private RunningTotals totals = new RunningTotals();
    /** {requests, failures} of {@link #totals} at the newest live sample. */
    private long[] liveCounts = {0, 0};

    @FXML private BorderPane root;
    @FXML private Label engineLabel;
    @FXML private ComboBox<String> poolSelector;
    @FXML private ToggleSwitch darkToggle;
    @FXML private ComboBox<java.util.Locale> languageBox;
    @FXML private javafx.scene.control.Button presentButton;
    @FXML private javafx.scene.layout.VBox bottom;
    @FXML private javafx.scene.control.ToolBar toolbar;
    @FXML private javafx.scene.layout.HBox poolBox;
    @FXML private javafx.scene.layout.HBox presentBar;
    /** The present bar's right end: the Present button above the pool, one column beside the strip's rows. */
    private final javafx.scene.layout.VBox presentSide = new javafx.scene.layout.VBox();
    @FXML private TabPane tabs;
    @FXML private Tab liveTab;
    @FXML private Tab backendsTab;
    @FXML private Tab ringTab;
    @FXML private Tab loadTab;
    @FXML private Tab breakersTab;
    @FXML private Tab healthTab;
    @FXML private Tab strategyTab;
    @FXML private Tab eventsTab;
    @FXML private Tab demoTab;
    @FXML private StatusBar statusBar;
    @FXML private Label staleBanner;
    @FXML private Label instanceBanner;
    @FXML private LiveController liveController;
    @FXML private BackendsController backendsController;
    @FXML private RingController ringController;
    @FXML private LoadController loadController;
    @FXML private BreakersController breakersController;
    @FXML private HealthController healthController;
    @FXML private StrategyController strategyController;
    @FXML private EventsController eventsController;
    @FXML private DemoController demoController;

    public MainController(UiSession session) {
        this.session = session;
    }

    @FXML
    private void initialize() {
        engineLabel.setText(session.description());
        languageBox.setId("languageBox");
        languageBox.getItems().setAll(Texts.LANGUAGES);
        languageBox.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(java.util.Locale l) {
                return l == null ? "" : Texts.nativeName(l);
            }

            @Override
            public java.util.Locale fromString(String s) {
                return null;
            }
        });
        // each language named in its own script: 简体中文 needs the CJK font in an English or Polish window too
        languageBox.setCellFactory(list -> new LanguageCell());
        languageBox.setButtonCell(new LanguageCell());
        languageBox.setValue(Texts.locale());
        languageBox.setTooltip(new javafx.scene.control.Tooltip(Texts.t("main.language")));
        bottom.getChildren().add(0, new TimelineBar(session.timeMachine()));
        rpsLabel.setId("totalRps");
        errorsLabel.setId("totalErrors");
        rpsLabel.getStyleClass().add("status-item");
        errorsLabel.getStyleClass().add("status-item");
        statusBar.getRightItems().addAll(rpsLabel, new javafx.scene.control.Separator(javafx.geometry.Orientation.VERTICAL),
                errorsLabel);
        statusBar.setId("statusBar");
        TabStrip strip = new TabStrip(tabs);
        parked = new ParkedTabs(tabs);
        javafx.scene.layout.HBox.setHgrow(strip, javafx.scene.layout.Priority.ALWAYS);
        presentSide.setId("presentSide");
        presentSide.getStyleClass().add("present-side");
        presentBar.getChildren().addAll(strip, presentSide);
        poolSelector.valueProperty().addListener((o, a, p) -> {
            if (p != null) {
                session.poolProperty().set(p);
            }
        });
        // views that redraw on every sample rest while their tab is hidden, and catch up when it is selected
        loadController.viewModel().showingProperty().bind(loadTab.selectedProperty());
        liveController.showingProperty().bind(liveTab.selectedProperty());
        darkToggle.selectedProperty().addListener((o, a, dark) -> liveController.setDark(dark));
        breakersController.showingProperty().bind(breakersTab.selectedProperty());
        healthController.showingProperty().bind(healthTab.selectedProperty());
        session.stateProperty().addListener((o, a, s) -> show(s));
        session.lastErrorProperty().addListener((o, a, e) -> {
            if (e != null && !stale) { // while stale, the staleness line says it (with this error)
                statusBar.setText(e);
            }
        });
        session.demoStateProperty().addListener((o, a, d) -> showDemoTab(!d.isEmpty()));
        showDemoTab(false);
        // a stalled or gone engine: its last figures must not pass for live ones
        FxTicks.everyWhileShown(statusBar, javafx.util.Duration.millis(500), () -> {
            session.staleness().check(session.state() != null);
            showStaleness();
        });
        staleBanner.setId("staleBanner");
        instanceBanner.setId("instanceBanner");
        configBanner.setId("configBanner");
        configBanner.getStyleClass().add("config-banner");
        configBanner.setMaxWidth(Double.MAX_VALUE);
        configBanner.setWrapText(true);
        showConfigBanner(null);
        ((javafx.scene.layout.Pane) staleBanner.getParent()).getChildren().add(configBanner);
        session.staleness().instanceProperty().addListener((o, before, now) -> {
            if (before != null && now != null) {
                showNewInstance();
            }
        });
        instanceBanner.setOnMouseClicked(e -> {
            instanceBanner.setVisible(false);
            instanceBanner.setManaged(false);
        });
        session.staleProperty().addListener((o, a, st) -> showStaleness());
    }

    /** Milliseconds without an answer after which the status bar says so, for any engine. */
    static final long STATUS_STALE_MS = 3_000;
    private static final java.time.format.DateTimeFormatter CLOCK =
            java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss").withZone(java.time.ZoneId.systemDefault());
    private boolean stale;

    /**
     * While the engine does not answer ({@link Staleness#staleProperty()}): a banner over the views saying since when,
     * the status bar's line with the last error, and no total rate. The next answer takes them away.
     */
    private void showStaleness() {
        Staleness staleness = session.staleness();
        long ms = staleness.msSinceLastAnswer();
        boolean nowStale = staleness.stale();
        staleBanner.setVisible(nowStale);
        staleBanner.setManaged(nowStale);
        if (nowStale) {
            String since = CLOCK.format(java.time.Instant.ofEpochMilli(staleness.lastAnswerWallMillis()));
            staleBanner.setText(Texts.t("main.stale.banner", session.description(), since));
        } else if (ms < STATUS_STALE_MS || session.state() == null) {
            return;
        }
        stale = true;
        String error = session.lastErrorProperty().get();
        statusBar.setText(Texts.t("main.stale.status", Long.toString(ms / 1000),
                CLOCK.format(java.time.Instant.ofEpochMilli(staleness.lastAnswerWallMillis())))
                + (error == null ? "" : "   ·   " + error));
        rpsLabel.setText(Texts.t("main.status.norps"));
        if (!statusBar.getStyleClass().contains("stale")) {
            statusBar.getStyleClass().add("stale");
        }
    }

    /**
     * A restarted engine answers: its counters start from 0 and it has none of this window's changes, so the totals
     * start again and the undo history is gone (the session cleared it); the banner says so until clicked.
     */
    private void showNewInstance() {
        totals = new RunningTotals();
        liveCounts = new long[] {0, 0};
        instanceBanner.setText(Texts.t("main.instance.banner", session.description(),
                CLOCK.format(java.time.Instant.ofEpochMilli(session.staleness().lastAnswerWallMillis()))));
        instanceBanner.setVisible(true);
        instanceBanner.setManaged(true);
    }

    private void show(EngineState s) {
        if (s == null) {
            return;
        }
        if (stale) {
            stale = false;
            statusBar.getStyleClass().remove("stale");
        }
        List<String> pools = new ArrayList<>(s.pools().keySet());
        if (!pools.equals(poolSelector.getItems())) {
            poolSelector.getItems().setAll(pools);
        }
        if (poolSelector.getValue() == null || !pools.contains(poolSelector.getValue())) {
            poolSelector.setValue(pools.contains(session.pool()) ? session.pool() : pools.isEmpty() ? null : pools.get(0));
        }
        double rps = 0;
        double errorRps = 0;
        long total;
        long failures;
        if (s.requests() != null) {
            // the engine's own figures of the moment shown: its clients' answers, each request once however many
            // attempts it took, from 0 when that instance started
            rps = s.requests().rps();
            errorRps = s.requests().errorRps();
            total = s.requests().total();
            failures = s.requests().errors();
        } else {
            // an engine that counts only attempts per backend (HAProxy): summed here, from live samples alone, so a
            // moment looked back at is not taken for a backend that was removed and came back
            for (EngineState.BackendInfo b : s.backends()) {
                rps += b.rps();
                errorRps += b.rps() * b.errorRate();
            }
            if (session.timeMachine().live()) {
                liveCounts = totals.add(s.backends());
            }
            total = liveCounts[0];
            failures = liveCounts[1];
        }
        boolean panic = s.pools().values().stream().anyMatch(EngineState.PoolInfo::panic);
        statusBar.setText(Texts.t("main.status.proxy", s.proxy()) + routesText(s)
                + (panic ? "   ·   " + Texts.t("main.status.panic") : ""));
        rpsLabel.setText(Texts.t("main.status.rps", String.format("%.1f", rps)));
        errorsLabel.setText(Texts.t("main.status.errors", String.format("%.1f", errorRps), Long.toString(failures),
                Long.toString(total)));
    }

    /**
     * Requests and failures since the window opened, removed backends included: summing only the backends there are
     * now would make the total go down whenever one is removed. For an engine that does not count its answers itself
     * ({@code requests} of {@code GET /api/state}); fed live samples only.
     */
    static final class RunningTotals {
        private final Map<String, long[]> last = new HashMap<>();
        private long retiredRequests;
        private long retiredFailures;

        /** {total requests, failures} for this sample of the backends. */
        long[] add(List<EngineState.BackendInfo> backends) {
            Map<String, long[]> now = new HashMap<>();
            for (EngineState.BackendInfo b : backends) {
                String key = b.pool() + "/" + b.id();
                long[] before = last.get(key);
                if (before != null && b.totalRequests() < before[0]) { // removed and added again since the last sample
                    retire(before);
                }
                now.put(key, new long[] {b.totalRequests(), b.failures()});
            }
            last.forEach((key, counts) -> {
                if (!now.containsKey(key)) {
                    retire(counts);
                }
            });
            last.clear();
            last.putAll(now);
            long requests = retiredRequests;
            long failures = retiredFailures;
            for (long[] c : now.values()) {
                requests += c[0];
                failures += c[1];
            }
            return new long[] {requests, failures};
        }

        private void retire(long[] counts) {
            retiredRequests += counts[0];
            retiredFailures += counts[1];
        }
    }

    /** The routes in the order they are matched (longest prefix first), e.g. {@code /api → api (strip)}. */
    static String routesText(EngineState s) {
        if (s.routes() == null || s.routes().isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.routes().size(); i++) {
            EngineState.RouteInfo r = s.routes().get(i);
            String target = r.pool() != null ? r.pool() : r.split() == null ? "?" : r.split().stream()
                    .map(a -> a.pool() + " " + a.weight()).collect(java.util.stream.Collectors.joining("/"));
            b.append(i == 0 ? "" : ", ").append(r.pathPrefix() != null && r.match() == null ? r.pathPrefix()
                    : RouteText.match(r)).append(" → ").append(target)
                    .append(r.stripPrefix() ? " " + Texts.t("main.routes.strip") : "");
        }
        return "   ·   " + Texts.t("main.routes", b.toString());
    }

    private void showDemoTab(boolean show) {
        boolean shown = tabs.getTabs().contains(demoTab);
        if (show && !shown) {
            tabs.getTabs().add(demoTab);
        } else if (!show && shown) {
            tabs.getTabs().remove(demoTab);
        }
    }

    /** A language as the menu lists it: its own name, in a font that has its script. */
    private static final class LanguageCell extends javafx.scene.control.ListCell<java.util.Locale> {
        @Override
        protected void updateItem(java.util.Locale l, boolean empty) {
            super.updateItem(l, empty);
            setText(empty || l == null ? null : Texts.nativeName(l));
            String cjk = Fonts.chinese();
            setStyle(!empty && l != null && "zh".equals(l.getLanguage()) && cjk != null
                    ? "-fx-font-family: \"" + cjk + "\";" : "");
        }
    }

    /** The language menu: English, 简体中文, Polski. */
    public ComboBox<java.util.Locale> languageBox() {
        return languageBox;
    }

    public ToggleSwitch darkToggle() {
        return darkToggle;
    }

    public javafx.scene.control.Button presentButton() {
        return presentButton;
    }

    /**
     * Present mode hides what only an operator needs (the engine line, the theme switch, the status bar) and puts the
     * tabs where a projector shows them all: the toolbar gives way to the present bar, the tabs as a strip that wraps
     * ({@link TabStrip}; the stylesheet hides the tab pane's own headers), with the Present button and the pool moved
     * to its end, one above the other. Leaving present mode puts them back where they were.
     */
    void showChrome(boolean show) {
        for (javafx.scene.Node n : new javafx.scene.Node[] {engineLabel, darkToggle, statusBar, toolbar}) {
            n.setVisible(show);
            n.setManaged(show);
        }
        presentBar.setVisible(!show);
        presentBar.setManaged(!show);
        backendsController.present(!show);
        List<javafx.scene.Node> admin = new ArrayList<>();
        for (Tab t : tabs.getTabs()) {
            adminControls(parked.content(t), admin);
        }
        for (javafx.scene.Node n : admin) {
            n.setVisible(show);
            n.setManaged(show);
        }
        if (show && presentSide.getChildren().contains(poolBox)) {
            presentSide.getChildren().removeAll(presentButton, poolBox);
            int at = toolbar.getItems().indexOf(engineLabel) + 2; // after the spacer that pushes them right
            toolbar.getItems().add(at, poolBox);
            toolbar.getItems().add(toolbar.getItems().indexOf(darkToggle) + 1, presentButton);
        } else if (!show && !presentSide.getChildren().contains(poolBox)) {
            toolbar.getItems().removeAll(poolBox, presentButton);
            presentSide.getChildren().addAll(presentButton, poolBox);
        }
    }

    /**
     * The operator's controls in {@code n}, which the views mark with the style class {@code admin} (the Requests tab's
     * HAR export and HTTPS trust): present mode hides them. A tool bar's items are looked at as items, since those it
     * has no room for are not its children.
     */
    private static void adminControls(javafx.scene.Node n, List<javafx.scene.Node> found) {
        if (n == null) {
            return;
        }
        if (n.getStyleClass().contains("admin")) {
            found.add(n);
        }
        if (n instanceof javafx.scene.control.ToolBar bar) {
            for (javafx.scene.Node item : bar.getItems()) {
                adminControls(item, found);
            }
        } else if (n instanceof javafx.scene.Parent p) {
            for (javafx.scene.Node c : p.getChildrenUnmodifiable()) {
                adminControls(c, found);
            }
        }
    }

    public LiveController live() {
        return liveController;
    }

    public BackendsController backends() {
        return backendsController;
    }

    public RingController ring() {
        return ringController;
    }

    public BreakersController breakers() {
        return breakersController;
    }

    /**
     * Hides what this kind of engine cannot show (HAProxy has no ring, breaker window, strategies or demo
     * backends we can drive) instead of showing empty or made-up views.
     */
    void applyCapabilities(dev.fulcrum.admin.EngineClient.Capabilities caps) {
        if (!caps.ring()) {
            tabs.getTabs().remove(ringTab);
        }
        if (!caps.breakerWindow()) {
            tabs.getTabs().remove(breakersTab);
        }
        if (!caps.strategies()) {
            tabs.getTabs().remove(strategyTab);
        }
    }

    /** A line under the toolbar naming instances that disagree (HAProxy fleets); hidden while they agree. */
    void showDivergence(String text) {
        boolean show = text != null && !text.isEmpty();
        if (show && !statusBar.getLeftItems().contains(divergence)) {
            divergence.setId("divergence");
            divergence.getStyleClass().add("warning");
            divergence.setStyle("-fx-text-fill: #b45309; -fx-font-weight: bold;");
            statusBar.getLeftItems().add(divergence);
        }
        divergence.setText(show ? Texts.t("main.divergence", text) : "");
        divergence.setVisible(show);
        divergence.setManaged(show);
    }

    private final Label divergence = new Label();

    /**
     * The banner of a config kept in etcd ({@code dev.fulcrum.ui.fleet.ConfigSourceText}): etcd does not answer, or
     * the latest config was refused. Null or empty hides it. FX thread.
     */
    public void showConfigBanner(String text) {
        boolean show = text != null && !text.isEmpty();
        if (show && !text.equals(configBanner.getText())) {
            configBanner.setText(text);
        }
        configBanner.setVisible(show);
        configBanner.setManaged(show);
    }

    private final Label configBanner = new Label();

    public TabPane tabs() {
        return tabs;
    }

    /** The views of the tabs, whether shown or parked off the scene graph while their tab is not selected. */
    public ParkedTabs parkedTabs() {
        return parked;
    }

    private ParkedTabs parked;

    /** Puts {@code panel} beside the views, right of the tabs (a lesson's narration), or takes it away with null. */
    public void showBeside(javafx.scene.Node panel) {
        root.setRight(panel);
    }

    /**
     * Selects the view {@code name} (Backends, Ring, Load...): a tab's English name, kept as its user data, whatever
     * language its title is in, so lessons and tests name views the same way in every language.
     */
    public void select(String name) {
        for (Tab t : tabs.getTabs()) {
            if (name.equals(viewName(t))) {
                tabs.getSelectionModel().select(t);
            }
        }
    }

    /** A tab's English name (its user data, set by whoever makes the tab), or its title when it has none. */
    public static String viewName(Tab t) {
        return t.getUserData() instanceof String name ? name : t.getText();
    }

    Map<String, Tab> tabsByName() {
        return Map.of("Backends", backendsTab, "Ring", ringTab, "Load", loadTab, "Breakers", breakersTab,
                "Health", healthTab, "Strategy", strategyTab, "Events", eventsTab, "Demo faults", demoTab);
    }
}
