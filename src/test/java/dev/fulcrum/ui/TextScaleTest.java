package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.testkit.RunningFulcrum;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** Ctrl+plus, Ctrl+minus and Ctrl+0 size the window's text, remembered with the window. */
@Timeout(60)
class TextScaleTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private RunningFulcrum fulcrum;
    private MainWindow window;

    @Test
    void aStepIsTheStylesheetsSizeTimesItsFactor() {
        assertThat(TextScale.style(1.0, 0)).isEmpty();
        assertThat(TextScale.style(1.3, 0)).isEqualTo("-fx-font-size: 19.5px;");
        assertThat(TextScale.style(1.0, 20)).isEmpty();
        assertThat(TextScale.style(1.3, 20)).isEqualTo("-fx-font-size: 26.0px;");
        assertThat(TextScale.style(1.0, 17)).isEqualTo("-fx-font-size: 17.0px;");
        assertThat(TextScale.nearest(1.0)).isEqualTo(2);
        assertThat(TextScale.nearest(7)).isEqualTo(TextScale.STEPS.length - 1);
    }

    @Test
    void presentModesSizeFollowsTheWindowsWidthAsAProjectorEnlargesIt() {
        assertThat(TextScale.presentPx(1280)).isEqualTo(20);
        assertThat(TextScale.presentPx(1024)).isEqualTo(TextScale.PRESENT_MIN_PX).isEqualTo(17);
        assertThat(TextScale.presentPx(1366)).isEqualTo(21);
        assertThat(TextScale.presentPx(1920)).isEqualTo(30);
        assertThat(TextScale.presentPx(0)).isEqualTo(20);
    }

    @Test
    void theShortcutsScaleTheTextAndTheWindowRemembersIt(FxRobot robot) {
        fulcrum = RunningFulcrum.demoApp();
        window = fx.open(fulcrum);
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.Parent root = fx.onFx(() -> window.scene().getRoot());
        double normal = fx.onFx(() -> robot.lookup("#engineLabel").queryLabeled().getFont().getSize());
        assertThat(normal).isEqualTo(TextScale.NORMAL_PX);

        robot.press(KeyCode.CONTROL, KeyCode.EQUALS).release(KeyCode.EQUALS, KeyCode.CONTROL);
        robot.press(KeyCode.CONTROL, KeyCode.EQUALS).release(KeyCode.EQUALS, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(window.textScale().factor()).isEqualTo(1.3);
        assertThat(fx.onFx(root::getStyle)).isEqualTo("-fx-font-size: 19.5px;");
        robot.interact(() -> root.applyCss());
        assertThat(fx.onFx(() -> robot.lookup("#engineLabel").queryLabeled().getFont().getSize())).isEqualTo(19.5);
        assertThat(new WindowPrefs(java.util.prefs.Preferences.userRoot().node("dev/fulcrum/test-window")).textScale())
                .isEqualTo(1.3);

        robot.press(KeyCode.CONTROL, KeyCode.MINUS).release(KeyCode.MINUS, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(window.textScale().factor()).isEqualTo(1.15);

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT0).release(KeyCode.DIGIT0, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(window.textScale().factor()).isEqualTo(1.0);
        assertThat(fx.onFx(root::getStyle)).isEmpty();
    }
}
