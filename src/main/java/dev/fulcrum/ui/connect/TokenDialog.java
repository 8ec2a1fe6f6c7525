package dev.fulcrum.ui.connect;

import dev.fulcrum.i18n.Texts;
import java.util.concurrent.CompletableFuture;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

/**
 * Asks for the admin token when an engine refuses the one the window attached with: the reason (which names
 * {@code --token} and {@code FULCRUM_TOKEN}), a password field, Retry and Quit. The connecting thread waits for the
 * answer ({@link #asking}); the dialog itself is shown on the FX thread.
 */
public final class TokenDialog {
    static final ButtonType RETRY = new ButtonType("Retry", ButtonBar.ButtonData.OK_DONE);
    static final ButtonType QUIT = new ButtonType("Quit", ButtonBar.ButtonData.CANCEL_CLOSE);

    private TokenDialog() {
    }

    /** A prompt for {@link EngineConnector#attach(String, String, EngineConnector.TokenPrompt)} off the FX thread. */
    public static EngineConnector.TokenPrompt asking(Window owner) {
        return problem -> {
            CompletableFuture<String> answer = new CompletableFuture<>();
            Platform.runLater(() -> {
                try {
                    Dialog<String> d = dialog(problem);
                    if (owner != null && owner.isShowing()) {
                        d.initOwner(owner);
                    }
                    answer.complete(d.showAndWait().orElse(null));
                } catch (RuntimeException e) {
                    answer.completeExceptionally(e);
                }
            });
            return answer.join();
        };
    }

    /** The dialog: its result is the token typed when Retry is pressed with one, else null. */
    static Dialog<String> dialog(String problem) {
        Dialog<String> d = new Dialog<>();
        d.setTitle(Texts.t("connect.token.title"));
        d.setHeaderText(Texts.t("connect.token.header"));
        Label why = new Label(problem);
        why.setWrapText(true);
        why.setMaxWidth(460);
        PasswordField token = new PasswordField();
        token.setId("tokenField");
        token.setPromptText(Texts.t("connect.token.prompt"));
        VBox box = new VBox(10, why, token);
        box.setPadding(new Insets(10));
        d.getDialogPane().setContent(box);
        d.getDialogPane().getButtonTypes().setAll(RETRY, QUIT);
        // the button types are constants (the result converter tells them apart); their buttons get the window's
        // language
        ((javafx.scene.control.Button) d.getDialogPane().lookupButton(RETRY)).setText(Texts.t("connect.token.retry"));
        ((javafx.scene.control.Button) d.getDialogPane().lookupButton(QUIT)).setText(Texts.t("connect.token.quit"));
        d.getDialogPane().lookupButton(RETRY).disableProperty().bind(token.textProperty().isEmpty());
        d.setResultConverter(b -> b == RETRY && !token.getText().isBlank() ? token.getText().trim() : null);
        Platform.runLater(token::requestFocus);
        return d;
    }
}
