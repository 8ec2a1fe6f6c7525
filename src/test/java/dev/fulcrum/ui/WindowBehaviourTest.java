package dev.fulcrum.ui;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.app.FulcrumApp;
import dev.fulcrum.config.BackendConfig;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.HealthCheckConfig;
import dev.fulcrum.config.OutlierConfig;
import dev.fulcrum.config.RetryConfig;
import dev.fulcrum.engine.BackendState;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.Slider;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** What the window does must be what it says: Apply, undo, the strategy form, sliders, reopening on another engine. */
@Timeout(90)
class WindowBehaviourTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private RunningFulcrum fulcrum;
    private MainWindow window;

    private static FulcrumConfig config(StrategySpec strategy, List<BackendConfig> backends) {
        FulcrumConfig c = FulcrumConfig.of(strategy, backends,
                List.of(demo("demo-a", 1, 0, 0), demo("demo-b", 1, 0, 0), demo("demo-c", 1, 0, 0)))
                .withProxyPort(0).withAdminPort(0);
        return new FulcrumConfig(c.proxy(), c.admin(), c.strategy(), c.backends(), c.demoBackends(),
                new HealthCheckConfig(false, "/health", 2000, 1000, 200, 2, 3),
                new OutlierConfig(false, 5, 30_000, 50), BreakerConfig.DEFAULT, new RetryConfig(0, false), c.timeouts(),
                c.slowStartMs(), c.stickySession(), c.pools(), c.routes());
    }

    private void open(FxRobot robot, FulcrumConfig cfg) {
        fulcrum = RunningFulcrum.wholeApp(cfg).start();
        window = fx.open(fulcrum);
        // every backend's row, not only the first: a sample can list a backend before another is up
        for (var b : cfg.demoBackends()) {
            fx.waitFor("#weight-" + b.id());
        }
        for (var b : cfg.backends()) {
            fx.waitFor("#weight-" + b.id());
        }
    }

    /**
     * Waits until the engine has every command the window sent so far: the FX thread's pending events (the handlers
     * that send) run, then a task queued behind the commands on the session's worker, which runs them one at a time
     * in order.
     */
    private void commandsDone() {
        WaitForAsyncUtils.waitForFxEvents();
        CountDownLatch done = new CountDownLatch(1);
        window.session().run("test barrier", done::countDown);
        await().atMost(Duration.ofSeconds(10)).until(() -> done.getCount() == 0);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private void selectRow(FxRobot robot, String id) {
        robot.interact(() -> {
            @SuppressWarnings("unchecked")
            TableView<dev.fulcrum.ui.backends.BackendRow> t = robot.lookup("#backendsTable").queryAs(TableView.class);
            t.getSelectionModel().clearSelection();
            t.getItems().stream().filter(r -> r.id().equals(id)).findFirst().ifPresent(r -> t.getSelectionModel().select(r));
            t.requestFocus();
        });
    }

    // ------------------------------------------------------------------ ring what-if

    /** A consistent-hash ring in the Ring tab with a preview of "remove demo-a" shown; the preview's label. */
    private Label previewRemovingDemoA(FxRobot robot) {
        open(robot, config(StrategySpec.of(StrategySpec.CONSISTENT_HASH), List.of()));
        robot.interact(() -> window.controller().select("Ring"));
        @SuppressWarnings("unchecked")
        ComboBox<String> backendBox = (ComboBox<String>) fx.waitFor("#whatIfBackend");
        fx.until(Duration.ofSeconds(5), () -> backendBox.getItems().contains("demo-a"));
        robot.interact(() -> backendBox.setValue("demo-a"));
        robot.clickOn("#previewButton");
        Label preview = fx.lookup("#previewLabel", Label.class);
        fx.until(Duration.ofSeconds(5), () -> preview.getText().startsWith("Removing demo-a would move"));
        return preview;
    }

    @Test
    void ringApplyMakesThePreviewedChangeNotAnUnpreviewedOne(FxRobot robot) {
        // given a consistent-hash ring and a preview of "remove demo-a"
        Label preview = previewRemovingDemoA(robot);
        @SuppressWarnings("unchecked")
        ComboBox<String> backendBox = fx.lookup("#whatIfBackend", ComboBox.class);

        // when the operator picks demo-b in the box (no new preview) and clicks Apply, still enabled
        robot.interact(() -> backendBox.setValue("demo-b"));
        WaitForAsyncUtils.waitForFxEvents();
        boolean applyEnabled = !fx.onFx(() -> robot.lookup("#applyButton").queryAs(Button.class).isDisabled());
        String shownPreview = fx.onFx(preview::getText);
        robot.clickOn("#applyButton");

        // then the previewed backend (demo-a) is the one removed, or Apply refused the un-previewed change
        commandsDone();
        BackendState b = fulcrum.backend("demo-b") == null ? null : fulcrum.backend("demo-b").state();
        assertThat(b)
                .as("Apply was %s while the preview said \"%s\"; demo-b (never previewed) is now %s",
                        applyEnabled ? "enabled" : "disabled", shownPreview, b)
                .isEqualTo(BackendState.UP);
    }

    // ------------------------------------------------------------------ undo of remove

    @Test
    void aPreviewOfTheRingAsItWasGoesWhenTheRingChanges(FxRobot robot) {
        Label preview = previewRemovingDemoA(robot);
        // someone else takes demo-c off the ring: the figures were of the ring as it was
        new InProcessEngineClient(fulcrum.app()).setWeight("demo-c", 0);
        fx.until(Duration.ofSeconds(5), () -> preview.getText().isEmpty());
        assertThat(fx.onFx(() -> robot.lookup("#applyButton").queryAs(Button.class).isDisabled())).isTrue();
    }

    @Test
    void undoOfRemovingABackupBringsItBackAsABackup(FxRobot robot) {
        // given a backup backend beside three primaries
        open(robot, config(StrategySpec.of(StrategySpec.ROUND_ROBIN),
                List.of(new BackendConfig("spare", "http://127.0.0.1:9", 2, 10, true))));
        fx.waitFor("#weight-spare");
        assertThat(fulcrum.backend("spare").backup()).isTrue();

        // when it is removed with Del, gone, and the removal undone with Ctrl+Z
        selectRow(robot, "spare");
        robot.press(KeyCode.DELETE).release(KeyCode.DELETE);
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("spare") == null);
        robot.press(KeyCode.CONTROL, KeyCode.Z).release(KeyCode.Z, KeyCode.CONTROL);
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("spare") != null);

        // then it is what it was: a backup (used only when no primary can take the request), maxInFlight 10
        assertThat(fulcrum.backend("spare").backup()).as("backup after undo").isTrue();
        assertThat(fulcrum.backend("spare").maxInFlight()).as("maxInFlight after undo").isEqualTo(10);
    }

    @Test
    void undoOfRemovingADrainedBackendBringsItBackDrained(FxRobot robot) {
        // given demo-c drained by the operator
        open(robot, config(StrategySpec.of(StrategySpec.ROUND_ROBIN), List.of()));
        robot.clickOn("#drain-demo-c");
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("demo-c").state() == BackendState.DRAINED);

        // when it is removed (Del) and the removal undone (Ctrl+Z)
        selectRow(robot, "demo-c");
        robot.press(KeyCode.DELETE).release(KeyCode.DELETE);
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("demo-c") == null);
        robot.press(KeyCode.CONTROL, KeyCode.Z).release(KeyCode.Z, KeyCode.CONTROL);
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("demo-c") != null);
        commandsDone();

        // then it is back as it was before the removal: drained, taking no traffic
        assertThat(fulcrum.backend("demo-c").state()).as("state after undoing the remove").isEqualTo(BackendState.DRAINED);
    }

    // ------------------------------------------------------------------ strategy form

    @Test
    void strategyFormFollowsTheEngineWhenABalanceFactorIsDropped(FxRobot robot) {
        // given a bounded-load ring (balanceFactor 1.25) shown in the Strategy tab
        open(robot, config(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "path").with("virtualNodes", 160).with("balanceFactor", 1.25), List.of()));
        robot.interact(() -> window.controller().select("Strategy"));
        TextField factor = (TextField) fx.waitFor("#balanceFactorField");
        Label current = fx.lookup("#currentLabel", Label.class);
        fx.until(Duration.ofSeconds(5), () -> current.getText().contains("balanceFactor=1.25"));
        assertThat(fx.onFx(() -> factor.getText())).isEqualTo("1.25");

        // when someone else (admin API, another window) turns bounded loads off
        InProcessEngineClient other = new InProcessEngineClient(fulcrum.app());
        other.setStrategy("default", Map.of("type", "consistent-hash", "key", "path", "virtualNodes", 160));
        fx.until(Duration.ofSeconds(5), () -> !current.getText().contains("balanceFactor"));

        // and the operator changes only the virtual nodes and applies
        robot.interact(() -> robot.lookup("#virtualNodesField").queryAs(TextField.class).setText("200"));
        robot.clickOn("#applyStrategy");
        await().atMost(Duration.ofSeconds(5)).until(() -> String.valueOf(
                other.state().pools().get("default").strategy().get("virtualNodes")).equals("200"));

        // then the form showed no balance factor, and bounded loads stay off
        Object bf = other.state().pools().get("default").strategy().get("balanceFactor");
        assertThat(bf).as("balanceFactor after Apply (form field showed \"%s\" while the engine had none)",
                fx.onFx(() -> factor.getText())).isNull();
    }

    // ------------------------------------------------------------------ demo faults

    @Test
    void oneArrowKeyOnTheErrorRateSliderDoesNotJumpTo100Percent(FxRobot robot) {
        // given the Demo faults tab, demo-a at 0% errors
        open(robot, config(StrategySpec.of(StrategySpec.ROUND_ROBIN), List.of()));
        fx.until(Duration.ofSeconds(5), () ->
                window.controller().tabs().getTabs().stream().anyMatch(t -> "Demo faults".equals(t.getText())));
        robot.interact(() -> window.controller().select("Demo faults"));
        Slider errors = (Slider) fx.waitFor("#demoErrorRate-demo-a");
        InProcessEngineClient c = new InProcessEngineClient(fulcrum.app());

        // when the slider is focused and the right arrow pressed once
        robot.interact(errors::requestFocus);
        robot.press(KeyCode.RIGHT).release(KeyCode.RIGHT);
        commandsDone();
        // and the engine's answer has come back to the slider with a demo sample (once a second), and whatever the
        // slider sent on it has reached the engine too
        double sent = ((Number) c.demoState().get("demo-a").get("errorRate")).doubleValue();
        fx.until(Duration.ofSeconds(5), () -> {
            Map<String, Object> shown = window.session().demoStateProperty().get().get("demo-a");
            return shown != null && ((Number) shown.get("errorRate")).doubleValue() == sent;
        });
        commandsDone();

        // then the error rate moved a small step, not to every request failing
        Object rate = c.demoState().get("demo-a").get("errorRate");
        assertThat(((Number) rate).doubleValue()).as("demo-a errorRate after one arrow key").isLessThanOrEqualTo(0.1);
    }

    // ------------------------------------------------------------------ leak on reopen

    @Test
    void reopeningTheWindowOnAnotherEngineReleasesTheOldViews(FxRobot robot) throws Exception {
        // given the window on engine 1
        open(robot, config(StrategySpec.of(StrategySpec.CONSISTENT_HASH), List.of()));
        WeakReference<Object> oldController = new WeakReference<>(window.controller());
        WeakReference<Object> oldApp = new WeakReference<>(fulcrum.app());

        // when it is reopened on engine 2 on the same stage, as FulcrumWindow.openScenario does: the window closed
        // (on the FX thread), its session, engine 1
        fx.closeAll();
        window = null;
        fulcrum = fx.closeAfter(RunningFulcrum.wholeApp(config(StrategySpec.of(StrategySpec.ROUND_ROBIN), List.of()))
                .start());
        window = fx.show(new UiSession(new InProcessEngineClient(fulcrum.app()), "second engine"));
        fx.onFx(() -> window.controller().select("Backends"));
        fx.waitFor("#weight-demo-a");

        // then the first window's views (and through them engine 1) can be collected
        robot.moveTo("#weight-demo-b").moveBy(0, 40);
        robot.interact(() -> robot.lookup("#backendsTable").query().requestFocus());
        // (TestFX keeps the events it saw, which point at old nodes: forget them, they are not the window's)
        java.lang.reflect.Field fe = org.testfx.api.FxToolkitContext.class.getDeclaredField("firedEvents");
        fe.setAccessible(true);
        Object fired = fe.get(org.testfx.api.FxToolkit.toolkitContext());
        robot.interact(() -> ((org.testfx.service.support.FiredEvents) fired).clearEvents());
        // up to 30 collections, 100 ms apart, for the FX thread to let go of what it still holds
        int[] rounds = {0};
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
            WaitForAsyncUtils.waitForFxEvents();
            System.gc();
            return oldController.get() == null && oldApp.get() == null || ++rounds[0] >= 30;
        });
        assertThat(oldController.get()).as("old MainController still reachable").isNull();
        assertThat(oldApp.get()).as("old FulcrumApp (engine 1) still reachable").isNull();
    }

    // ---------------------------------------------------------------- what a trainer runs into

    @Test
    void aLookedUpKeyIsShownAgainWhenTheStrategyGoesBackToAHashingOne(FxRobot robot) {
        // given the Ring tab on a consistent-hash pool with /k1 looked up
        open(robot, config(StrategySpec.of(StrategySpec.CONSISTENT_HASH), List.of()));
        robot.interact(() -> window.controller().select("Ring"));
        TextField key = fx.lookup("#ringKey", TextField.class);
        Label result = fx.lookup("#lookupLabel", Label.class);
        robot.interact(() -> key.setText("/k1"));
        fx.until(Duration.ofSeconds(5), () -> result.getText().startsWith("hash "));
        InProcessEngineClient c = new InProcessEngineClient(fulcrum.app());

        // when the trainer switches to round robin and then to maglev to compare
        c.setStrategy("default", Map.of("type", "round-robin"));
        Label noRing = fx.lookup("#noRingLabel", Label.class);
        fx.until(Duration.ofSeconds(5), () -> noRing.getText() != null && noRing.getText().contains("round-robin"));
        c.setStrategy("default", Map.of("type", "maglev", "key", "path"));
        fx.until(Duration.ofSeconds(5), () -> noRing.getText() == null || noRing.getText().isEmpty()
                || !noRing.isVisible());

        // then the key's owner in the Maglev table is shown, not "…" until the key is retyped
        fx.untilAsserted(Duration.ofSeconds(5), () -> assertThat(result.getText())
                .as("lookup result for /k1 after switching back to a hashing strategy").startsWith("hash "));
    }

    @Test
    void backendsTableCutsNoFigureAt1024x700(FxRobot robot) {
        // given the Backends tab with traffic measured, in a 1024 x 700 window (a projector's resolution)
        open(robot, config(StrategySpec.of(StrategySpec.ROUND_ROBIN), List.of()));
        robot.interact(() -> {
            fx.stage().setWidth(1024);
            fx.stage().setHeight(700);
        });
        for (int i = 0; i < 30; i++) {
            fulcrum.status("/k/" + i);
        }
        // the rows show measured latencies (the widest figures) once a sample has them
        fx.until(() -> window.controller().backends().viewModel().rows().stream()
                .allMatch(r -> r.info().latencyP99Ms() > 0));
        WaitForAsyncUtils.waitForFxEvents();

        // then no cell of the table shows its text cut with an ellipsis (URL, p50 / p99, header "In flight")
        java.util.List<String> cut = new java.util.ArrayList<>();
        robot.interact(() -> {
            for (javafx.scene.Node n : robot.lookup("#backendsTable").query().lookupAll(".text")) {
                if (n instanceof javafx.scene.text.Text t && n.getParent() instanceof javafx.scene.control.Labeled l
                        && l.isVisible() && l.getText() != null && !l.getText().equals(t.getText())) {
                    cut.add(l.getText() + " -> " + t.getText());
                }
            }
        });
        assertThat(cut).as("texts cut in the Backends table at 1024 x 700").isEmpty();
    }

    @Test
    void theAddDialogOpensWithoutProblemsAndNamesThemOnceTyped(FxRobot robot) {
        // given the Backends tab
        open(robot, config(StrategySpec.of(StrategySpec.ROUND_ROBIN), List.of()));

        // when Ctrl+N opens the add dialog
        robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.N)
                .release(javafx.scene.input.KeyCode.N, javafx.scene.input.KeyCode.CONTROL);
        fx.until(Duration.ofSeconds(5), () -> robot.lookup("#addId").tryQuery().isPresent());
        WaitForAsyncUtils.waitForFxEvents();

        // then it does not open in red, but Add waits for an id
        assertThat(fx.text("#addProblems")).isEmpty();
        assertThat(fx.onFx(() -> robot.lookup("#addConfirm").queryAs(Button.class).isDisabled())).isTrue();

        // and a typed id that is taken is named at once
        robot.clickOn("#addId").write("demo-a");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx.text("#addProblems")).isEqualTo("id: already exists (got: demo-a)");
        robot.press(javafx.scene.input.KeyCode.ESCAPE).release(javafx.scene.input.KeyCode.ESCAPE);
    }

    @Test
    void choosingMaglevAfterRoundRobinOffersThePoolsLastKey(FxRobot robot) {
        // given a pool hashed by path, then switched to round robin
        open(robot, config(StrategySpec.of(StrategySpec.CONSISTENT_HASH), List.of()));
        InProcessEngineClient c = new InProcessEngineClient(fulcrum.app());
        c.setStrategy("default", Map.of("type", "consistent-hash", "key", "path"));
        robot.interact(() -> window.controller().select("Strategy"));
        @SuppressWarnings("unchecked")
        javafx.scene.control.ComboBox<String> key = fx.lookup("#keyField", javafx.scene.control.ComboBox.class);
        fx.until(Duration.ofSeconds(5), () -> "path".equals(key.getValue()));
        c.setStrategy("default", Map.of("type", "round-robin"));
        @SuppressWarnings("unchecked")
        javafx.scene.control.ComboBox<String> type = fx.lookup("#strategyType", javafx.scene.control.ComboBox.class);
        fx.until(Duration.ofSeconds(5), () -> "round-robin".equals(type.getValue()));

        // when the trainer chooses maglev
        robot.interact(() -> type.setValue(StrategySpec.MAGLEV));

        // then the key offered is still path (ip would send the generator's traffic, from one address, to one backend)
        // and no "Applied to pool default: {type=round-robin}" is left beside the new choice
        assertThat(fx.onFx(() -> key.getValue())).isEqualTo("path");
        assertThat(fx.text("#strategyResult")).isEmpty();
    }
}
