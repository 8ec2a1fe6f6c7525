package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FramePacerTest {
    private double load;

    private int drawnInOneSecondFrom(FramePacer p, double start) {
        int drawn = 0;
        for (int i = 0; i < 60; i++) {
            if (p.due(start + i / 60.0)) {
                drawn++;
            }
        }
        return drawn;
    }

    @Test
    void aMachineWithRoomGetsEveryPulse() {
        load = 0.5;
        FramePacer p = new FramePacer(() -> load);
        assertThat(drawnInOneSecondFrom(p, 0)).isEqualTo(60);
        assertThat(p.cap()).isZero();
    }

    @Test
    void aSaturatedMachineGetsFourFramesANearlySaturatedEightABusyOneTwenty() {
        load = 0.97;
        FramePacer p = new FramePacer(() -> load);
        assertThat(drawnInOneSecondFrom(p, 0)).isEqualTo(4);
        assertThat(p.cap()).isEqualTo(4);
        load = 0.92;
        assertThat(drawnInOneSecondFrom(p, 1)).isEqualTo(8);
        assertThat(p.cap()).isEqualTo(8);
        load = 0.8;
        assertThat(drawnInOneSecondFrom(p, 2)).isEqualTo(20);
        assertThat(p.cap()).isEqualTo(20);
        load = 0.1;
        assertThat(drawnInOneSecondFrom(p, 3)).as("back to every pulse once the load goes").isEqualTo(60);
    }

    @Test
    void theLoadIsReadOnceASecond() {
        int[] reads = new int[1];
        FramePacer p = new FramePacer(() -> {
            reads[0]++;
            return 0;
        });
        drawnInOneSecondFrom(p, 0);
        drawnInOneSecondFrom(p, 1);
        assertThat(reads[0]).isEqualTo(2);
    }
}
