package dev.fulcrum.ui.workshop;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.demo.TrafficSnapshot;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.CutText;
import dev.fulcrum.ui.MainController;
import dev.fulcrum.ui.MainWindow;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.WindowHarness;
import dev.fulcrum.ui.workshop.scenarios.Scenario;
import dev.fulcrum.ui.Views;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;

/**
 * The workshop tabs in Simplified Chinese and in Polish, in the whole window at 1280 x 800: each tab is titled from the
 * bundle and keeps its English view name, its texts come from the bundle, and nothing on it is cut, with every tab
 * showing what a run fills in (a traffic run's figures, a side by side's table and charts, a stepped request).
 */
@Timeout(120)
class WorkshopLanguageTest {
    private static final List<String> TAB_IDS =
            List.of("workshopTrafficTab", "workshopSideBySideTab", "workshopWhyTab", "workshopScenariosTab");
    private static final List<String> VIEW_NAMES = List.of("Traffic", "Side by side", "Why this backend", "Scenarios");

    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    @TempDir
    Path dir;

    @AfterEach
    void english() {
        Texts.use(Locale.ENGLISH);
    }

    @Test
    void inChineseEveryWorkshopTabIsTranslatedAndNothingIsCut(FxRobot robot) {
        try {
            Texts.use(Locale.SIMPLIFIED_CHINESE);
            List<String> cut = translatedAndWhole(robot, "流量", "开始", "策略");
            assertThat(cut).as("texts cut on the workshop tabs in Chinese").isEmpty();
        } finally {
            Texts.use(Locale.ENGLISH);
        }
    }

    @Test
    void inPolishEveryWorkshopTabIsTranslatedAndNothingIsCut(FxRobot robot) {
        try {
            Texts.use(Locale.forLanguageTag("pl"));
            List<String> cut = translatedAndWhole(robot, "Ruch", "Start", "Strategia");
            assertThat(cut).as("texts cut on the workshop tabs in Polish").isEmpty();
        } finally {
            Texts.use(Locale.ENGLISH);
        }
    }

