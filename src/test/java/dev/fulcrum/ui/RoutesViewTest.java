package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.engine.routing.Split;
import dev.fulcrum.testkit.RunningFulcrum;
import java.time.Duration;
import java.util.List;
import javafx.scene.control.Slider;
import javafx.scene.control.Tab;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The Routes tab and the Live stage's fan-out in the real window on a real engine whose one route splits stable 90 /
 * canary 10 and mirrors every request to shadow: the slider and Roll back change the engine's split.
 */
@Timeout(60)
class RoutesViewTest {
    static final String CONFIG = """
            {
              "proxy": {"host": "127.0.0.1", "port": 0},
              "admin": {"host": "127.0.0.1", "port": 0},
              "healthCheck": {"enabled": false},
              "demoBackends": [{"id": "web-1", "port": 0}],
              "pools": {
                "stable": {"demoBackends": [{"id": "stable-1", "port": 0}, {"id": "stable-2", "port": 0}]},
                "canary": {"demoBackends": [{"id": "canary-1", "port": 0}]},
                "shadow": {"demoBackends": [{"id": "shadow-1", "port": 0}]}
              },
              "routes": [
                {"pathPrefix": "/", "split": [{"pool": "stable", "weight": 90}, {"pool": "canary", "weight": 10}],
                 "mirror": {"pool": "shadow", "percent": 100},
                 "guard": {"arm": "canary", "errorRateAbove": 0.05, "minRequests": 50, "forMs": 5000}}
              ]
            }
            """;

    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private RunningFulcrum fulcrum;
    private MainWindow window;

    @BeforeEach
    void open() {
        fulcrum = fx.closeAfter(RunningFulcrum.wholeApp(CONFIG).start());
        window = fx.open(fulcrum);
    }

    private List<Integer> weights() {
        return fulcrum.engine().router().route(0).split().arms().stream().map(Split.Arm::weight).toList();
    }

    private void showRoutes(FxRobot robot) {
        await().atMost(Duration.ofSeconds(10)).until(() -> WaitForAsyncUtils.asyncFx(() ->
                window.controller().tabs().getTabs().stream().anyMatch(t -> "routesTab".equals(t.getId()))).get());
        fx.onFx(() -> window.controller().select("Routes"));
        fx.waitFor("#split-slider-0");
    }

    @Test
    void theSplitPanelShowsTheArmsAndItsSliderSetsTheEnginesSplit(FxRobot robot) throws Exception {
        showRoutes(robot);
        assertThat(fx.text("#split-title-0")).isEqualTo("Route 0 · /");
        assertThat(fx.text("#split-guard-0")).startsWith("guard: ");
        assertThat(fx.text("#split-judgement-0"))
                .isEqualTo("too few requests to judge: stable has 0, canary has 0 of the 50 the guard needs in the"
                        + " last minute");
        assertThat(fx.text("#split-mirror-0")).startsWith(
                "mirror 100% of requests to shadow: 0 sent");
        Slider slider = fx.lookup("#split-slider-0", Slider.class);
        assertThat(fx.onFx(() -> slider.getValue())).isEqualTo(10);

        // a drag: the engine follows while dragging and has the final value on release
        fx.onFx(() -> {
            slider.setValueChanging(true);
            slider.setValue(20);
            slider.setValue(30);
            slider.setValue(40);
            slider.setValueChanging(false);
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> weights().equals(List.of(60, 40)));
        fx.until(Duration.ofSeconds(5), () -> slider.getValue() == 40);

        // undo puts the split the drag began from back
        fx.onFx(() -> window.controller().backends().undo());
        await().atMost(Duration.ofSeconds(5)).until(() -> weights().equals(List.of(90, 10)));

        robot.clickOn("#split-rollback-0");
        await().atMost(Duration.ofSeconds(5)).until(() -> weights().get(1) == 0);
        await().atMost(Duration.ofSeconds(5)).until(() -> WaitForAsyncUtils.asyncFx(slider::getValue).get() == 0);

        robot.clickOn("#split-promote-0");
        await().atMost(Duration.ofSeconds(5)).until(() -> weights().get(0) == 0 && weights().get(1) > 0);
    }

    @Test
    void theLiveStageShowsEveryPoolTheRouteSendsTo(FxRobot robot) throws Exception {
        fx.onFx(() -> window.controller().select("Live"));
        for (String card : List.of("stable-1", "stable-2", "canary-1", "shadow-1")) {
            fx.waitFor("#live-card-" + card);
        }
        RunningFulcrum.Answer a = fulcrum.proxied("/one");
        assertThat(a.header("X-Fulcrum-Backend")).isIn("stable-1", "stable-2", "canary-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> WaitForAsyncUtils.asyncFx(() ->
                window.controller().live().model().flights().stream().anyMatch(f -> f.mirror()
                        && "shadow-1".equals(f.destination()))).get());
        assertThat(WaitForAsyncUtils.asyncFx(() -> window.controller().live().model().requests()).get())
                .as("the mirrored copy is not the client's").isEqualTo(1);
        Tab live = fx.onFx(() -> window.controller().tabs().getTabs().get(0));
        assertThat(fx.onFx(live::getText)).isEqualTo("Live");
    }
}
