package dev.fulcrum.ui.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The Load tab's axes: an error rate never above 100%, in-flight counts in whole requests. */
class LoadAxesTest {
    @Test
    void theErrorAxisStopsAtOneHundredPercent() {
        assertThat(LoadViewModel.errorAxisUpper(100)).isEqualTo(100);
        assertThat(LoadViewModel.errorAxisUpper(99.5)).isEqualTo(100);
        assertThat(LoadViewModel.errorAxisUpper(42)).isEqualTo(50);
        assertThat(LoadViewModel.errorAxisUpper(3)).isEqualTo(5);
        assertThat(LoadViewModel.errorAxisUpper(0)).isEqualTo(5);
    }

    @Test
    void anIdlePoolsInFlightAxisShowsWholeRequests() {
        assertThat(LoadViewModel.inFlightAxisUpper(0)).isEqualTo(1);
        assertThat(LoadViewModel.inFlightAxisUpper(1)).isEqualTo(2);
        assertThat(LoadViewModel.inFlightAxisUpper(10)).isEqualTo(12);
    }
}
