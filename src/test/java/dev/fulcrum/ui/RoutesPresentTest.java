package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.testkit.RunningFulcrum;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.Parent;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * The Routes tab in present mode at the projector sizes of {@link PresentLayoutTest} (which walks a config without
 * routes, so without this tab): nothing of a split panel is cut, with figures in it.
 */
@Timeout(60)
class RoutesPresentTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    @Test
    void theSplitPanelIsWholeInPresentModeAtEitherProjectorSize(FxRobot robot) {
        RunningFulcrum fulcrum = fx.closeAfter(RunningFulcrum.wholeApp(RoutesViewTest.CONFIG).start());
        MainWindow window = fx.open(fulcrum);
        for (int i = 0; i < 40; i++) {
            fulcrum.proxied("/items/" + i);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(() -> window.controller().tabs().getTabs()
                .stream().anyMatch(t -> "routesTab".equals(t.getId()))));
        fx.onFx(() -> {
            window.present().toggle();
            window.controller().select("Routes");
        });
        fx.waitFor("#split-slider-0");
        List<String> findings = new ArrayList<>();
        for (double[] size : PresentLayoutTest.SIZES) {
            findings.addAll(fx.onFx(() -> {
                Stage stage = fx.stage();
                stage.setX(0);
                stage.setY(0);
                stage.setWidth(size[0]);
                stage.setHeight(size[1]);
                Parent root = window.scene().getRoot();
                root.applyCss();
                root.layout();
                return CutText.cut(root, (int) size[0] + "x" + (int) size[1] + " Routes");
            }));
        }
        assertThat(findings).as("labels cut in the Routes tab in present mode").isEmpty();
    }
}
