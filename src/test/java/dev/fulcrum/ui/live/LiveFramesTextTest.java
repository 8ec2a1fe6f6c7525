package dev.fulcrum.ui.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.i18n.Texts;
import org.junit.jupiter.api.Test;

/** The Live stage's frames counter says the machine is busy only once the pacer's cap holds the frames. */
class LiveFramesTextTest {
    @Test
    void theBusyNoteFollowsTheCapOnceItHolds() {
        assertThat(LiveController.framesText(60, 0)).isEqualTo(Texts.t("live.frames", "60"));
        // the second the pacer set its cap: the count is of the frames before it
        assertThat(LiveController.framesText(57, 20)).isEqualTo(Texts.t("live.frames", "57"));
        assertThat(LiveController.framesText(20, 20)).isEqualTo(Texts.t("live.frames.busy", "20"));
        assertThat(LiveController.framesText(5, 4)).isEqualTo(Texts.t("live.frames.busy", "5"));
        assertThat(LiveController.framesText(3, 4)).isEqualTo(Texts.t("live.frames.busy", "3"));
        assertThat(Texts.t("live.frames.busy", "3")).isNotEqualTo(Texts.t("live.frames", "3"));
    }
}
