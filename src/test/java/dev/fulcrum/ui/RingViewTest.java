package dev.fulcrum.ui;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.ring.RingCanvas;
import dev.fulcrum.ui.ring.RingGeometry;
import dev.fulcrum.ui.ring.RingViewModel;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.scene.layout.StackPane;
import javafx.scene.paint.Color;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The ring view: one colour per backend (from a hand-built ring, checked in the canvas pixels) and, against a
 * real consistent-hash engine, the ring, a key lookup and a what-if preview.
 */
@Timeout(60)
class RingViewTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private RunningFulcrum fulcrum;
    private MainWindow window;

    /** A ring like the engine's: {@code perBackend} points per backend at seeded random positions. */
    static EngineClient.Ring ring(int backends, int perBackend, long seed) {
        Random r = new Random(seed);
        List<EngineClient.Point> points = new ArrayList<>();
        Map<String, Double> share = new HashMap<>();
        for (int b = 0; b < backends; b++) {
            String id = String.format("b%02d", b);
            share.put(id, 1.0 / backends);
            for (int i = 0; i < perBackend; i++) {
                points.add(new EngineClient.Point(new BigInteger(64, r), id));
            }
        }
        points.sort(Comparator.comparing(EngineClient.Point::hash));
        return new EngineClient.Ring("consistent-hash", points, share);
    }

    @Test
    void theRingIsDrawnInOneColourPerBackend(FxRobot robot) {
        // given a ring of three backends with 160 points each
        RingGeometry g = RingGeometry.of(ring(3, 160, 7));
        AtomicReference<WritableImage> image = new AtomicReference<>();

        // when it is drawn
        robot.interact(() -> {
            RingCanvas canvas = new RingCanvas();
            fx.stage().setScene(new Scene(new StackPane(canvas), 500, 500));
            fx.stage().show();
            canvas.setGeometry(g);
            canvas.applyCss();
            canvas.layout();
            image.set(canvas.canvas().snapshot(null, null));
        });

        // then there are three distinct colours, and each covers a good part of the ring's pixels
        assertThat(g.colours()).containsOnlyKeys("b00", "b01", "b02");
        assertThat(g.colours().values()).doesNotHaveDuplicates();
        Map<String, Integer> pixels = count(image.get(), g.colours());
        assertThat(pixels).allSatisfy((id, n) -> assertThat(n).as("pixels of " + id).isGreaterThan(500));
    }

    private static Map<String, Integer> count(WritableImage img, Map<String, Color> colours) {
        Map<String, Integer> n = new HashMap<>();
        colours.keySet().forEach(id -> n.put(id, 0));
        PixelReader pr = img.getPixelReader();
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                Color c = pr.getColor(x, y);
                for (Map.Entry<String, Color> e : colours.entrySet()) {
                    Color k = e.getValue();
                    if (Math.abs(c.getRed() - k.getRed()) < 0.02 && Math.abs(c.getGreen() - k.getGreen()) < 0.02
                            && Math.abs(c.getBlue() - k.getBlue()) < 0.02) {
                        n.merge(e.getKey(), 1, Integer::sum);
                    }
                }
            }
        }
        return n;
    }

    @Test
    void aConsistentHashPoolShowsItsRingLooksUpKeysAndPreviewsARemoval(FxRobot robot) {
        // given an engine hashing on the path over three demo backends
        fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.bare("consistent-hash").with("key", "path").with("virtualNodes", 160), BreakerConfig.DEFAULT, List.of(demo("a", 1, 0, 0), demo("b", 1, 0, 0),
                demo("c", 1, 0, 0)))).start();
        window = fx.open(fulcrum);
        robot.interact(() -> window.controller().select("Ring"));
        RingViewModel vm = window.controller().ring().viewModel();

        // then the ring has one colour per backend and no "no ring" message
        // (read on the FX thread, which sets the ring and clears the message in one go)
        await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(() -> vm.colours().size() == 3));
        assertThat(fx.onFx(vm::colours)).containsOnlyKeys("a", "b", "c");
        assertThat(fx.onFx(() -> vm.messageProperty().get())).isNull();
        // and the colour drawn at each key's position is the backend the engine sends that key to
        var ks = fulcrum.engine().pool("default").snapshot().primary().keySpace();
        RingGeometry g = vm.geometryProperty().get();
        for (int i = 0; i < 200; i++) {
            String key = "/users/" + i;
            double f = g.keyPosition(new BigInteger(Long.toUnsignedString(ks.hash(key))));
            assertThat(g.parts().get(g.ownerAt(f)).backend()).as(key).isEqualTo(ks.owner(key));
        }

        // when a key is typed, its hash and owner appear (the engine's own answer)
        robot.clickOn("#ringKey").write("/users/42");
        String owner = fulcrum.engine().pool("default").snapshot().primary().keySpace().owner("/users/42");
        fx.untilAsserted(Duration.ofSeconds(5), () -> assertThat(
                robot.lookup("#lookupLabel").queryAs(Label.class).getText()).endsWith("→ " + owner));

        // and a what-if removal says how much would move, without changing anything
        robot.interact(() -> vm.preview(new RingViewModel.WhatIf(RingViewModel.Mode.REMOVE, "b", 0)));
        fx.until(Duration.ofSeconds(5), () -> vm.previewProperty().get() != null);
        double moved = vm.previewProperty().get().movedFraction();
        assertThat(moved).isBetween(0.2, 0.5);
        assertThat(fx.text("#previewLabel")).contains("Removing b would move");
        assertThat(fulcrum.engine().backends()).hasSize(3);
    }

    @Test
    void aMaglevPoolIsShownAsATableBandWithEveryBackendInIt(FxRobot robot) {
        // given an engine with a Maglev table over two backends, weights 3 and 1
        fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.bare("maglev").with("key", "path").with("tableSize", 65537), BreakerConfig.DEFAULT, List.of(demo("a", 3, 0, 0), demo("b", 1, 0, 0)))).start();
        window = fx.open(fulcrum);
        robot.interact(() -> window.controller().select("Ring"));
        RingViewModel vm = window.controller().ring().viewModel();

        // then the view has a table (drawn as a band) with both backends, owning about 3/4 and 1/4 of the slots
        await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(() -> vm.geometryProperty().get() != null));
        RingGeometry g = vm.geometryProperty().get();
        assertThat(g.isTable()).isTrue();
        assertThat(g.colours()).containsOnlyKeys("a", "b");
        assertThat(g.parts().get(0).share()).isCloseTo(0.75, org.assertj.core.data.Offset.offset(0.05));
        // the legend counts slots (the table comes as runs of slots; it counted the runs)
        long slotsOfA = Math.round(g.parts().get(0).share() * 65537);
        fx.until(Duration.ofSeconds(5), () -> robot.lookup(".label").queryAllAs(Label.class).stream()
                .anyMatch(l -> l.getText() != null && l.getText().startsWith("a  ") && l.getText().endsWith("(" + slotsOfA + " slots)")));
        // and the owner the band shows at a key's position is the engine's owner of that key
        var ks = fulcrum.engine().pool("default").snapshot().primary().keySpace();
        for (String key : List.of("/x", "/y", "/users/1", "/users/2")) {
            double f = g.keyPosition(new BigInteger(Long.toUnsignedString(ks.hash(key))));
            assertThat(g.parts().get(g.ownerAt(f)).backend()).as(key).isEqualTo(ks.owner(key));
        }
    }

    @Test
    void aStrategyWithoutARingSaysSo(FxRobot robot) {
        // given a round-robin pool
        fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.of("round-robin"), BreakerConfig.DEFAULT,
                List.of(demo("a", 1, 0, 0)))).start();
        window = fx.open(fulcrum);
        RingViewModel vm = window.controller().ring().viewModel();

        // then the ring view explains there is none
        await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(() -> vm.messageProperty().get() != null
                && vm.messageProperty().get().contains("round-robin strategy has no ring")));
        assertThat(fx.onFx(vm::colours)).isEmpty();
        WaitForAsyncUtils.waitForFxEvents();
    }
}
