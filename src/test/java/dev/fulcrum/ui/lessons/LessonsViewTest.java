package dev.fulcrum.ui.lessons;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.app.FulcrumApp;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.lesson.LessonPlayer;
import dev.fulcrum.lesson.Lessons;
import dev.fulcrum.ui.MainWindow;
import dev.fulcrum.ui.WindowHarness;
import java.time.Duration;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TabPane;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.VBox;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * The Lessons tab in the real window on a real embedded engine: the list, Play, the narration panel beside the views,
 * Next by the space bar, Back, the view each step names with its backend marked, the checks ticking, Stop.
 */
@Timeout(90)
class LessonsViewTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private FulcrumApp app;
    private MainWindow window;

    @BeforeEach
    void open() {
        app = FulcrumApp.start(dev.fulcrum.testkit.RunningFulcrum.demoConfig(StrategySpec.of(StrategySpec.CONSISTENT_HASH), BreakerConfig.DEFAULT,
                List.of(demo("demo-a", 5, 0, 0), demo("demo-b", 3, 0, 0), demo("demo-c", 1, 0, 0))), null);
        window = fx.open(app);
    }

    private LessonPlayer.View view() {
        LessonPlayer p = window.lessons().controller().player();
        return p == null ? null : p.view();
    }

    private void awaitStepDone(int step) {
        // a step runs real requests, or the side-by-side simulator, on two cores the whole suite shares
        fx.until(Duration.ofSeconds(90), () -> {
            LessonPlayer.View v = view();
            return v != null && v.shown() == step && !v.playing() && v.report() != null && v.report().finished();
        });
    }

    /**
     * The space bar as the window's scene gets it, aimed at its focus owner: the robot's key press goes to whichever
     * window has the keyboard, and under load a notification popup of the window may have it for a moment.
     */
    private void pressSpace(FxRobot robot) {
        robot.interact(() -> {
            Node focus = window.scene().getFocusOwner();
            javafx.event.Event.fireEvent(focus != null ? focus : window.scene().getRoot(), new javafx.scene.input.KeyEvent(
                    javafx.scene.input.KeyEvent.KEY_PRESSED, " ", " ", KeyCode.SPACE, false, false, false, false));
        });
    }

    private String selectedTab(FxRobot robot) {
        return fx.onFx(() -> robot.lookup("#tabs").queryAs(TabPane.class).getSelectionModel().getSelectedItem()
                .getText());
    }

    @Test
    void aLessonPlaysBesideTheViewsStepByStep(FxRobot robot) {
        // given the Lessons tab with the shipped lessons
        robot.interact(() -> window.controller().select("Lessons"));
        ListView<?> list = fx.lookup("#lessonList", ListView.class);
        assertThat(fx.onFx(() -> List.copyOf(list.getItems()))).hasSize(Lessons.SHIPPED.size());
        assertThat(fx.onFx(() -> robot.lookup("#lesson-round-robin-and-smooth-wrr").tryQuery())).isPresent();

        // when the first is played
        robot.interact(() -> list.getSelectionModel().select(0));
        robot.clickOn("#playLesson");

        // then the panel is beside the tabs, step 1 ran on this engine and its check ticked green
        awaitStepDone(0);
        BorderPane root = fx.onFx(() -> (BorderPane) window.scene().getRoot());
        assertThat(fx.onFx(root::getRight)).isNotNull().extracting(Node::getId).isEqualTo("lessonPanel");
        fx.untilAsserted(Duration.ofSeconds(5), () -> {
            assertThat(robot.lookup("#lessonStep").queryAs(Label.class).getText()).isEqualTo("Step 1 of 4");
            assertThat(robot.lookup("#lessonCheck-0").queryAs(Node.class).lookup(".lesson-ok")).isNotNull();
        });
        assertThat(view().report().checks()).singleElement().extracting(c -> c.text())
                .isEqualTo("sequence demo-a demo-b demo-c demo-a demo-b demo-c demo-a");
        assertThat(selectedTab(robot)).isEqualTo("Backends");
        fx.untilAsserted(Duration.ofSeconds(5), () -> assertThat(
                window.lessons().controller().marked()).isNotNull().extracting(Node::getId).isEqualTo("row-demo-a"));

        // when the space bar is pressed twice: step 2 (the simulator), then step 3 (smooth WRR on the engine)
        pressSpace(robot);
        awaitStepDone(1);
        pressSpace(robot);
        awaitStepDone(2);
        assertThat(view().report().ok()).isTrue();
        fx.untilAsserted(Duration.ofSeconds(5), () -> assertThat(selectedTab(robot)).isEqualTo("Strategy"));

        // when Back: step 2 again, as it came out, not played again
        robot.clickOn("#lessonBack");
        fx.untilAsserted(Duration.ofSeconds(5), () -> assertThat(
                robot.lookup("#lessonStep").queryAs(Label.class).getText()).isEqualTo("Step 2 of 4"));
        assertThat(fx.onFx(() -> List.copyOf(robot.lookup("#lessonChecks").queryAs(VBox.class).getChildren())))
                .hasSize(2);

        // when Stop: the panel goes, the engine gets back the config it ran before the lesson
        robot.clickOn("#lessonStop");
        fx.until(Duration.ofSeconds(5), () -> root.getRight() == null);
        assertThat(window.lessons().controller().player()).isNull();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                app.engine().pool("default").snapshot().spec().type()).isEqualTo(StrategySpec.CONSISTENT_HASH));
    }

    private void press(FxRobot robot, Node target, KeyCode code, String typed) {
        robot.interact(() -> {
            javafx.event.Event.fireEvent(target, new javafx.scene.input.KeyEvent(
                    javafx.scene.input.KeyEvent.KEY_PRESSED, "", "", code, false, false, false, false));
            if (typed != null) {
                javafx.event.Event.fireEvent(target, new javafx.scene.input.KeyEvent(javafx.scene.input.KeyEvent.KEY_TYPED,
                        typed, "", KeyCode.UNDEFINED, false, false, false, false));
            }
        });
    }

    @Test
    void theKeysAdvanceWhateverHasTheFocusAndStopGivesTheEngineItsConfigBack(FxRobot robot,
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        // a lesson that fails demo-b, shows the Ring, and waits in its first step for answers that never come
        java.nio.file.Path file = dir.resolve("keys.json");
        java.nio.file.Files.writeString(file, "{\"title\": \"Keys\", \"summary\": \"s\", \"config\": {\"strategy\":"
                + " {\"type\": \"round-robin\"}, \"demoBackends\": [{\"id\": \"demo-a\", \"port\": 0},"
                + " {\"id\": \"demo-b\", \"port\": 0, \"errorRate\": 1.0}, {\"id\": \"demo-c\", \"port\": 0}]},"
                + " \"steps\": [{\"say\": \"one\", \"show\": {\"view\": \"Ring\"}, \"waitFor\": {\"answers\": 1000,"
                + " \"timeoutMs\": 60000}}, {\"say\": \"two\", \"show\": {\"view\": \"Ring\"}},"
                + " {\"say\": \"three\", \"show\": {\"view\": \"Backends\"}}]}");
        dev.fulcrum.ui.SessionTraffic traffic = window.session().traffic();
        await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx((java.util.concurrent.Callable<Boolean>) traffic::ready));
        robot.interact(traffic::startGentle);
        assertThat(traffic.runningProperty().get()).as("the window's own traffic, before the lesson").isTrue();
        robot.interact(() -> {
            window.controller().select("Lessons");
            window.lessons().controller().open(file);
        });
        robot.clickOn("#playLesson");
        fx.until(Duration.ofSeconds(30), () -> view() != null && view().playing()
                && app.demos().get("demo-b").errorRate() == 1.0);
        fx.until(() -> !traffic.runningProperty().get());
        fx.untilAsserted(Duration.ofSeconds(5), () -> assertThat(selectedTab(robot)).isEqualTo("Ring"));
        robot.interact(() -> { });
        assertThat(fx.onFx(() -> window.scene().getFocusOwner())).as("the step leaves the focus on Next")
                .isNotInstanceOf(javafx.scene.control.TextInputControl.class);

        // when the presenter has clicked into the ring's key field and presses Space while step 1 still waits
        javafx.scene.control.TextField key = fx.lookup("#ringKey", javafx.scene.control.TextField.class);
        robot.interact(key::requestFocus);
        press(robot, key, KeyCode.SPACE, " ");

        // then step 1 ends its wait at once, judged, step 2 plays, and the field took no space
        awaitStepDone(1);
        assertThat(fx.onFx(() -> key.getText())).isEmpty();
        assertThat(window.lessons().controller().player().tally()[1]).as("step 1's wait, judged").isEqualTo(1);
        assertThat(fx.onFx(() -> window.scene().getFocusOwner()))
                .isNotInstanceOf(javafx.scene.control.TextInputControl.class);

        // Page Down (a clicker) advances, aimed at the field too; Page Up goes back, at what has the focus once step 3
        // shows Backends (the field left the window with the Ring)
        press(robot, key, KeyCode.PAGE_DOWN, null);
        awaitStepDone(2);
        press(robot, fx.onFx(() -> window.scene().getFocusOwner() != null ? window.scene().getFocusOwner()
                : window.scene().getRoot()), KeyCode.PAGE_UP, null);
        fx.until(Duration.ofSeconds(5), () -> view().shown() == 1);

        // Stop: the config and demo-b's faults as they were before the lesson
        robot.clickOn("#lessonStop");
        fx.untilAsserted(() -> {
            assertThat(app.engine().pool("default").snapshot().spec().type()).isEqualTo(StrategySpec.CONSISTENT_HASH);
            assertThat(app.demos().get("demo-b").errorRate()).isZero();
            assertThat(traffic.runningProperty().get()).as("the window's traffic, back after the lesson").isTrue();
        });
    }
}
