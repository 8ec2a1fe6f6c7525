package dev.fulcrum.ui.backends;

import dev.fulcrum.i18n.Texts;
import java.util.List;
import java.util.Set;
import javafx.event.ActionEvent;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.stage.Window;

/**
 * Add a backend: id, URL, weight and, optionally, labels ({@code zone=b, cost=0.2}). Every problem is listed under
 * the fields as it is typed, and Add stays disabled until there is none; the engine's own refusal (e.g. a duplicate
 * in another pool) appears in the same place and the dialog stays open. Nothing is added until the engine accepted
 * it.
 */
final class AddBackendDialog {
    private final Dialog<ButtonType> dialog = new Dialog<>();
    private final TextField id = new TextField();
    private final TextField url = new TextField("http://127.0.0.1:");
    private final TextField weight = new TextField("1");
    private final TextField labels = new TextField();
    private final Label problems = new Label();
    private final ButtonType addType = new ButtonType(Texts.t("backends.dialog.add"), ButtonType.OK.getButtonData());

    AddBackendDialog(Window owner, BackendsViewModel vm, Set<String> existingIds, String pool) {
        dialog.initOwner(owner);
        dialog.setTitle(Texts.t("backends.dialog.title"));
        dialog.setHeaderText(Texts.t("backends.dialog.header", pool));
        id.setId("addId");
        url.setId("addUrl");
        weight.setId("addWeight");
        labels.setId("addLabels");
        labels.setPromptText(Texts.t("backends.dialog.labels.prompt"));
        problems.setId("addProblems");
        problems.getStyleClass().add("form-problems");
        problems.setWrapText(true);
        problems.setMaxWidth(420);
        id.setPromptText(Texts.t("backends.dialog.id.prompt"));
        GridPane grid = new GridPane();
        grid.setHgap(8);
        grid.setVgap(8);
        grid.addRow(0, new Label(Texts.t("backends.dialog.id")), id);
        grid.addRow(1, new Label(Texts.t("backends.dialog.url")), url);
        grid.addRow(2, new Label(Texts.t("backends.dialog.weight")), weight);
        grid.addRow(3, new Label(Texts.t("backends.dialog.labels")), labels);
        grid.add(problems, 0, 4, 2, 1);
        dialog.getDialogPane().setContent(grid);
        dialog.getDialogPane().getButtonTypes().addAll(addType, ButtonType.CANCEL);
        Button add = (Button) dialog.getDialogPane().lookupButton(addType);
        add.setId("addConfirm");
        // a field's problem shows once it has been typed in, so the dialog does not open in red before anything
        // is typed; Add stays disabled until every field is right
        Set<String> typed = new java.util.HashSet<>();
        Runnable check = () -> {
            List<String> p = BackendForm.problems(id.getText(), url.getText(), weight.getText(), labels.getText(),
                    existingIds);
            problems.setText(String.join("\n", p.stream().filter(line -> typed.contains(field(line))).toList()));
            add.setDisable(!p.isEmpty());
        };
        id.textProperty().addListener((o, a, b) -> { typed.add("id"); check.run(); });
        url.textProperty().addListener((o, a, b) -> { typed.add("url"); check.run(); });
        weight.textProperty().addListener((o, a, b) -> { typed.add("weight"); check.run(); });
        labels.textProperty().addListener((o, a, b) -> { typed.add("labels"); check.run(); });
        check.run();
        add.addEventFilter(ActionEvent.ACTION, e -> {
            // keep the dialog open until the engine answers; close only on success
            e.consume();
            List<String> p = BackendForm.problems(id.getText(), url.getText(), weight.getText(), labels.getText(),
                    existingIds);
            if (!p.isEmpty()) {
                problems.setText(String.join("\n", p));
                return;
            }
            BackendForm.Values v = BackendForm.values(id.getText(), url.getText(), weight.getText());
            add.setDisable(true);
            vm.add(v.id(), v.url(), v.weight(), BackendForm.labels(labels.getText()), () -> {
                dialog.setResult(addType);
                dialog.close();
            }, msg -> {
                problems.setText(msg);
                add.setDisable(false);
            });
        });
        dialog.setOnShown(e -> id.requestFocus());
    }

    /** The field a problem line is about: {@code labels} for {@code labels.Zone: ...}, {@code id} for {@code id}. */
    private static String field(String line) {
        String path = line.substring(0, line.indexOf(':'));
        int dot = path.indexOf('.');
        return dot < 0 ? path : path.substring(0, dot);
    }

    void show() {
        dialog.show();
    }

    Node content() {
        return dialog.getDialogPane();
    }
}
