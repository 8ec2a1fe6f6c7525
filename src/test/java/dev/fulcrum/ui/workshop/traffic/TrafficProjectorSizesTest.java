package dev.fulcrum.ui.workshop.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.MainWindow;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.WindowHarness;
import dev.fulcrum.ui.workshop.WorkshopContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Labeled;
import javafx.scene.control.Tab;
import javafx.scene.text.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** The Traffic tab at a projector's sizes: no label or button shows its text cut with an ellipsis. */
@Timeout(60)
class TrafficProjectorSizesTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private RunningFulcrum fulcrum;
    private MainWindow window;

    @Test
    void nothingIsCutAt1024x768Or1280x720(FxRobot robot) {
        fulcrum = fx.closeAfter(RunningFulcrum.demoApp());
        window = fx.show(new UiSession(new InProcessEngineClient(fulcrum.app()), "embedded engine (test)"),
                WorkshopContext.embedded(fulcrum.app(), resource -> { }), null);
        robot.interact(() -> {
            Tab traffic = window.controller().tabs().getTabs().stream()
                    .filter(t -> "workshopTrafficTab".equals(t.getId())).findFirst().orElseThrow();
            window.controller().tabs().getSelectionModel().select(traffic);
        });
        // the scene graph is read on the FX thread: walked from another while a run changes it, it can change under
        // the walk (a child list shorter than the index being read)
        await().atMost(Duration.ofSeconds(10)).until(() ->
                fx.onFx(() -> !robot.lookup("#trafficStart").queryAs(Button.class).isDisabled()));
        // with a run's figures shown (the widest texts)
        robot.interact(() ->
                robot.lookup("#trafficDuration").queryAs(javafx.scene.control.Spinner.class).getValueFactory().setValue(1));
        robot.clickOn("#trafficStart");
        await().atMost(Duration.ofSeconds(15)).until(() -> fx.onFx(() -> robot.lookup("#trafficStatus")
                .queryAs(javafx.scene.control.Label.class).getText().startsWith("done")));
        for (double[] size : new double[][] {{1024, 768}, {1280, 720}}) {
            robot.interact(() -> {
                fx.stage().setWidth(size[0]);
                fx.stage().setHeight(size[1]);
            });
            WaitForAsyncUtils.waitForFxEvents();
            List<String> cut = new ArrayList<>();
            robot.interact(() -> {
                // the run's last figures may reach a label after the wait above, and a label shows a new text only
                // at its next layout: lay out now, so each label is judged on the text it holds
                fx.stage().getScene().getRoot().applyCss();
                fx.stage().getScene().getRoot().layout();
                Node content = robot.lookup("#trafficStart").query().getParent().getParent();
                while (content.getParent() != null && !(content.getParent() instanceof javafx.scene.control.TabPane)
                        && !content.getStyleClass().contains("workshop")) {
                    content = content.getParent();
                }
                for (Node n : content.lookupAll(".text")) {
                    if (n instanceof Text t && n.getParent() instanceof Labeled l && shown(l)
                            && l.getText() != null && !l.getText().isEmpty() && !l.getText().equals(t.getText())) {
                        cut.add(l.getText() + " -> " + t.getText());
                    }
                }
            });
            assertThat(cut).as("texts cut in the Traffic tab at %.0f x %.0f", size[0], size[1]).isEmpty();
        }
    }

    private static boolean shown(Node n) {
        for (Node p = n; p != null; p = p.getParent()) {
            if (!p.isVisible()) {
                return false;
            }
        }
        return true;
    }
}
