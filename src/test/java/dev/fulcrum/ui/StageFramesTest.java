package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * An animated view pulses only while it is shown and the machine has room: held back by the pacer it draws on ticks
 * (JavaFX is then free not to pulse 60 times a second), hidden it draws nothing, shown again it draws again.
 */
@ExtendWith(ApplicationExtension.class)
@Timeout(60)
class StageFramesTest {
    private final StackPane view = new StackPane();
    private volatile double load;

    @Start
    void start(Stage stage) {
        stage.setScene(new Scene(view, 200, 100));
        stage.show();
    }

    private static void waitFor(java.util.concurrent.Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(condition).get());
    }

    @Test
    void pulsesWhileShownTicksWhenHeldBackAndStopsWhenHidden() throws Exception {
        AtomicBoolean shown = new AtomicBoolean(true);
        List<Double> frames = new CopyOnWriteArrayList<>();
        StageFrames[] f = {null};
        WaitForAsyncUtils.asyncFx(() -> f[0] = StageFrames.of(view, shown::get, new FramePacer(() -> load),
                frames::add)).get();

        waitFor(() -> f[0].everyPulse() && frames.size() > 10);

        load = 0.95; // the pacer looks again within a second and caps the stage at 8 frames a second
        waitFor(() -> !f[0].everyPulse());
        int atCap = frames.size();
        waitFor(() -> frames.size() > atCap + 5);
        assertThat(f[0].everyPulse()).as("held back, the stage draws on ticks, not pulses").isFalse();

        load = 0;
        shown.set(false);
        waitFor(() -> !f[0].everyPulse());
        // hidden: the next frames come only once it shows again
        int hidden = frames.size();
        shown.set(true);
        waitFor(() -> frames.size() > hidden + 10 && f[0].everyPulse());
    }

    @Test
    void aViewTakenOutOfItsSceneStopsDrawing() throws Exception {
        List<Double> frames = new CopyOnWriteArrayList<>();
        StageFrames[] f = {null};
        WaitForAsyncUtils.asyncFx(() -> f[0] = StageFrames.of(view, () -> true, new FramePacer(() -> 0),
                frames::add)).get();
        waitFor(() -> f[0].everyPulse());
        WaitForAsyncUtils.asyncFx(() -> view.getScene().setRoot(new StackPane())).get();
        waitFor(() -> !f[0].everyPulse());
        WaitForAsyncUtils.asyncFx(() -> view.getChildren().add(new StackPane())).get();
        assertThat(f[0].everyPulse()).isFalse();
    }
}
