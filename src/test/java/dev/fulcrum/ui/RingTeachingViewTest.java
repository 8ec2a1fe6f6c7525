package dev.fulcrum.ui;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.hash.KeySpace;
import dev.fulcrum.engine.hash.XxHash64;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.time.ManualClock;
import dev.fulcrum.ui.ring.RingGeometry;
import dev.fulcrum.ui.ring.RingViewModel;
import dev.fulcrum.ui.ring.Spread;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * The Ring tab's teaching view against a real engine: the count of points per backend drawn changes the points and the
 * spread and leaves the pool alone until Apply; and a what-if, then its Apply, count exactly the keys the engine's
 * lookups move.
 */
@Timeout(90)
class RingTeachingViewTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private static RunningFulcrum engine(int virtualNodes) {
        return RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.bare("consistent-hash").with("key", "path")
                .with("virtualNodes", virtualNodes), BreakerConfig.DEFAULT, List.of(demo("a", 1, 0, 0),
                demo("b", 1, 0, 0), demo("c", 2, 0, 0), demo("d", 1, 0, 0)))).start();
    }

    private static KeySpace keySpace(RunningFulcrum f) {
        return f.engine().pool("default").snapshot().primary().keySpace();
    }

    @Test
    void theCountDrawnChangesThePointsAndTheSpreadWhileThePoolKeepsItsOwnUntilApply(FxRobot robot) {
        // given a pool of four backends (c of weight 2) at 160 points per backend, on the Ring tab
        RunningFulcrum fulcrum = engine(160);
        MainWindow window = fx.open(fulcrum);
        robot.interact(() -> window.controller().select("Ring"));
        RingViewModel vm = window.controller().ring().viewModel();
        fx.until(() -> vm.geometryProperty().get() != null && vm.geometryProperty().get().pointCount() == 800);
        Spread atPools = fx.onFx(() -> vm.spreadProperty().get());

        // when 3 points per backend are chosen
        robot.clickOn("#vn-3");

        // then the ring drawn has each backend's weight times 3 points, b#i where the engine's hash of "b#i" puts it
        fx.until(() -> vm.geometryProperty().get().pointCount() == 15);
        RingGeometry g = fx.onFx(() -> vm.geometryProperty().get());
        for (RingGeometry.Part p : g.parts()) {
            int count = p.backend().equals("c") ? 6 : 3;
            List<Double> expected = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                expected.add(RingGeometry.fraction(XxHash64.hash(p.backend() + "#" + i)));
            }
            List<Double> drawn = new ArrayList<>();
            for (double d : p.points()) {
                drawn.add(d);
            }
            assertThat(drawn).as(p.backend()).containsExactlyInAnyOrderElementsOf(expected);
        }
        // and the spread is that ring's: each share as drawn, the legend saying it, and far less even than at 160
        Spread spread = fx.onFx(() -> vm.spreadProperty().get());
        for (RingGeometry.Part p : g.parts()) {
            Spread.Row row = spread.rows().stream().filter(r -> r.backend().equals(p.backend())).findFirst().orElseThrow();
            assertThat(row.share()).isEqualTo(p.share());
            assertThat(row.fair()).isEqualTo(p.backend().equals("c") ? 0.4 : 0.2);
            assertThat(fx.text("#legend-" + p.backend()))
                    .startsWith(String.format("%s  %.1f%%", p.backend(), p.share() * 100));
        }
        assertThat(spread.maxOverMin()).isGreaterThan(atPools.maxOverMin());
        assertThat(fx.text("#spreadRatio")).contains(spread.ratioText());
        // and the pool is as it was: 160 points per backend, 800 on its ring
        assertThat(fulcrum.engine().pool("default").snapshot().spec().integer("virtualNodes")).isEqualTo(160);
        assertThat(keySpace(fulcrum).points()).hasSize(800);

        // when the count is applied
        robot.clickOn("#applyVirtualNodes");

        // then the pool has it, and its ring is the one that was drawn
        await().atMost(Duration.ofSeconds(10)).until(() -> keySpace(fulcrum).points().size() == 15);
        assertThat(fulcrum.engine().pool("default").snapshot().spec().integer("virtualNodes")).isEqualTo(3);
        List<Double> engine = new ArrayList<>();
        for (KeySpace.Point p : keySpace(fulcrum).points()) {
            engine.add(RingGeometry.fraction(p.hash()));
        }
        List<Double> drawnBefore = new ArrayList<>();
        g.parts().forEach(p -> {
            for (double d : p.points()) {
                drawnBefore.add(d);
            }
        });
        assertThat(engine).containsExactlyInAnyOrderElementsOf(drawnBefore);
        fx.until(() -> vm.poolVirtualNodesProperty().get() == 3);
        fx.until(Duration.ofSeconds(5), () -> !robot.lookup("#applyVirtualNodes").queryAs(Button.class).isVisible());
    }

    @Test
    void aWhatIfAndItsApplyCountTheKeysTheEnginesLookupsMove(FxRobot robot) {
        // given 60 keys requested through the proxy and seen by the Ring tab, on a clock that stands still (the moved
        // keys stay drawn as moved for as long as the test looks)
        RunningFulcrum fulcrum = engine(160);
        MainWindow window = fx.open(fulcrum, new ManualClock());
        robot.interact(() -> window.controller().select("Ring"));
        RingViewModel vm = window.controller().ring().viewModel();
        fx.until(() -> vm.geometryProperty().get() != null);
        Map<String, String> before = new HashMap<>();
        for (int i = 0; i < 60; i++) {
            String key = "/users/" + i;
            assertThat(fulcrum.proxied(key).status()).isEqualTo(200);
            before.put(key, keySpace(fulcrum).owner(key));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(() -> vm.keys().seen()) == 60);

        // when the what-if removes b
        robot.interact(() -> robot.lookup("#whatIfBackend").queryAs(ComboBox.class).setValue("b"));
        robot.clickOn("#previewButton");
        fx.until(() -> robot.lookup("#previewLabel").queryAs(Label.class).getText()
                .startsWith("Removing b would move"));
        String previewed = fx.text("#previewLabel");
        Set<String> wouldMove = fx.onFx(() -> vm.keys().focus().keys());
        // and it is applied
        robot.clickOn("#applyButton");

        // then the keys it said would move are those whose owner the engine's lookups now give another backend
        await().atMost(Duration.ofSeconds(10)).until(() -> keySpace(fulcrum).points().stream()
                .noneMatch(p -> p.backend().equals("b")));
        Set<String> moved = new TreeSet<>();
        before.forEach((key, owner) -> {
            if (!keySpace(fulcrum).owner(key).equals(owner)) {
                moved.add(key);
            }
        });
        assertThat(moved).isNotEmpty();
        assertThat(wouldMove).isEqualTo(moved);
        assertThat(previewed).startsWith("Removing b would move " + moved.size() + " of 60 keys seen (");
        // and the view counts the same keys moved, drawing only them as moving
        fx.until(() -> robot.lookup("#ringMoved").queryAs(Label.class).getText()
                .startsWith("moved " + moved.size() + " of 60 keys seen"));
        assertThat(fx.onFx(() -> vm.keys().lastMove().keys())).isEqualTo(moved);
        Set<String> drawnMoving = new TreeSet<>();
        fx.onFx(() -> vm.keys().dots()).stream().filter(d -> d.moving()).forEach(d -> drawnMoving.add(d.key()));
        assertThat(drawnMoving).isEqualTo(moved);
    }
}
