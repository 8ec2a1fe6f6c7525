package dev.fulcrum.ui.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState.BackendInfo;
import org.junit.jupiter.api.Test;

/** A Live card's score, first on its figures' line, where the pool uses the score strategy. */
class LiveCardScoreTest {
    private static BackendInfo scored(Double score, String fallback) {
        return new BackendInfo("b1", "default", "http://127.0.0.1:1", 1, 1, "UP", "UP", null, 0, 0, 0, 0, 0, 0, 0,
                false, null, 0, 0, false, score, fallback);
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
}
