package dev.fulcrum.ui;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.time.ManualClock;
import dev.fulcrum.ui.backends.BackendsViewModel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Slider;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** The backends view against a real embedded engine: weight slider, Add dialog, drain, undo. */
@Timeout(60)
class BackendsViewTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    /** The window's clock: the sliders' live-send interval passes when a test moves it. */
    private final ManualClock clock = new ManualClock();
    private RunningFulcrum fulcrum;
    private MainWindow window;

    @BeforeEach
    void open() {
        fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.of(StrategySpec.ROUND_ROBIN), BreakerConfig.DEFAULT,
                List.of(demo("demo-a", 1, 1500, 0), demo("demo-b", 1, 1500, 0)))).start();
        window = fx.open(fulcrum, clock);
    }

    /** The live-send interval (and a little) passes on the window's clock, once the FX thread has had the moves. */
    private void sendIntervalPasses() {
        WaitForAsyncUtils.waitForFxEvents();
        clock.advanceMillis(BackendsViewModel.DRAG_SEND_INTERVAL_MS + 50);
    }

    /**
     * Beside a lesson's narration the table is narrower than its columns' minimum widths: the address, then the health
     * give way, and the weights and actions stay whole; without the narration every column is back.
     */
    @Test
    void besideTheNarrationTheAddressGivesWayAndTheWeightsStayWhole() {
        fx.waitFor("#weight-demo-a");
        TableView<?> table = (TableView<?>) fx.waitFor("#backendsTable");
        javafx.scene.layout.Region narration = new javafx.scene.layout.Region();
        narration.setMinWidth(420);
        narration.setPrefWidth(420);

        fx.onFx(() -> window.controller().showBeside(narration));
        fx.until(() -> table.getWidth() < 1280 - 400);

        assertThat(fx.onFx(() -> shown(table))).doesNotContain("Address", "Health")
                .contains("Id", "State", "Weight (effective)", "Actions");
        double[] fit = fx.onFx(() -> {
            table.layout();
            double right = 0;
            for (TableColumn<?, ?> c : table.getVisibleLeafColumns()) {
                right += c.getWidth();
                assertThat(c.getWidth()).as(c.getText()).isGreaterThanOrEqualTo(c.getMinWidth() - 0.5);
            }
            return new double[] {right, table.getWidth()};
        });
        assertThat(fit[0]).as("the shown columns' right edge within the table").isLessThanOrEqualTo(fit[1]);

        fx.onFx(() -> window.controller().showBeside(null));
        fx.until(() -> table.getWidth() > 1200);
        assertThat(fx.onFx(() -> shown(table))).contains("Address", "Health", "Weight (effective)", "Actions");

        // present mode's own choice (no address, no row buttons) holds whatever the room: the room is the room's
        fx.onFx(() -> window.present().toggle());
        fx.until(() -> !shown(table).contains("Address"));
        assertThat(fx.onFx(() -> shown(table))).doesNotContain("Actions").contains("Health", "Weight (effective)");
        fx.onFx(() -> window.present().toggle());
        fx.until(() -> shown(table).contains("Address"));
        assertThat(fx.onFx(() -> shown(table))).contains("Actions");
    }

    private static List<String> shown(TableView<?> table) {
        return table.getVisibleLeafColumns().stream().map(TableColumn::getText).toList();
    }

    @Test
    void draggingAWeightSliderChangesTheEnginesWeight(FxRobot robot) {
        // given demo-a at weight 1 on a 0-20 slider
        Slider slider = (Slider) fx.waitFor("#weight-demo-a");
        assertThat(fx.onFx(() -> slider.getValue())).isEqualTo(1.0);
        Node thumb = fx.onFx(() -> slider.lookup(".thumb"));

        // when the thumb is dragged to the right and released
        robot.drag(thumb, MouseButton.PRIMARY).moveBy(40, 0).moveBy(40, 0).release(MouseButton.PRIMARY);
        WaitForAsyncUtils.waitForFxEvents();

        // then the engine has the slider's weight, and undo can restore 1
        int shown = (int) Math.round(fx.onFx(() -> slider.getValue()));
        assertThat(shown).isGreaterThan(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("demo-a").weight() == shown);
        fx.until(Duration.ofSeconds(5), () -> window.session().undo().lastProperty().get() != null);
        robot.press(KeyCode.CONTROL, KeyCode.Z).release(KeyCode.Z, KeyCode.CONTROL);
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("demo-a").weight() == 1);
    }

    @Test
    void aSliderDragSendsNoWeightTheBackendAlreadyHas(FxRobot robot) {
        // given demo-a at weight 1, and the engine's weight events (what the Events tab lists) counted
        List<String> noOps = new CopyOnWriteArrayList<>();
        List<String> weights = new CopyOnWriteArrayList<>();
        fulcrum.engine().subscribe(e -> {
            if ("weight".equals(e.type()) && "demo-a".equals(e.backend())) {
                weights.add(e.from() + "->" + e.to());
                if (e.from().equals(e.to())) {
                    noOps.add(e.from() + "->" + e.to());
                }
            }
        });
        Slider slider = (Slider) fx.waitFor("#weight-demo-a");
        Node thumb = fx.onFx(() -> slider.lookup(".thumb"));

        // when the thumb is nudged (less than a step), dragged in steps each held past the live-send interval,
        // nudged once more so its last weight goes out live, and released there
        robot.drag(thumb, MouseButton.PRIMARY);
        robot.moveBy(2, 0);
        sendIntervalPasses();
        for (int i = 0; i < 6; i++) {
            robot.moveBy(10, 0);
            sendIntervalPasses();
        }
        robot.moveBy(1, 0);
        sendIntervalPasses();
        robot.release(MouseButton.PRIMARY);
        WaitForAsyncUtils.waitForFxEvents();

        // then the engine ends on the slider's weight, having seen every change once and no no-op
        int shown = (int) Math.round(fx.onFx(() -> slider.getValue()));
        assertThat(shown).isGreaterThan(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("demo-a").weight() == shown);
        fx.until(Duration.ofSeconds(5), () -> window.session().undo().lastProperty().get() != null);
        assertThat(weights).isNotEmpty();
        assertThat(noOps).isEmpty();
    }

    @Test
    void anInvalidAddShowsWhatIsWrongAndAddsNothing(FxRobot robot) {
        // given the Add dialog, opened with its shortcut
        fx.waitFor("#weight-demo-a");
        robot.press(KeyCode.CONTROL, KeyCode.N).release(KeyCode.N, KeyCode.CONTROL);
        fx.waitFor("#addId");

        // when the id is taken, the URL has no port and the weight is out of range
        replace(robot, "#addId", "demo-a");
        replace(robot, "#addUrl", "http://localhost");
        replace(robot, "#addWeight", "5000");
        WaitForAsyncUtils.waitForFxEvents();

        // then every problem is named, Add is disabled, and nothing reached the engine
        String problems = fx.text("#addProblems");
        assertThat(problems).contains("id: already exists (got: demo-a)")
                .contains("weight: must be between 0 and 1000 (got: 5000)").contains("url:");
        assertThat(fx.onFx(() -> robot.lookup("#addConfirm").queryAs(Button.class).isDisabled())).isTrue();
        assertThat(fulcrum.engine().backends()).hasSize(2);

        // and once fixed, Add adds exactly that backend
        replace(robot, "#addId", "extra-1");
        replace(robot, "#addUrl", "http://127.0.0.1:9");
        replace(robot, "#addWeight", "3");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx.text("#addProblems")).isEmpty();
        robot.clickOn("#addConfirm");
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("extra-1") != null);
        assertThat(fulcrum.backend("extra-1").weight()).isEqualTo(3);
    }

    @Test
    void drainGoesFromDrainingToDrainedAsInFlightRequestsFinish(FxRobot robot) {
        // given requests in flight on demo-a (1.5 s latency)
        fx.waitFor("#drain-demo-a");
        AtomicInteger started = new AtomicInteger();
        List<CompletableFuture<?>> inFlight = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++) {
            inFlight.add(fulcrum.getAsync("/slow/" + i));
            started.incrementAndGet();
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("demo-a").activeRequests() > 0);

        // when drain is clicked
        robot.clickOn("#drain-demo-a");

        // then the row says DRAINING with a progress bar, and later DRAINED with the bar full
        fx.until(Duration.ofSeconds(5), () -> "DRAINING".equals(stateText(robot)));
        assertThat(fx.onFx(() -> robot.lookup("#drainProgress-demo-a").queryAs(ProgressBar.class).isVisible()))
                .isTrue();
        fx.until(() -> "DRAINED".equals(stateText(robot)));
        assertThat(fx.onFx(() -> robot.lookup("#drainProgress-demo-a").queryAs(ProgressBar.class).getProgress()))
                .isEqualTo(1.0);
        // the row's buttons keep their whole labels beside the bar (they read "Dr…", "Ena…", "Rem…")
        // and a drained backend offers Enable in the place of Drain
        assertThat(fx.onFx(() -> robot.lookup("#drain-demo-a").queryAs(Button.class).isVisible())).isFalse();
        for (String b : List.of("#enable-demo-a", "#remove-demo-a")) {
            double[] width = fx.onFx(() -> {
                Button button = robot.lookup(b).queryAs(Button.class);
                return new double[] {button.getWidth(), button.prefWidth(-1)};
            });
            assertThat(width[0]).as(b).isGreaterThanOrEqualTo(width[1] - 0.5);
        }
        assertThat(fulcrum.backend("demo-a").state().name()).isEqualTo("DRAINED");
        CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).join();
    }

    /** Types {@code text} over whatever the field holds, as a user would (select all, type). */
    private static void replace(FxRobot robot, String query, String text) {
        robot.clickOn(query).press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL).write(text);
    }

    private String stateText(FxRobot robot) {
        return window.controller().backends().viewModel().rows().stream().filter(r -> r.id().equals("demo-a"))
                .findFirst().map(r -> r.info().state()).orElse(null);
    }
}
