package dev.fulcrum.ui.workshop.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.MainWindow;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.UiTestSupport;
import dev.fulcrum.ui.workshop.WorkshopContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Labeled;
import javafx.scene.control.Tab;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The Traffic tab at a projector's sizes: no label or button shows its text cut with an ellipsis. */
@ExtendWith(ApplicationExtension.class)
@Timeout(60)
class TrafficProjectorSizesTest {
    private Stage stage;
    private RunningFulcrum fulcrum;
    private MainWindow window;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void stop() {
        if (window != null) {
            window.close();
            window.session().close();
        }
        if (fulcrum != null) {
            fulcrum.close();
        }
    }

    @Test
    void nothingIsCutAt1024x768Or1280x720(FxRobot robot) {
        fulcrum = RunningFulcrum.demoApp();
        UiSession session = new UiSession(new InProcessEngineClient(fulcrum.app()), "embedded engine (test)");
        robot.interact(() -> {
            window = MainWindow.show(stage, session, UiTestSupport.testPrefs(),
                    WorkshopContext.embedded(fulcrum.app(), resource -> { }));
            stage.show();
            session.start();
            Tab traffic = window.controller().tabs().getTabs().stream()
                    .filter(t -> "workshopTrafficTab".equals(t.getId())).findFirst().orElseThrow();
            window.controller().tabs().getSelectionModel().select(traffic);
        });
        await().atMost(Duration.ofSeconds(10)).until(() ->
                !robot.lookup("#trafficStart").queryAs(Button.class).isDisabled());
        // with a run's figures shown (the widest texts)
        robot.interact(() ->
                robot.lookup("#trafficDuration").queryAs(javafx.scene.control.Spinner.class).getValueFactory().setValue(1));
        robot.clickOn("#trafficStart");
        await().atMost(Duration.ofSeconds(15)).until(() -> robot.lookup("#trafficStatus")
                .queryAs(javafx.scene.control.Label.class).getText().startsWith("done"));
        for (double[] size : new double[][] {{1024, 768}, {1280, 720}}) {
            robot.interact(() -> {
                stage.setWidth(size[0]);
                stage.setHeight(size[1]);
            });
            WaitForAsyncUtils.waitForFxEvents();
            List<String> cut = new ArrayList<>();
            robot.interact(() -> {
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
