package dev.fulcrum.ui;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.time.ManualClock;
import dev.fulcrum.ui.ring.RingCanvas;
import dev.fulcrum.ui.ring.RingViewModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Labeled;
import javafx.scene.control.TextField;
import javafx.scene.text.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * The Ring tab on a projector: Present mode at 1280x720 and 1024x768 (the stage sized, full screen being unavailable
 * headless), the issue's pool of seven backends with 160 points each drawn at 3, keys seen, a change applied, a what-if
 * showing and a key looked up: no text on the tab is cut, its text is Present mode's large type, and the what-if's
 * caption covers none of the marks it describes.
 */
@Timeout(120)
class RingPresentModeTest {
    private static final int[][] SIZES = {{1280, 720}, {1024, 768}};

    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private MainWindow window;
    private RingViewModel vm;

    /** The window in Present mode on the Ring tab, with a change applied and a what-if showing. */
    private void presenting(FxRobot robot) {
        List<DemoBackendConfig> demos = new ArrayList<>();
        for (char c = 'a'; c <= 'g'; c++) {
            demos.add(demo("demo-" + c, 1, 0, 0));
        }
        RunningFulcrum fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.bare("consistent-hash")
                .with("key", "path").with("virtualNodes", 160), BreakerConfig.DEFAULT, demos)).start();
        window = fx.open(fulcrum, new ManualClock()); // the keys seen stay seen, the change's keys stay moved
        vm = window.controller().ring().viewModel();
        robot.interact(() -> {
            window.controller().select("Ring");
            window.present().toggle();
            fx.stage().setFullScreen(false);
        });
        fx.until(() -> vm.geometryProperty().get() != null);
        for (int i = 0; i < 100; i++) {
            assertThat(fulcrum.proxied("/users/" + i).status()).isEqualTo(200);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(() -> vm.keys().seen()) == 100);
        // the teaching view at 3 points per backend: its note, its Apply, its points named
        robot.clickOn("#vn-3");
        fx.until(() -> vm.geometryProperty().get().pointCount() == 21);
        // a change applied: the moved keys' count at the top, the longest it says (on the ring drawn)
        robot.interact(() -> vm.apply(new RingViewModel.WhatIf(RingViewModel.Mode.REMOVE, "demo-g", 0), ""));
        fx.until(() -> vm.movedProperty().get() != null
                && vm.geometryProperty().get().parts().size() == 6);
        // a what-if showing: the shares now → after, its caption; and a key looked up
        robot.interact(() -> {
            vm.preview(new RingViewModel.WhatIf(RingViewModel.Mode.REMOVE, "demo-b", 0));
            robot.lookup("#ringKey").queryAs(TextField.class).setText("/users/42");
        });
        fx.until(() -> vm.previewProperty().get() != null
                && vm.lookupProperty().get() != null);
    }

    private void size(FxRobot robot, int w, int h) {
        robot.interact(() -> {
            fx.stage().setWidth(w);
            fx.stage().setHeight(h);
        });
        fx.onFx(() -> {
            window.scene().getRoot().applyCss();
            window.scene().getRoot().layout();
            window.controller().ring().ringCanvas().redraw();
        });
    }

    @Test
    void nothingOnTheRingTabIsCutAndItsTextIsPresentModesLargeType(FxRobot robot) {
        presenting(robot);
        Node tab = fx.onFx(() -> window.controller().tabs().getSelectionModel().getSelectedItem().getContent());
        for (int[] s : SIZES) {
            size(robot, s[0], s[1]);
            List<String> cut = new ArrayList<>();
            List<String> small = new ArrayList<>();
            fx.onFx(() -> visit(tab, cut, small));
            assertThat(cut).as("cut at %dx%d", s[0], s[1]).isEmpty();
            assertThat(small).as("smaller than Present mode's type at %dx%d", s[0], s[1]).isEmpty();
        }
    }

    /** Every visible Labeled under {@code n}: its shown text (the skin's LabeledText) against its own, and its size. */
    private static void visit(Node n, List<String> cut, List<String> small) {
        if (!n.isVisible()) {
            return;
        }
        if (n instanceof Labeled l && l.getText() != null && !l.getText().isEmpty()) {
            String name = (l.getId() != null ? "#" + l.getId() : l.getStyleClass().toString()) + " \"" + l.getText() + "\"";
            Text shown = null;
            for (Node c : l.getChildrenUnmodifiable()) {
                if (c instanceof Text t && c.getStyleClass().contains("text")) {
                    shown = t;
                }
            }
            if (shown == null || !l.getText().equals(shown.getText())) {
                cut.add(name + " shows \"" + (shown == null ? null : shown.getText()) + "\"");
            }
            // 16 px: Present mode's 20 px type at its smallest step on this tab (a dense figure, 0.85 em)
            if (l.getFont().getSize() < 16) {
                small.add(name + " at " + l.getFont().getSize() + " px");
            }
        }
        if (n instanceof Parent p) {
            for (Node c : p.getChildrenUnmodifiable()) {
                visit(c, cut, small);
            }
        }
    }

    @Test
    void theWhatIfsCaptionCoversNoneOfTheMarksItDescribesAtEitherSize(FxRobot robot) {
        presenting(robot);
        RingCanvas canvas = window.controller().ring().ringCanvas();
        // the drawing's text (the centre's name, the caption, the points' names) is in Present mode's type
        assertThat(fx.onFx(canvas::typeSize)).isEqualTo(20.0);
        for (int[] s : SIZES) {
            size(robot, s[0], s[1]);
            RingCanvas.Drawn d = fx.onFx(canvas::drawn);
            // the points' names drawn cross neither one another nor the caption
            assertThat(d.names()).as("names drawn at %dx%d", s[0], s[1]).isNotEmpty();
            for (Bounds a : d.names()) {
                assertThat(a.intersects(d.caption())).isFalse();
                assertThat(d.names().stream().filter(b -> b != a && b.intersects(a))).isEmpty();
            }
            assertThat(d.caption()).as("the caption at %dx%d", s[0], s[1]).isNotNull();
            assertThat(d.marksRadius()).isPositive();
            assertThat(distance(d.caption(), d.cx(), d.cy())).as("caption %s from the ring at (%.0f, %.0f) r %.0f",
                    d.caption(), d.cx(), d.cy(), d.marksRadius()).isGreaterThan(d.marksRadius());
            // and the caption is whole on the canvas
            assertThat(d.caption().getMinX()).isGreaterThanOrEqualTo(0);
            assertThat(d.caption().getMaxX()).isLessThanOrEqualTo(fx.onFx(() -> canvas.getWidth()));
            assertThat(d.caption().getMaxY()).isLessThanOrEqualTo(fx.onFx(() -> canvas.getHeight()));
        }
    }

    /** The distance from (x, y) to the nearest point of the box. */
    private static double distance(Bounds b, double x, double y) {
        double dx = Math.max(Math.max(b.getMinX() - x, 0), x - b.getMaxX());
        double dy = Math.max(Math.max(b.getMinY() - y, 0), y - b.getMaxY());
        return Math.hypot(dx, dy);
    }
}
