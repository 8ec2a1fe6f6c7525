package dev.fulcrum.ui.lessons;

import dev.fulcrum.i18n.Texts;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The narration panel beside the views while a lesson plays: the lesson and step, the words to say in large type,
 * what the step does, its checks ticking green or red, and Back / Next / Stop. It only shows a {@link NarrationText};
 * the buttons are wired by {@link LessonsController}.
 */
final class NarrationPanel extends VBox {
    static final double WIDTH = 380;

    final Label title = new Label();
    final Label position = new Label();
    final Label say = new Label();
    final VBox doing = new VBox(2);
    final VBox checks = new VBox(4);
    final Label status = new Label();
    final Button back = new Button(Texts.t("lessons.back"));
    final Button next = new Button(Texts.t("lessons.next"));
    final Button stop = new Button(Texts.t("lessons.stop"));

    NarrationPanel() {
        setId("lessonPanel");
        getStyleClass().add("lesson-panel");
        getStylesheets().add(dev.fulcrum.ui.Views.stylesheet("lessons"));
        setPrefWidth(WIDTH);
        setMinWidth(WIDTH);
        setMaxWidth(WIDTH);
        setSpacing(10);
        setPadding(new Insets(14));
        title.setId("lessonTitle");
        title.getStyleClass().add("lesson-title");
        title.setWrapText(true);
        position.setId("lessonStep");
        position.getStyleClass().add("muted");
        say.setId("lessonSay");
        say.getStyleClass().add("lesson-say");
        say.setWrapText(true);
        say.setMinHeight(Region.USE_PREF_SIZE);
        doing.setId("lessonDoing");
        checks.setId("lessonChecks");
        status.setId("lessonStatus");
        status.getStyleClass().add("muted");
        status.setWrapText(true);
        back.setId("lessonBack");
        next.setId("lessonNext");
        next.setDefaultButton(false);
        next.getStyleClass().add("lesson-next");
        stop.setId("lessonStop");
        Region gap = new Region();
        HBox.setHgrow(gap, Priority.ALWAYS);
        HBox buttons = new HBox(8, back, next, gap, stop);
        Label doingHeading = heading(Texts.t("lessons.heading.doing"));
        Label checksHeading = heading(Texts.t("lessons.heading.checks"));
        VBox body = new VBox(10, say, doingHeading, doing, checksHeading, checks);
        ScrollPane scroll = new ScrollPane(body);
        scroll.setFitToWidth(true);
        scroll.getStyleClass().add("lesson-scroll");
        VBox.setVgrow(scroll, Priority.ALWAYS);
        getChildren().addAll(title, position, scroll, status, buttons);
    }

    private static Label heading(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("lesson-heading");
        return l;
    }

    void show(NarrationText t) {
        title.setText(t.title());
        position.setText(t.position());
        say.setText(t.say());
        doing.getChildren().clear();
        for (String line : t.doing()) {
            Label l = new Label("▸ " + line);
            l.setWrapText(true);
            l.getStyleClass().add("lesson-doing");
            doing.getChildren().add(l);
        }
        if (t.doing().isEmpty()) {
            Label l = new Label(Texts.t("lessons.nothing"));
            l.getStyleClass().add("muted");
            doing.getChildren().add(l);
        }
        checks.getChildren().clear();
        for (int i = 0; i < t.rows().size(); i++) {
            NarrationText.Row r = t.rows().get(i);
            Label mark = new Label(switch (r.tick()) {
                case OK, SO_FAR -> "✔";
                case FAILED -> "✘";
                case NOT_YET -> "…";
                case PENDING -> "○";
            });
            mark.getStyleClass().addAll("lesson-mark", "lesson-" + r.tick().name().toLowerCase(java.util.Locale.ROOT));
            mark.setMinWidth(18);
            Label text = new Label(r.text());
            text.setWrapText(true);
            text.getStyleClass().add("lesson-" + r.tick().name().toLowerCase(java.util.Locale.ROOT) + "-text");
            HBox row = new HBox(6, mark, text);
            row.setId("lessonCheck-" + i);
            row.getStyleClass().add("lesson-check");
            checks.getChildren().add(row);
        }
        status.setText(t.status());
        back.setDisable(!t.canBack());
        next.setDisable(!t.canNext());
    }
}
