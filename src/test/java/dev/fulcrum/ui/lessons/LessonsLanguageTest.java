package dev.fulcrum.ui.lessons;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.app.FulcrumApp;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.lesson.LessonPlayer;
import dev.fulcrum.lesson.Lessons;
import dev.fulcrum.ui.CutText;
import dev.fulcrum.ui.MainWindow;
import dev.fulcrum.ui.WindowHarness;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * The Lessons tab and the narration panel in Chinese and in Polish, in the real window at 1280x800 on a real engine:
 * the list shows the lessons' own titles in the window's language, a played step its narration and its check lines
 * in that language, and nothing in the tab or the panel is cut.
 */
@Timeout(120)
class LessonsLanguageTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    /** What the window should show in one language. */
    record Expected(Locale language, String tab, String play, String title, String say, String position,
                    String check) {
    }

    @Test
    void aLessonPlaysInChinese(FxRobot robot) {
        played(robot, new Expected(Locale.SIMPLIFIED_CHINESE, "课程", "开始", "熔断器的一生",
                "demo-b 对所有请求都返回 500。", "第 1 步，共 5 步", "demo-b 的熔断器："));
    }

    @Test
    void aLessonPlaysInPolish(FxRobot robot) {
        played(robot, new Expected(Locale.forLanguageTag("pl"), "Lekcje", "Uruchom", "Życie wyłącznika obwodu",
                "demo-b na wszystko odpowiada 500.", "Krok 1 z 5", "wyłącznik demo-b: "));
    }

    private void played(FxRobot robot, Expected want) {
        Texts.use(want.language());
        try {
            MainWindow window = open();
            robot.interact(() -> window.controller().select("Lessons"));
            Tab tab = fx.onFx(() -> robot.lookup("#tabs").queryAs(TabPane.class).getSelectionModel().getSelectedItem());
            assertThat(fx.onFx(tab::getText)).isEqualTo(want.tab());
            assertThat(fx.text("#playLesson")).isEqualTo(want.play());

            // the circuit breaker's lesson, its title in the list in the window's language
            ListView<?> list = fx.lookup("#lessonList", ListView.class);
            int at = Lessons.SHIPPED.indexOf("circuit-breaker");
            robot.interact(() -> {
                list.getSelectionModel().select(at);
                list.scrollTo(at);
            });
            VBox entry = (VBox) fx.waitFor("#lesson-circuit-breaker");
            assertThat(fx.onFx(() -> ((Label) entry.getChildren().get(0)).getText())).isEqualTo(want.title());
            assertThat(cut(fx.onFx(() -> (Parent) tab.getContent()), "Lessons tab")).isEmpty();

            // played: the narration and the step's check lines in the window's language
            robot.clickOn("#playLesson");
            fx.until(Duration.ofSeconds(90), () -> {
                LessonPlayer p = window.lessons().controller().player();
                LessonPlayer.View v = p == null ? null : p.view();
                return v != null && v.shown() == 0 && v.report() != null && v.report().finished();
            });
            fx.untilAsserted(Duration.ofSeconds(5), () -> {
                assertThat(robot.lookup("#lessonTitle").queryAs(Label.class).getText()).isEqualTo(want.title());
                assertThat(robot.lookup("#lessonStep").queryAs(Label.class).getText()).isEqualTo(want.position());
                assertThat(robot.lookup("#lessonSay").queryAs(Label.class).getText()).startsWith(want.say());
                HBox row = robot.lookup("#lessonCheck-0").queryAs(HBox.class);
                assertThat(((Label) row.getChildren().get(1)).getText()).startsWith(want.check());
            });
            Parent panel = fx.lookup("#lessonPanel", Parent.class);
            assertThat(cut(panel, "narration panel")).isEmpty();
            robot.clickOn("#lessonStop");
        } finally {
            Texts.use(Locale.ENGLISH);
        }
    }

    private MainWindow open() {
        FulcrumApp app = FulcrumApp.start(dev.fulcrum.testkit.RunningFulcrum.demoConfig(
                StrategySpec.of(StrategySpec.CONSISTENT_HASH), BreakerConfig.DEFAULT,
                List.of(demo("demo-a", 1, 0, 0), demo("demo-b", 1, 0, 0))), null);
        return fx.open(app);
    }

    private List<String> cut(Parent root, String where) {
        return fx.onFx(() -> {
            root.applyCss();
            root.layout();
            return CutText.cut(root, where);
        });
    }
}
