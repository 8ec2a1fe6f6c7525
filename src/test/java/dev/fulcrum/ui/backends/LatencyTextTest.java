package dev.fulcrum.ui.backends;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The backends table's latency column: a dash before anything is measured, tenths where local backends answer. */
class LatencyTextTest {
    @Test
    void nothingMeasuredIsADashAndFastAnswersKeepATenth() {
        assertThat(BackendsController.latencyText(0, 0)).isEqualTo("\u2013");
        assertThat(BackendsController.latencyText(Double.NaN, Double.NaN)).isEqualTo("\u2013"); // an HAProxy fleet
        assertThat(BackendsController.latencyText(0.42, 1.96)).isEqualTo("0.4 / 2.0 ms");
        assertThat(BackendsController.latencyText(6.2, 19.4)).isEqualTo("6.2 / 19 ms");
        assertThat(BackendsController.latencyText(120.4, 1500)).isEqualTo("120 / 1500 ms");
    }
}
