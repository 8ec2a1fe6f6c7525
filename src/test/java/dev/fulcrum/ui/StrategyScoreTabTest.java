package dev.fulcrum.ui;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import java.time.Duration;
import java.util.List;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.Region;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** The Strategy tab on a score pool: the formula is checked as it is typed, Enter applies it, scores show as bars. */
@Timeout(90)
class StrategyScoreTabTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    @Test
    void aFormulaIsCheckedWhileTypedAppliedOnEnterAndEachBackendsScoreIsABar(FxRobot robot) {
        // given a score pool over demo-a (weight 1) and demo-b (weight 3), scored 2 x weight
        RunningFulcrum fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(
                StrategySpec.bare(StrategySpec.SCORE).with("score", "2 * weight"), BreakerConfig.DEFAULT,
                List.of(demo("demo-a", 1, 0, 0), demo("demo-b", 3, 0, 0)))).start();
        MainWindow window = fx.open(fulcrum);
        fx.waitFor("#weight-demo-a");
        robot.interact(() -> window.controller().select("Strategy"));
        TextField formula = (TextField) fx.waitFor("#scoreField");
        fx.until(Duration.ofSeconds(5), () -> "2 * weight".equals(formula.getText()));

        // then each backend's score is a bar, the highest the longest
        Region a = (Region) fx.waitFor("#scoreBar-demo-a");
        Region b = (Region) fx.waitFor("#scoreBar-demo-b");
        fx.until(Duration.ofSeconds(5), () -> b.getPrefWidth() > 0);
        assertThat(fx.onFx(() -> a.getPrefWidth() / b.getPrefWidth()))
                .isCloseTo(1 / 3.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(fx.text("#scoreValue-demo-b")).isEqualTo("6.000");

        // when a formula naming an unknown variable is typed
        robot.interact(formula::clear);
        robot.clickOn(formula).write("1 - cpux");
        WaitForAsyncUtils.waitForFxEvents();

        // then the engine's own message shows at once, with the column, and nothing was applied
        Label problem = fx.lookup("#scoreProblem", Label.class);
        assertThat(fx.onFx(problem::getText))
                .isEqualTo("score: unknown variable 'cpux' at column 5 (got: \"1 - cpux\")");
        assertThat(fx.onFx(problem::isVisible)).isTrue();
        InProcessEngineClient client = new InProcessEngineClient(fulcrum.app());
        assertThat(client.state().pools().get("default").strategy().get("score")).isEqualTo("2 * weight");

        // when it is corrected and Enter pressed
        robot.interact(formula::clear);
        robot.clickOn(formula).write("10 * weight");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx.onFx(problem::isVisible)).isFalse();
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);

        // then the engine scores by it, and the bars follow
        await().atMost(Duration.ofSeconds(5)).until(() -> "10 * weight".equals(
                client.state().pools().get("default").strategy().get("score")));
        EngineState.BackendInfo demoB = client.state().backend("demo-b");
        assertThat(demoB.score()).isEqualTo(30.0);
        fx.until(Duration.ofSeconds(5), () -> "30.000".equals(
                robot.lookup("#scoreValue-demo-b").queryAs(Label.class).getText()));
        robot.interact(formula::clear);
        robot.clickOn(formula).write("norm(cpux, 0, 1)");
        WaitForAsyncUtils.waitForFxEvents();
        snapshot(robot, fx.onFx(formula::getScene), "strategy-score.png");
    }

    /** With {@code -Dscreenshot.dir=DIR}, the scene as a PNG for a person to look at; nothing otherwise. */
    private static void snapshot(FxRobot robot, javafx.scene.Scene scene, String name) {
        String dir = System.getProperty("screenshot.dir");
        if (dir == null) {
            return;
        }
        javafx.scene.image.WritableImage[] shot = new javafx.scene.image.WritableImage[1];
        robot.interact(() -> shot[0] = scene.snapshot(null));
        int w = (int) shot[0].getWidth();
        int h = (int) shot[0].getHeight();
        java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(w, h, java.awt.image.BufferedImage.TYPE_INT_ARGB);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                img.setRGB(x, y, shot[0].getPixelReader().getArgb(x, y));
            }
        }
        try {
            javax.imageio.ImageIO.write(img, "png", java.nio.file.Path.of(dir, name).toFile());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
