package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.ui.ring.RingCanvas;
import dev.fulcrum.ui.ring.RingGeometry;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * A timing harness, not a test of speed: draws a 50 backends × 160 virtual nodes ring repeatedly and logs how
 * long a redraw takes (issuing the drawing, and drawing plus rasterising it through a snapshot). No threshold:
 * timings depend on the machine. Run with {@code mvn -q test -Dtest=RingRedrawTiming}; the figures are in
 * target/surefire-reports/dev.fulcrum.ui.RingRedrawTiming-output.txt.
 */
@ExtendWith(ApplicationExtension.class)
@Timeout(120)
class RingRedrawTiming {
    private static final Logger LOG = LoggerFactory.getLogger(RingRedrawTiming.class);
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @Test
    void measuresTheRedrawOfFiftyBackendsWithOneHundredSixtyVirtualNodesEach(FxRobot robot) {
        var ring = RingViewTest.ring(50, 160, 42);
        for (int i = 0; i < 10; i++) { // warm-up
            RingGeometry.of(ring);
        }
        long b0 = System.nanoTime();
        RingGeometry g = RingGeometry.of(ring);
        long build = System.nanoTime() - b0;
        // a second geometry object for the same ring: switching between the two forces the image to be recomputed
        RingGeometry g2 = RingGeometry.of(ring);
        AtomicReference<String> report = new AtomicReference<>();
        robot.interact(() -> {
            RingCanvas canvas = new RingCanvas();
            stage.setScene(new Scene(new StackPane(canvas), 900, 900));
            stage.show();
            canvas.applyCss();
            canvas.layout();
            canvas.setGeometry(g);
            for (int i = 0; i < 20; i++) { // warm-up
                canvas.redraw();
                canvas.canvas().snapshot(null, null);
            }
            int n = 50;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                canvas.redraw();
            }
            long issue = (System.nanoTime() - t0) / n;
            t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                canvas.redraw();
                canvas.canvas().snapshot(null, null);
            }
            long full = (System.nanoTime() - t0) / n;
            t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                canvas.setGeometry(i % 2 == 0 ? g2 : g);
                canvas.canvas().snapshot(null, null);
            }
            long cold = (System.nanoTime() - t0) / n;
            t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                canvas.setGeometry(i % 2 == 0 ? g2 : g);
            }
            long coldIssue = (System.nanoTime() - t0) / n;
            canvas.setGeometry(null);
            t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                canvas.redraw();
                canvas.canvas().snapshot(null, null);
            }
            long empty = (System.nanoTime() - t0) / n;
            report.set(String.format("ring redraw, 50 backends x 160 vnodes (%d points) on 900x900: geometry from the "
                    + "engine's points %.2f ms (once per change); redraw issuing %.2f ms; redraw + rasterising "
                    + "(snapshot, software pipeline) %.2f ms; the same after a ring change (image recomputed) %.2f ms, of which computing the image %.2f ms; "
                    + "snapshot of an empty canvas alone %.2f ms", g.pointCount(), build / 1e6, issue / 1e6, full / 1e6,
                    cold / 1e6, coldIssue / 1e6, empty / 1e6));
        });
        LOG.info(report.get());
        assertThat(report.get()).contains("8000 points");
    }
}
