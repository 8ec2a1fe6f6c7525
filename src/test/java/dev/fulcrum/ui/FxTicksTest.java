package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * Every tick lands on one grid: whenever an action starts, its ticks fall on the multiples of its period from the
 * same origin, so ticks whose periods divide one another (the stage's 1/8 or 1/4 s, the samples' 1/4 s, the status
 * line's 1/2 s, the timeline's second) come at the same moments and share a pulse.
 */
@ExtendWith(ApplicationExtension.class)
@Timeout(30)
class FxTicksTest {
    private static final long MS = 1_000_000;

    @Start
    void start(Stage stage) {
        stage.setScene(new Scene(new StackPane(), 100, 100));
        stage.show();
    }

    @Test
    void whateverTheStartTheNextTickIsAGridPointWithinOnePeriod() {
        SplittableRandom random = new SplittableRandom(21);
        long[] periods = {50 * MS, 100 * MS, FxTicks.GRID_NANOS, 250 * MS, 500 * MS, 1000 * MS, 2000 * MS};
        for (int i = 0; i < 10_000; i++) {
            long now = System.nanoTime() + random.nextLong(-3_600_000 * MS, 3_600_000 * MS);
            for (long p : periods) {
                long wait = FxTicks.untilNext(now, p);
                assertThat(wait).isPositive().isLessThanOrEqualTo(p);
                long at = now + wait;
                // the same moment for every action of this period, whenever each started
                assertThat(FxTicks.untilNext(at - 1, p)).isEqualTo(1);
                if (p % FxTicks.GRID_NANOS == 0) {
                    assertThat(FxTicks.untilNext(at - 1, FxTicks.GRID_NANOS)).as("a %d ms tick is a grid point", p / MS)
                            .isEqualTo(1);
                }
            }
        }
    }

    @Test
    void aHandOverRunsOnceOnTheFxThread() throws Exception {
        CompletableFuture<Boolean> ran = new CompletableFuture<>();
        FxTicks.soon(() -> ran.complete(Platform.isFxApplicationThread()));
        assertThat(ran.get(10, TimeUnit.SECONDS)).isTrue();
    }
}
