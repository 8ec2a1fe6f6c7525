package dev.fulcrum.ui.workshop;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.demo.TrafficRecorder;
import dev.fulcrum.demo.TrafficSnapshot;
import dev.fulcrum.engine.BackendState;
import dev.fulcrum.engine.DecisionTrace;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.engine.sim.SideBySideReport;
import dev.fulcrum.engine.sim.StrategyResult;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.Views;
import dev.fulcrum.ui.WindowHarness;
import dev.fulcrum.ui.workshop.scenarios.Scenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javafx.scene.Scene;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.Spinner;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextField;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;

/** The workshop tabs against a real embedded engine with three demo backends on port 0, round robin. */
@Timeout(60)
class WorkshopViewsTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private RunningFulcrum fulcrum;
    private UiSession session;
    private WorkshopTabs.Workshop workshop;
    private TabPane tabs;
    private final List<String> opened = new CopyOnWriteArrayList<>();

    @TempDir
    Path dir;

    @BeforeEach
    void open() {
        fulcrum = fx.closeAfter(RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(
                StrategySpec.of(StrategySpec.ROUND_ROBIN), new BreakerConfig(false, 10, 5, 50, 2000, 100, 5000, 1),
                List.of(demo("demo-a", 1, 0, 0), demo("demo-b", 1, 0, 0), demo("demo-c", 1, 0, 0)))).start());
        session = fx.closeAfter(new UiSession(new InProcessEngineClient(fulcrum.app()), "embedded engine (test)"));
        fx.onFx(() -> {
            workshop = fx.closeAfter(
                    WorkshopTabs.create(session, WorkshopContext.embedded(fulcrum.app(), opened::add)));
            tabs = new TabPane();
            tabs.getTabs().addAll(workshop.tabs());
            Scene scene = new Scene(tabs, 1280, 800);
            scene.getStylesheets().add(Views.stylesheet("fulcrum"));
            fx.stage().setScene(scene);
            fx.stage().show();
            session.start();
        });
    }

    private void select(FxRobot robot, String tabId) {
        robot.interact(() -> tabs.getSelectionModel().select(tabs.getTabs().stream()
                .filter(t -> tabId.equals(t.getId())).findFirst().orElseThrow()));
    }

    @SuppressWarnings("unchecked")
    @Test
    void anHaproxyFleetGetsOnlyTheTabsThatWorkThere() {
        // Traffic sends through Fulcrum's proxy and Why explains its pick: neither exists for an HAProxy fleet
        assertThat(workshop.tabsFor(true)).extracting(javafx.scene.control.Tab::getId)
                .containsExactly("workshopSideBySideTab", "workshopScenariosTab");
        assertThat(workshop.tabsFor(false)).extracting(javafx.scene.control.Tab::getId)
                .containsExactly("workshopTrafficTab", "workshopSideBySideTab", "workshopWhyTab", "workshopScenariosTab");
    }

    @Test
    void aTwoSecondRunAtFiftyPerSecondShowsAnswersAndTheirBackends(FxRobot robot) throws Exception {
        // given the traffic tab set to 50 req/s for 2 s, recording to a file, once the proxy's address is known
        select(robot, "workshopTrafficTab");
        fx.until(() -> !robot.lookup("#trafficStart").queryAs(Button.class).isDisabled());
        Path recording = dir.resolve("run.jsonl");
        robot.interact(() -> {
            robot.lookup("#trafficRate").queryAs(Spinner.class).getValueFactory().setValue(50.0);
            robot.lookup("#trafficDuration").queryAs(Spinner.class).getValueFactory().setValue(2);
            robot.lookup("#trafficRecord").queryAs(CheckBox.class).setSelected(true);
            robot.lookup("#trafficRecordFile").queryAs(TextField.class).setText(recording.toString());
        });

        // when it runs to its end
        robot.clickOn("#trafficStart");
        fx.until(Duration.ofSeconds(15), () -> {
            TrafficSnapshot s = workshop.traffic().viewModel().snapshotProperty().get();
            return s != null && s.state() == TrafficSnapshot.State.DONE
                    && !workshop.traffic().viewModel().runningProperty().get();
        });

        // then it stopped at its duration, answers were counted and the chart has a bar per backend
        TrafficSnapshot last = workshop.traffic().viewModel().snapshotProperty().get();
        assertThat(last.durationNanos()).isEqualTo(Duration.ofSeconds(2).toNanos());
        assertThat(last.completed()).isPositive();
        assertThat(fx.text("#trafficCompleted"))
                .startsWith(last.completed() + " answered of " + last.sent() + " sent");
        assertThat(fx.text("#trafficStatus")).startsWith("done after");
        BarChart<String, Number> chart = fx.lookup("#trafficBackends", BarChart.class);
        // copies of the bars, taken on the FX thread: the chart's own may change while they are read
        List<XYChart.Data<String, Number>> bars = fx.onFx(() -> chart.getData().get(0).getData().stream()
                .map(d -> new XYChart.Data<>(d.getXValue(), d.getYValue())).toList());
        assertThat(bars).extracting(XYChart.Data::getXValue).containsExactly("demo-a", "demo-b", "demo-c");
        assertThat(bars.stream().mapToLong(d -> d.getYValue().longValue()).sum()).isEqualTo(last.completed());
        assertThat(bars).allSatisfy(d -> assertThat(d.getYValue().longValue()).isPositive());

        // and every send was recorded, so the recording replays into side by side with as many requests
        assertThat(TrafficRecorder.read(recording)).hasSize((int) last.sent());
        robot.interact(() -> robot.lookup("#trafficReplayFile").queryAs(TextField.class).setText(recording.toString()));
        robot.interact(() -> workshop.traffic().replayIntoSideBySide());
        fx.until(Duration.ofSeconds(5), () -> robot.lookup("#sbsTraceSource").queryAs(Label.class).getText()
                .contains(last.sent() + " requests"));
        assertThat(fx.onFx(() -> tabs.getSelectionModel().getSelectedItem().getId()))
                .isEqualTo("workshopSideBySideTab");
        robot.interact(() -> {
            workshop.sideBySide().selectStrategies(List.of(StrategySpec.ROUND_ROBIN), false);
            workshop.sideBySide().run();
        });
        fx.until(Duration.ofSeconds(20), () -> workshop.sideBySide().reportProperty().get() != null);
        assertThat(workshop.sideBySide().reportProperty().get().requests()).isEqualTo((int) last.sent());
    }

    @Test
    void aSeededSideBySideRunShowsARowPerStrategyAndExportsThemAsCsv(FxRobot robot) throws Exception {
        // given three strategies and the naive WRR, 3,000 requests, seed 7, demo-b ten times slower
        select(robot, "workshopSideBySideTab");
        robot.interact(() -> {
            robot.lookup("#sbsBackends").queryAs(TextField.class).setText("demo-a:5:10, demo-b:1:10, demo-c:1:10");
            robot.lookup("#sbsRequests").queryAs(Spinner.class).getValueFactory().setValue(3000);
            robot.lookup("#sbsSeed").queryAs(TextField.class).setText("7");
            workshop.sideBySide().selectStrategies(List.of(StrategySpec.ROUND_ROBIN, StrategySpec.SMOOTH_WRR,
                    StrategySpec.LEAST_REQUESTS), true);
        });
        robot.interact(() -> {
            @SuppressWarnings("unchecked")
            var slow = (javafx.scene.control.ComboBox<String>) robot.lookup("#sbsSlowBackend").query();
            slow.setValue("demo-b");
        });

        // when it runs
        robot.clickOn("#sbsRun");
        fx.until(Duration.ofSeconds(30), () -> workshop.sideBySide().reportProperty().get() != null
                && !workshop.sideBySide().runningProperty().get());
        // the report is visible as soon as it is set, before its listener has filled the table on the FX thread
        org.testfx.util.WaitForAsyncUtils.waitForFxEvents();

        // then the table has one row per strategy, naive last, each row's loads summing to the trace
        SideBySideReport r = workshop.sideBySide().reportProperty().get();
        assertThat(fx.onFx(() -> List.copyOf(workshop.sideBySide().table().getItems())))
                .extracting(StrategyResult::strategy).containsExactly(
                "round-robin", "smooth-weighted-round-robin", "least-requests", "naive-weighted-round-robin");
        assertThat(r.seed()).isEqualTo(7);
        for (StrategyResult row : r.results()) {
            assertThat(row.requestsPerBackend().values().stream().mapToLong(Long::longValue).sum() + row.unrouted())
                    .isEqualTo(3000);
        }
        // the slow backend shows in round robin's p99, and weights in smooth WRR's loads
        assertThat(r.result("round-robin").p99Ms()).isGreaterThan(50);
        assertThat(r.result("smooth-weighted-round-robin").requestsPerBackend().get("demo-a")).isGreaterThan(2000);

        // and the CSV export writes a header and a row per strategy, the same for the same seed
        Path csv = dir.resolve("sbs.csv");
        workshop.sideBySide().exportCsv(csv);
        List<String> lines = Files.readAllLines(csv);
        assertThat(lines).hasSize(5);
        assertThat(lines.get(0)).startsWith("strategy,requests_demo-a,requests_demo-b,requests_demo-c,");
        assertThat(lines.subList(1, 5)).extracting(l -> l.substring(0, l.indexOf(','))).containsExactly(
                "round-robin", "smooth-weighted-round-robin", "least-requests", "naive-weighted-round-robin");
        robot.interact(() -> workshop.sideBySide().run());
        fx.until(Duration.ofSeconds(30), () -> workshop.sideBySide().reportProperty().get() != r
                && !workshop.sideBySide().runningProperty().get());
        assertThat(workshop.sideBySide().reportProperty().get().toCsv()).isEqualTo(Files.readString(csv));
    }

    @Test
    void whyThisBackendNamesADrainingBackendAsFilteredWithItsReason(FxRobot robot) throws Exception {
        // given demo-c holding a slow request while it drains (DRAINING until that request ends)
        fulcrum.app().updateDemo("demo-c", 10_000.0, null, null);
        for (int i = 0; i < 3; i++) {
            fulcrum.getAsync("/slow/" + i);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("demo-c").activeRequests() == 1);
        fulcrum.engine().drain("demo-c");
        assertThat(fulcrum.backend("demo-c").state()).isEqualTo(BackendState.DRAINING);

        // when a request is stepped
        select(robot, "workshopWhyTab");
        robot.clickOn("#whyStep");
        fx.until(Duration.ofSeconds(5), () -> workshop.why().traceProperty().get() != null);

        // then demo-c is filtered out as DRAINING, the others are candidates, and one of them is picked
        DecisionTrace t = workshop.why().traceProperty().get();
        assertThat(fx.text("#whyFiltered-demo-c")).isEqualTo("demo-c — DRAINING");
        assertThat(t.candidates()).extracting(DecisionTrace.Candidate::backend).containsExactly("demo-a", "demo-b");
        assertThat(fx.text("#whyPicked")).isIn("demo-a", "demo-b");
        assertThat(fx.text("#whyStrategy")).isEqualTo("round-robin");
    }

    @Test
    void whyThisBackendSaysItNeedsTheEmbeddedEngineWhenThereIsNoPoolLookup(FxRobot robot) {
        WorkshopTabs.Workshop[] remote = new WorkshopTabs.Workshop[1];
        robot.interact(() -> remote[0] = WorkshopTabs.create(session, WorkshopContext.remote(null)));
        var root = fx.onFx(() -> remote[0].tabs().get(2).getContent());
        Label unavailable = fx.onFx(() -> (Label) root.lookup("#whyUnavailable"));
        assertThat(fx.onFx(unavailable::isVisible)).isTrue();
        assertThat(fx.onFx(unavailable::getText)).contains("embedded engine only");
        assertThat(fx.onFx(() -> root.lookup("#whyStep").isDisabled())).isTrue();
        assertThat(fx.onFx(() -> remote[0].scenarios().openButton().isDisabled())).isTrue();
        remote[0].close();
    }

    @SuppressWarnings("unchecked")
    @Test
    void theScenarioListHasTheEightSamplesAndOpenHandsTheChosenOneToTheWindow(FxRobot robot) {
        select(robot, "workshopScenariosTab");
        ListView<Scenario> list = fx.lookup("#scenarioList", ListView.class);
        List<Scenario> scenarios = fx.onFx(() -> List.copyOf(list.getItems()));
        assertThat(scenarios).extracting(Scenario::name).containsExactly("workshop", "hashing", "bounded-load",
                "breaker-demo", "slow-start", "slow-backend", "sticky", "local-dev");
        // every sample is packaged where the window will read it
        for (Scenario s : scenarios) {
            assertThat(WorkshopContext.readScenario(s.resource())).contains("\"strategy\"");
        }

        robot.clickOn("#scenario-hashing");
        robot.clickOn("#openScenario");

        assertThat(opened).containsExactly("samples/hashing.json");
    }

    @SuppressWarnings("unchecked")
    @Test
    void theSpikeButtonArmsASlowRequestOnTheChosenDemoBackend(FxRobot robot) {
        select(robot, "workshopTrafficTab");
        fx.until(Duration.ofSeconds(5), () ->
                robot.lookup("#trafficSpikeBackend").queryAs(javafx.scene.control.ComboBox.class).getItems().size() == 3);
        robot.interact(() -> {
            robot.lookup("#trafficSpikeBackend").queryAs(javafx.scene.control.ComboBox.class).setValue("demo-b");
            robot.lookup("#trafficSpikeMs").queryAs(Spinner.class).getValueFactory().setValue(1500);
        });

        robot.clickOn("#trafficSpike");

        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.app().demos().get("demo-b").pendingSpikeMs() == 1500);
        assertThat(fulcrum.app().demos().get("demo-a").pendingSpikeMs()).isZero();
    }

    @Test
    void theKeyPlacementFollowsThePoolsStrategyKeyAndStopEndsALongRun(FxRobot robot) {
        // given the pool hashing on a header
        select(robot, "workshopTrafficTab");
        fulcrum.engine().setStrategy("default", StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "header:X-User"));
        fx.until(Duration.ofSeconds(5), () ->
                "header:X-User".equals(robot.lookup("#trafficPlacement").queryAs(TextField.class).getText()));
        assertThat(workshop.traffic().settings().keyPlacement())
                .isEqualTo(dev.fulcrum.demo.TrafficSettings.KeyPlacement.header("X-User"));

        // when a 10-minute run is started and stopped
        robot.interact(() -> {
            robot.lookup("#trafficDuration").queryAs(Spinner.class).getValueFactory().setValue(600);
            workshop.traffic().start();
        });
        fx.until(Duration.ofSeconds(5), () -> workshop.traffic().viewModel().snapshotProperty().get() != null);
        robot.clickOn("#trafficStop");

        // then it ends well before its duration
        fx.until(() -> !workshop.traffic().viewModel().runningProperty().get());
        TrafficSnapshot last = workshop.traffic().viewModel().snapshotProperty().get();
        assertThat(last.state()).isEqualTo(TrafficSnapshot.State.DONE);
        assertThat(last.elapsedNanos()).isLessThan(last.durationNanos());
    }

    @Test
    void sideBySideStartsFromTheSelectedPoolsBackendsWeightsAndDemoLatencies(FxRobot robot) {
        fulcrum.engine().setWeight("demo-a", 4);
        fulcrum.app().updateDemo("demo-c", 30.0, null, null);
        select(robot, "workshopSideBySideTab");
        fx.untilAsserted(Duration.ofSeconds(5), () -> assertThat(
                robot.lookup("#sbsBackends").queryAs(TextField.class).getText())
                .isEqualTo("demo-a:4:1, demo-b:1:1, demo-c:1:30"));
        assertThat(workshop.sideBySide().settings().backends()).extracting(b -> b.id() + "/" + b.weight())
                .containsExactly("demo-a/4", "demo-b/1", "demo-c/1");
    }

    @Test
    void aRecordingReplaysThroughTheProxyAtTheChosenSpeed(FxRobot robot) throws Exception {
        // given a recording of 20 requests over 1 s
        Path file = dir.resolve("trace.jsonl");
        List<dev.fulcrum.demo.TrafficRequest> trace = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            trace.add(new dev.fulcrum.demo.TrafficRequest(i * 50_000L, i % 4 == 0 ? "POST" : "GET", "/", "k" + i));
        }
        TrafficRecorder.record(file, trace);
        select(robot, "workshopTrafficTab");
        fx.until(() ->
                !robot.lookup("#trafficReplayProxy").queryAs(Button.class).isDisabled());
        robot.interact(() -> {
            robot.lookup("#trafficReplayFile").queryAs(TextField.class).setText(file.toString());
            robot.lookup("#trafficReplaySpeed").queryAs(Spinner.class).getValueFactory().setValue(4.0);
        });

        // when it is replayed through the proxy at 4x
        robot.clickOn("#trafficReplayProxy");

        // then every request of it is sent and answered, with the recorded methods
        fx.until(() -> {
            TrafficSnapshot s = workshop.traffic().viewModel().snapshotProperty().get();
            return s != null && s.state() == TrafficSnapshot.State.DONE
                    && !workshop.traffic().viewModel().runningProperty().get();
        });
        TrafficSnapshot last = workshop.traffic().viewModel().snapshotProperty().get();
        assertThat(last.sent()).isEqualTo(20);
        assertThat(last.completed()).isEqualTo(20);
        assertThat(last.posts()).isEqualTo(5);
        assertThat(last.targetRate()).isCloseTo(19 / (0.95 / 4), org.assertj.core.data.Percentage.withPercentage(1));
    }

    @Test
    void aRecordingReplaysLiveWithAProgressBarASummaryAndCancel(FxRobot robot) throws Exception {
        // given a HAR of 20 requests 50 ms apart, and one of 400 (20 s as recorded)
        Path shortOne = Files.writeString(dir.resolve("short.har"), dev.fulcrum.testkit.HarFiles.har(20, 50));
        Path longOne = Files.writeString(dir.resolve("long.har"), dev.fulcrum.testkit.HarFiles.har(400, 50));
        select(robot, "workshopTrafficTab");
        fx.until(() ->
                !robot.lookup("#trafficReplayRecording").queryAs(Button.class).isDisabled());

        // when the short one is replayed at 10x (what Replay a recording… does with the file chosen)
        robot.interact(() -> {
            robot.lookup("#trafficReplaySpeed").queryAs(Spinner.class).getValueFactory().setValue(10.0);
            workshop.traffic().replayRecording(shortOne);
        });

        // then it ends with the summary line and a full progress bar
        fx.until(Duration.ofSeconds(20), () -> robot.lookup("#trafficReplaySummary").queryAs(Label.class)
                .getText().startsWith("replay: 20 requests in "));
        assertThat(fx.text("#trafficReplaySummary")).endsWith(", 0 failed");
        assertThat(fx.onFx(() -> robot.lookup("#trafficReplayProgress").queryAs(javafx.scene.control.ProgressBar.class)
                .getProgress())).isEqualTo(1.0);
        assertThat(fx.onFx(() -> robot.lookup("#trafficReplayCancel").queryAs(Button.class).isDisabled())).isTrue();

        // when the long one is replayed at 1x and cancelled once under way
        robot.interact(() -> {
            robot.lookup("#trafficReplaySpeed").queryAs(Spinner.class).getValueFactory().setValue(1.0);
            workshop.traffic().replayRecording(longOne);
        });
        fx.until(Duration.ofSeconds(20), () -> robot.lookup("#trafficReplayProgress")
                .queryAs(javafx.scene.control.ProgressBar.class).getProgress() > 0);
        robot.clickOn("#trafficReplayCancel");

        // then it stops well short of its end and says so
        fx.until(Duration.ofSeconds(20), () -> robot.lookup("#trafficReplaySummary").queryAs(Label.class)
                .getText().startsWith("replay: cancelled after "));
        assertThat(fx.text("#trafficReplaySummary")).contains(" of 400 requests in ");
        assertThat(fx.onFx(() -> robot.lookup("#trafficReplayRecording").queryAs(Button.class).isDisabled())).isFalse();
    }

    @Test
    void aRecordingGivenOnTheCommandLineReplaysOnceTheProxyIsKnown(FxRobot robot) throws Exception {
        // given a recording read through as --replay FILE reads it
        Path har = Files.writeString(dir.resolve("start.har"), dev.fulcrum.testkit.HarFiles.har(12, 20));
        dev.fulcrum.replay.ReplayFiles.Checked checked = dev.fulcrum.replay.ReplayFiles.check(har, null, null);
        select(robot, "workshopTrafficTab");

        // when the window is told to replay it at 5x (FulcrumWindow does so after --replay)
        robot.interact(() -> session.traffic().replayWhenReady(checked, 5));

        // then it is sent through the proxy and the tab shows its summary
        fx.until(Duration.ofSeconds(20), () -> robot.lookup("#trafficReplaySummary").queryAs(Label.class)
                .getText().startsWith("replay: 12 requests in "));
        assertThat(session.traffic().replayProgressProperty().get().answered()).isEqualTo(12);
    }
}
