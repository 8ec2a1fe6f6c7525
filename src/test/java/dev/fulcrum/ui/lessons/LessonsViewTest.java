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
        await().atMost(Duration.ofSeconds(90)).until(() -> {
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
        return robot.lookup("#tabs").queryAs(TabPane.class).getSelectionModel().getSelectedItem().getText();
    }

    @Test
    void aLessonPlaysBesideTheViewsStepByStep(FxRobot robot) {
        // given the Lessons tab with the shipped lessons
        robot.interact(() -> window.controller().select("Lessons"));
        ListView<?> list = robot.lookup("#lessonList").queryAs(ListView.class);
        assertThat(list.getItems()).hasSize(Lessons.SHIPPED.size());
        assertThat(robot.lookup("#lesson-round-robin-and-smooth-wrr").tryQuery()).isPresent();

        // when the first is played
        robot.interact(() -> list.getSelectionModel().select(0));
        robot.clickOn("#playLesson");

        // then the panel is beside the tabs, step 1 ran on this engine and its check ticked green
        awaitStepDone(0);
        BorderPane root = (BorderPane) window.scene().getRoot();
        assertThat(root.getRight()).isNotNull().extracting(Node::getId).isEqualTo("lessonPanel");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(robot.lookup("#lessonStep").queryAs(Label.class).getText()).isEqualTo("Step 1 of 4");
            assertThat(robot.lookup("#lessonCheck-0").queryAs(Node.class).lookup(".lesson-ok")).isNotNull();
        });
        assertThat(view().report().checks()).singleElement().extracting(c -> c.text())
                .isEqualTo("sequence demo-a demo-b demo-c demo-a demo-b demo-c demo-a");
        assertThat(selectedTab(robot)).isEqualTo("Backends");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
                window.lessons().controller().marked()).isNotNull().extracting(Node::getId).isEqualTo("row-demo-a"));

        // when the space bar is pressed twice: step 2 (the simulator), then step 3 (smooth WRR on the engine)
        pressSpace(robot);
        awaitStepDone(1);
        pressSpace(robot);
        awaitStepDone(2);
        assertThat(view().report().ok()).isTrue();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(selectedTab(robot)).isEqualTo("Strategy"));

        // when Back: step 2 again, as it came out, not played again
        robot.clickOn("#lessonBack");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
                robot.lookup("#lessonStep").queryAs(Label.class).getText()).isEqualTo("Step 2 of 4"));
        assertThat(robot.lookup("#lessonChecks").queryAs(VBox.class).getChildren()).hasSize(2);

        // when Stop: the panel goes, the engine keeps the lesson's config
        robot.clickOn("#lessonStop");
        await().atMost(Duration.ofSeconds(5)).until(() -> root.getRight() == null);
        assertThat(window.lessons().controller().player()).isNull();
        assertThat(app.engine().pool("default").snapshot().spec().type()).isEqualTo("smooth-weighted-round-robin");
    }
}
