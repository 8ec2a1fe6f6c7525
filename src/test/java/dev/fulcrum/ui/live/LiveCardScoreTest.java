package dev.fulcrum.ui.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.ui.WindowHarness;
import javafx.scene.control.Label;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/** A Live card's score, first on its figures' line, where the pool uses the score strategy. */
class LiveCardScoreTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private LiveCard card;

    @BeforeEach
    void start() {
        card = ShownCard.show(fx, 600, 200);
    }

    private static BackendInfo scored(Double score, String fallback) {
        return new BackendInfo("b1", "default", "http://127.0.0.1:1", 1, 1, "UP", "UP", null, 2, 0, 0, 40, 0, 2.1, 4.8,
                false, null, 0, 0, false, java.util.Map.of(), score, fallback);
    }

    @Test
    void theScoreReadsWithWhyAnotherValueStoodIn() {
        assertThat(LiveCard.scoreText(scored(0.6249, null))).isEqualTo("score 0.62 · ");
        assertThat(LiveCard.scoreText(scored(0.55, "stale"))).isEqualTo("score 0.55 (stale) · ");
        assertThat(LiveCard.scoreText(scored(null, "missing"))).isEqualTo("score excluded (missing) · ");
    }

    @Test
    void aBackendOfAPoolThatDoesNotScoreShowsNone() {
        assertThat(LiveCard.scoreText(scored(null, null))).isEmpty();
    }

    @Test
    void theCardShowsItsScoreWhole(FxRobot robot) {
        robot.interact(() -> {
            card.place(new StageLayout.Box(0, 0, 400, 108));
            card.show(scored(0.55, "stale"), true);
            card.getParent().layout();
        });
        Label figures = fx.onFx(() -> robot.from(card).lookup(".muted").<Label>queryAll().stream()
                .filter(l -> l.getText().contains("in flight")).findFirst().orElseThrow());
        String text = fx.onFx(figures::getText);
        assertThat(text).isEqualTo("score 0.55 (stale) · 40 req/s · p99 4.8 ms · 2 in flight");
        assertThat(fx.onFx(() -> ((javafx.scene.text.Text) figures.lookup(".text")).getText())).isEqualTo(text);
    }
}
