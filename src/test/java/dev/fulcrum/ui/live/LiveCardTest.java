package dev.fulcrum.ui.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.ui.WindowHarness;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.shape.Rectangle;
import javafx.scene.text.Text;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/** A Live card under load: its figures show whole and its queue stays inside the card, the rest as a count. */
class LiveCardTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private LiveCard card;

    @BeforeEach
    void start() {
        card = ShownCard.show(fx, 1280, 800);
    }

    private static BackendInfo inFlight(int active) {
        return new BackendInfo("b1", "default", "http://127.0.0.1:1", 1, 1, "UP", "UP", null, active, 0, 0, 17_992,
                0, 2.1, 4.8, false, null, 0, 0);
    }

    /** The card 400 px wide and full height, with {@code active} requests in flight. */
    private void shownWith(FxRobot robot, int active) {
        robot.interact(() -> {
            card.place(new StageLayout.Box(0, 0, 400, 108));
            card.show(inFlight(active), false);
            card.getParent().layout();
        });
    }

    private long shownSquares(FxRobot robot) {
        return fx.onFx(() -> robot.from(card).lookup(".live-queue-slot").match(Node::isVisible).queryAll().size());
    }

    @Test
    void aLongQueueGivesWayToTheFiguresAndCountsWhatDoesNotFit(FxRobot robot) {
        shownWith(robot, 18);

        Label figures = fx.onFx(() -> robot.from(card).lookup(".muted").<Label>queryAll().stream()
                .filter(l -> l.getText().contains("in flight")).findFirst().orElseThrow());
        assertThat(fx.onFx(() -> ((Text) figures.lookup(".text")).getText()))
                .isEqualTo("17992 req/s · p99 4.8 ms · 18 in flight");
        long squares = shownSquares(robot);
        Label more = fx.onFx(() -> robot.from(card).lookup(".muted").<Label>queryAll().stream()
                .filter(l -> l.getText().startsWith("+")).findFirst().orElseThrow());
        String moreText = fx.onFx(more::getText);
        assertThat(squares).isPositive();
        assertThat(squares + Long.parseLong(moreText.substring(1))).isEqualTo(18);
        assertThat(fx.onFx(() -> ((Text) more.lookup(".text")).getText())).isEqualTo(moreText);
        // the right edge of each square, in the card
        List<Double> rights = fx.onFx(() -> robot.from(card).lookup(".live-queue-slot").match(Node::isVisible)
                .<Rectangle>queryAll().stream()
                .map(n -> card.sceneToLocal(n.localToScene(n.getBoundsInLocal())).getMaxX()).toList());
        for (double right : rights) {
            assertThat(right).isLessThanOrEqualTo(400);
        }
        assertThat(fx.onFx(() -> card.sceneToLocal(more.localToScene(more.getBoundsInLocal())).getMaxX()))
                .isLessThanOrEqualTo(400);
    }

    @Test
    void aNewSampleRestylesNothingAndMakesNoNodes(FxRobot robot) {
        shownWith(robot, 3);
        java.util.Set<Node> before = fx.onFx(() -> new java.util.HashSet<>(card.lookupAll("*")));
        int[] restyled = {0};
        robot.interact(() -> before.forEach(n -> n.getStyleClass().addListener(
                (javafx.collections.ListChangeListener<String>) c -> restyled[0]++)));

        robot.interact(() -> {
            card.show(inFlight(5), false);
            card.show(inFlight(1), false);
            card.getParent().layout();
        });

        // each change to a style class list has JavaFX look the node's CSS up again; new nodes are styled from scratch
        assertThat(restyled[0]).isZero();
        assertThat(fx.onFx(() -> new java.util.HashSet<>(card.lookupAll("*")))).isEqualTo(before);
        assertThat(shownSquares(robot)).isEqualTo(1);
    }
}
