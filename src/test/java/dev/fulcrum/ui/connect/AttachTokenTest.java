package dev.fulcrum.ui.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.admin.HttpEngineClient;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.testkit.RunningFulcrum;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javafx.scene.control.Dialog;
import javafx.scene.control.PasswordField;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** Attaching with a missing or wrong token: a message that says how to pass one, a prompt to retry, the env var. */
@ExtendWith(ApplicationExtension.class)
class AttachTokenTest {
    @Start
    void start(Stage stage) {
    }

    @Test
    void aMissingTokenIsAskedForAndTheAttachRetriesWithIt() {
        try (RunningFulcrum f = RunningFulcrum.demoApp("s3cret", RunningFulcrum.QUIET)) {
            List<String> asked = new ArrayList<>();
            EngineConnector.Connection c = EngineConnector.attach(f.adminUrl(), null, problem -> {
                asked.add(problem);
                return asked.size() == 1 ? "wrong" : "s3cret";
            });
            try {
                assertThat(c.client().state().backends()).isNotEmpty();
            } finally {
                c.close();
            }
            assertThat(asked).hasSize(2);
            assertThat(asked.get(0)).contains("needs an admin token").contains("--token").contains("FULCRUM_TOKEN");
            assertThat(asked.get(1)).contains("refused the admin token").contains("--token").contains("FULCRUM_TOKEN");
        }
    }

    @Test
    void givingUpSaysHowToPassAToken() {
        try (RunningFulcrum f = RunningFulcrum.demoApp("s3cret", RunningFulcrum.QUIET)) {
            assertThatThrownBy(() -> EngineConnector.attach(f.adminUrl(), "wrong", problem -> null))
                    .isInstanceOf(EngineException.class).hasMessageContaining("Bearer")
                    .hasMessageContaining("--token").hasMessageContaining("FULCRUM_TOKEN");
        }
    }

    @Test
    void theTokenComesFromTheEnvironmentWhenNotOnTheCommandLine() {
        Map<String, String> env = Map.of("FULCRUM_TOKEN", "from-env");
        assertThat(HttpEngineClient.token(null, env::get)).isEqualTo("from-env");
        assertThat(HttpEngineClient.token("flag", env::get)).isEqualTo("flag");
        assertThat(HttpEngineClient.token(null, name -> null)).isNull();
    }

    @Test
    void theDialogRetriesWithTheTypedTokenOrQuits(FxRobot robot) {
        robot.interact(() -> {
            Dialog<String> d = TokenDialog.dialog("the engine at http://x needs an admin token: pass it with --token");
            PasswordField field = (PasswordField) d.getDialogPane().lookup("#tokenField");
            assertThat(d.getDialogPane().lookupButton(TokenDialog.RETRY).isDisabled()).isTrue();
            field.setText("s3cret");
            assertThat(d.getDialogPane().lookupButton(TokenDialog.RETRY).isDisabled()).isFalse();
            assertThat(d.getResultConverter().call(TokenDialog.RETRY)).isEqualTo("s3cret");
            assertThat(d.getResultConverter().call(TokenDialog.QUIT)).isNull();
        });
    }
}
