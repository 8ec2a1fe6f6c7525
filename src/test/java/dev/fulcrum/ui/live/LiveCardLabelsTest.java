package dev.fulcrum.ui.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.ui.WindowHarness;
import java.util.List;
import java.util.Map;
import javafx.scene.control.Label;
import javafx.scene.text.Font;
import javafx.scene.text.Text;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * A Live card's labels (docs/REFERENCE.md §2.1): a muted last line {@code cost=0.2 zone=b} when the card has the height,
 * cut with an ellipsis at its width (the whole line in the tooltip), and no line at all without labels or room.
 */
class LiveCardLabelsTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private LiveCard card;

    @BeforeEach
    void start() {
        card = ShownCard.show(fx, 1280, 800);
    }

    private static BackendInfo labelled(Map<String, String> labels) {
        return new BackendInfo("b1", "default", "http://127.0.0.1:1", 1, 1, "UP", "UP", null, 0, 0, 0, 3, 0, 2.1,
                4.8, false, null, 0, 0, false, labels);
    }

    /** The card's labels line. FX thread. */
    private Label labelsLine(FxRobot robot) {
        return robot.lookup("#live-labels-b1").queryAs(Label.class);
    }

    private void show(FxRobot robot, double w, double h, Map<String, String> labels) {
        robot.interact(() -> {
            card.place(new StageLayout.Box(0, 0, w, h));
            card.show(labelled(labels), true);
            card.getParent().applyCss();
            card.getParent().layout();
            card.getParent().layout();
        });
    }

    @Test
    void aFullCardShowsItsLabelsWholeOnAMutedLastLine(FxRobot robot) {
        show(robot, 400, 112, Map.of("zone", "b", "cost", "0.2"));

        Label line = fx.onFx(() -> labelsLine(robot));
        assertThat(fx.onFx(line::isVisible)).isTrue();
        assertThat(fx.onFx(line::getText)).isEqualTo("cost=0.2 zone=b");
        assertThat(fx.onFx(() -> List.copyOf(line.getStyleClass()))).contains("muted");
        assertThat(fx.onFx(() -> line.getTooltip().getText())).isEqualTo("cost=0.2 zone=b");
        assertThat(fx.onFx(() -> card.getChildren().get(card.getChildren().size() - 1))).isSameAs(line);
        // inside the card, and shown as it is written
        assertThat(fx.onFx(() -> line.getBoundsInParent().getMaxY())).isLessThanOrEqualTo(112);
        assertThat(fx.onFx(() -> shown(line))).isEqualTo(fx.onFx(line::getText));
    }

    @Test
    void longLabelsAreCutWithAnEllipsisAtTheCardsWidthAndWholeInTheTooltip(FxRobot robot) {
        Map<String, String> many = Map.of("zone", "europe-west-b", "cost", "0.2", "tier", "spot",
                "team", "payments-and-billing", "rack", "r17");
        show(robot, 220, 112, many);

        Label line = fx.onFx(() -> labelsLine(robot));
        assertThat(fx.onFx(line::isVisible)).isTrue();
        assertThat(fx.onFx(line::getText)).startsWith("cost=0.2 ").endsWith("\u2026");
        assertThat(fx.onFx(() -> line.getTooltip().getText()))
                .isEqualTo("cost=0.2 rack=r17 team=payments-and-billing tier=spot zone=europe-west-b");
        // the card's own cut: the label's skin shows all of the text it was given, within the card
        assertThat(fx.onFx(() -> shown(line))).isEqualTo(fx.onFx(line::getText));
        assertThat(fx.onFx(() -> line.getBoundsInParent().getMaxX())).isLessThanOrEqualTo(220);
    }

    @Test
    void noLabelsOrNoRoomMeansNoLine(FxRobot robot) {
        show(robot, 400, 112, Map.of());
        assertThat(fx.onFx(() -> labelsLine(robot).isVisible())).isFalse();

        show(robot, 400, 60, Map.of("zone", "b"));
        assertThat(fx.onFx(() -> labelsLine(robot).isVisible())).isFalse();
        assertThat(fx.onFx(() -> labelsLine(robot).isManaged())).isFalse();
    }

    @Test
    void fitCutsToTheRoomGiven() {
        Font font = Font.font(12);
        assertThat(LiveCard.fit("zone=b", font, 400)).isEqualTo("zone=b");
        String cut = LiveCard.fit("cost=0.2 zone=b tier=spot", font, 60);
        assertThat(cut).endsWith("\u2026").hasSizeLessThan("cost=0.2 zone=b tier=spot".length());
        assertThat(LiveCard.fit("cost=0.2", font, 1)).isEqualTo("\u2026");
    }

    /** What the label's skin draws of its text. */
    private static String shown(Label l) {
        return ((Text) l.lookup(".text")).getText();
    }
}
