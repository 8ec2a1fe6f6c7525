package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.prefs.Preferences;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** The window remembers its size and theme between runs. */
@ExtendWith(ApplicationExtension.class)
class WindowPrefsTest {
    @Start
    void start(Stage primary) {
        // a stage of its own below: the primary stage is shared with other tests and must not write to this node
    }

    @Test
    void aResizedWindowOpensAtThatSizeNextTime(FxRobot robot) throws Exception {
        Preferences node = Preferences.userRoot().node("dev/fulcrum/test-prefs");
        node.clear();
        WindowPrefs prefs = new WindowPrefs(node);
        assertThat(prefs.width()).isEqualTo(WindowPrefs.DEFAULT_WIDTH);

        // when the window is resized and the theme switched
        robot.interact(() -> {
            Stage stage = new Stage();
            prefs.attach(stage);
            stage.setWidth(1111);
            stage.setHeight(777);
            stage.close();
        });
        prefs.setDark(true);

        // then a new run reads them back
        WindowPrefs next = new WindowPrefs(Preferences.userRoot().node("dev/fulcrum/test-prefs"));
        assertThat(next.width()).isEqualTo(1111);
        assertThat(next.height()).isEqualTo(777);
        assertThat(next.dark()).isTrue();
        node.clear();
    }
}
