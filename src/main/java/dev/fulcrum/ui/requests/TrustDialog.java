package dev.fulcrum.ui.requests;

import dev.fulcrum.i18n.Texts;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;
import javafx.stage.Window;

/**
 * Local HTTPS, for the embedded engine: the HTTPS address, and the buttons that do what {@code --trust} and
 * {@code --untrust} do (docs/REFERENCE.md §5), run on a thread of their own, each step's line shown as it is printed.
 * Not modal: the window goes on updating while {@code certutil} runs.
 */
final class TrustDialog {
    private final Dialog<Void> dialog = new Dialog<>();
    private final Button trust = new Button(Texts.t("trust.trust"));
    private final Button untrust = new Button(Texts.t("trust.untrust"));
    private final TextArea output = new TextArea();

    TrustDialog(Window owner, RequestsContext.LocalHttps https) {
        dialog.initOwner(owner);
        dialog.initModality(Modality.NONE);
        dialog.setTitle(Texts.t("trust.title"));
        dialog.setHeaderText(Texts.t("trust.header"));
        String url = https.url();
        Label address = new Label(url == null ? Texts.t("trust.off") : Texts.t("trust.address", url));
        address.setId("httpsAddress");
        address.setWrapText(true);
        Label explain = new Label(Texts.t("trust.explain"));
        explain.setWrapText(true);
        explain.getStyleClass().add("muted");
        trust.setId("trustHttps");
        untrust.setId("untrustHttps");
        trust.setOnAction(e -> run(msg -> Texts.t("trust.failed.trust", msg), https::trust));
        untrust.setOnAction(e -> run(msg -> Texts.t("trust.failed.untrust", msg), https::untrust));
        output.setId("trustOutput");
        output.setEditable(false);
        output.setWrapText(true);
        output.getStyleClass().add("mono");
        output.setPrefRowCount(14);
        output.setPromptText(Texts.t("trust.output"));
        VBox.setVgrow(output, Priority.ALWAYS);
        VBox box = new VBox(10, address, explain, new HBox(8, trust, untrust), output);
        box.setPadding(new Insets(4, 0, 0, 0));
        box.setPrefWidth(760);
        dialog.getDialogPane().setContent(box);
        dialog.getDialogPane().getButtonTypes().add(ButtonType.CLOSE);
        dialog.setResizable(true);
    }

    void show() {
        dialog.show();
    }

    /** Runs the steps off the FX thread; the buttons rest until they are done. {@code failed} words an error. */
    private void run(java.util.function.UnaryOperator<String> failed, Consumer<Consumer<String>> steps) {
        trust.setDisable(true);
        untrust.setDisable(true);
        output.clear();
        Thread t = new Thread(() -> {
            try {
                steps.accept(line -> Platform.runLater(() -> output.appendText(line + "\n")));
            } catch (RuntimeException e) {
                String msg = e.getMessage() == null ? e.toString() : e.getMessage();
                Platform.runLater(() -> output.appendText(failed.apply(msg) + "\n"));
            } finally {
                Platform.runLater(() -> {
                    trust.setDisable(false);
                    untrust.setDisable(false);
                });
            }
        }, "fulcrum-trust");
        t.setDaemon(true);
        t.start();
    }

    Dialog<Void> dialog() {
        return dialog;
    }
}