    @Test
    void aComparedRecordingShowsItsTableAndChartsWholeInChineseAndPolish(FxRobot robot) throws Exception {
        RunningFulcrum fulcrum = fx.closeAfter(RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(
                StrategySpec.of(StrategySpec.ROUND_ROBIN), new BreakerConfig(false, 10, 5, 50, 2000, 100, 5000, 1),
                List.of(demo("demo-a", 1, 0, 0), demo("demo-b", 1, 0, 0)))).start());
        Path log = dir.resolve("small.log");
        try (BufferedWriter w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            for (int i = 0; i < 300; i++) {
                w.write(String.format(Locale.ROOT, "10.0.0.%d - - [05/Dec/2026:10:00:%02d +0000] \"GET /item/%d HTTP/1.1\""
                        + " 200 512 \"-\" \"curl\"%n", i % 9, i % 60, i % 40));
            }
        }
        for (Locale language : List.of(Locale.SIMPLIFIED_CHINESE, Locale.forLanguageTag("pl"))) {
            try {
                Texts.use(language);
                UiSession session = fx.closeAfter(new UiSession(new InProcessEngineClient(fulcrum.app()),
                        "embedded engine (test)"));
                WorkshopTabs.Workshop workshop = fx.onFx(() -> {
                    WorkshopTabs.Workshop w = fx.closeAfter(WorkshopTabs.create(session,
                            WorkshopContext.embedded(fulcrum.app(), resource -> { })));
                    TabPane pane = new TabPane();
                    pane.getTabs().addAll(w.tabs());
                    pane.getSelectionModel().select(1);
                    Scene scene = new Scene(pane, 1280, 800);
                    scene.getStylesheets().add(Views.stylesheet("fulcrum"));
                    fx.stage().setScene(scene);
                    fx.stage().show();
                    session.start();
                    return w;
                });
                fx.onFx(() -> workshop.sideBySide().openRecording(log));
                await().atMost(Duration.ofSeconds(30)).until(() -> fx.onFx(() -> workshop.sideBySide()
                        .comparisonProperty().get() != null && !workshop.sideBySide().runningProperty().get()));
                List<String> cut = fx.onFx(() -> {
                    Parent root = fx.stage().getScene().getRoot();
                    root.applyCss();
                    root.layout();
                    assertThat(workshop.sideBySide().compareTable().getColumns().get(0).getText())
                            .isEqualTo(Texts.t("sidebyside.column.strategy"));
                    assertThat(workshop.sideBySide().messageProperty().get())
                            .isEqualTo(Texts.t("sidebyside.compared", "small.log", "nginx", "300"));
                    return CutText.cut((Parent) workshop.tabs().get(1).getContent(), language + " Side by side");
                });
                assertThat(cut).as("texts cut on a compared recording in " + language).isEmpty();
            } finally {
                Texts.use(Locale.ENGLISH);
            }
        }
    }

    /**
     * Opens the window in the language in use, fills each workshop tab, checks the texts named and the tabs' names,
     * and returns what {@link CutText#cut} finds on each tab.
     */
    @SuppressWarnings("unchecked")
    private List<String> translatedAndWhole(FxRobot robot, String trafficTitle, String startText, String strategyColumn) {
        RunningFulcrum fulcrum = fx.closeAfter(RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(
                StrategySpec.of(StrategySpec.ROUND_ROBIN), new BreakerConfig(false, 10, 5, 50, 2000, 100, 5000, 1),
                List.of(demo("demo-a", 1, 0, 0), demo("demo-b", 1, 0, 0), demo("demo-c", 1, 0, 0)))).start());
        MainWindow window = fx.show(new UiSession(new InProcessEngineClient(fulcrum.app()), "embedded engine (test)"),
                WorkshopContext.embedded(fulcrum.app(), resource -> { }), null);
        List<Tab> tabs = fx.onFx(() -> TAB_IDS.stream().map(id -> window.controller().tabs().getTabs().stream()
                .filter(t -> id.equals(t.getId())).findFirst().orElseThrow()).toList());

        // each tab titled in the language, selected by its English view name
        assertThat(tabs).extracting(MainController::viewName).containsExactlyElementsOf(VIEW_NAMES);
        assertThat(fx.onFx(() -> tabs.get(0).getText())).isEqualTo(trafficTitle);
        for (int i = 0; i < tabs.size(); i++) {
            String name = VIEW_NAMES.get(i);
            fx.onFx(() -> window.controller().select(name));
            assertThat(fx.onFx(() -> window.controller().tabs().getSelectionModel().getSelectedItem()))
                    .isSameAs(tabs.get(i));
        }

        // every sample's line in the scenarios list is in the bundle
        assertThat(Scenario.ALL).allSatisfy(sample -> assertThat(sample.whatToShow())
                .isNotEqualTo("scenarios.what." + sample.name()));

        // a one-second run of the generator
        fx.onFx(() -> window.controller().tabs().getSelectionModel().select(tabs.get(0)));
        Button start = (Button) fx.waitFor("#trafficStart");
        assertThat(fx.onFx(start::getText)).isEqualTo(startText);
        fx.until(() -> !start.isDisabled());
        fx.onFx(() -> {
            robot.lookup("#trafficRate").queryAs(Spinner.class).getValueFactory().setValue(20.0);
            robot.lookup("#trafficDuration").queryAs(Spinner.class).getValueFactory().setValue(1);
        });
        fx.onFx(start::fire);
        TrafficSnapshot done = await().atMost(Duration.ofSeconds(15)).until(() -> fx.onFx(() -> start.isDisabled()
                ? null : window.session().traffic().snapshotProperty().get()),
                s -> s != null && s.state() == TrafficSnapshot.State.DONE);
        assertThat(fx.onFx(() -> robot.lookup("#trafficStatus").queryAs(Label.class).getText())).isEqualTo(
                Texts.t("traffic.status.done", String.format(Locale.ROOT, "%.1f", done.elapsedNanos() / 1e9)));

        // a side by side of every strategy on 2,000 requests
        fx.onFx(() -> window.controller().tabs().getSelectionModel().select(tabs.get(1)));
        fx.onFx(() -> robot.lookup("#sbsRequests").queryAs(Spinner.class).getValueFactory().setValue(2000));
        fx.onFx(() -> robot.lookup("#sbsRun").queryAs(Button.class).fire());
        TableView<?> table = (TableView<?>) fx.waitFor("#sbsTable");
        await().atMost(Duration.ofSeconds(60)).until(() -> fx.onFx(() -> !table.getItems().isEmpty()
                && !robot.lookup("#sbsRun").queryAs(Button.class).isDisabled()));
        assertThat(fx.onFx(() -> table.getColumns().stream().map(TableColumn::getText).toList()))
                .startsWith(strategyColumn);

        // a request stepped through the pool
        fx.onFx(() -> window.controller().tabs().getSelectionModel().select(tabs.get(2)));
        fx.onFx(() -> robot.lookup("#whyStep").queryAs(Button.class).fire());
        await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(() -> robot.lookup("#whyResult").query().isVisible()));
        assertThat(fx.onFx(() -> robot.lookup("#whyStep").queryAs(Button.class).getText()))
                .isEqualTo(Texts.t("why.step"));

        List<String> cut = new ArrayList<>();
        for (Tab tab : tabs) {
            cut.addAll(fx.onFx(() -> {
                window.controller().tabs().getSelectionModel().select(tab);
                Parent root = fx.stage().getScene().getRoot();
                root.applyCss();
                root.layout();
                return CutText.cut((Parent) tab.getContent(), MainController.viewName(tab));
            }));
        }
        return cut;
    }
}
