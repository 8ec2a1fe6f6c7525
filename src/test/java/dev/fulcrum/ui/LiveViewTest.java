package dev.fulcrum.ui;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.RequestSource;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.live.Flight;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.Slider;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** The Live stage, Present mode and the time machine, in the real window against a real engine and real requests. */
@Timeout(60)
class LiveViewTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private RunningFulcrum fulcrum;
    private MainWindow window;

    @BeforeEach
    void open() {
        fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.of(StrategySpec.SMOOTH_WRR),
                BreakerConfig.DEFAULT, List.of(demo("demo-a", 1, 0, 0), demo("demo-b", 1, 0, 0)))).start();
        window = fx.open(fulcrum);
        fx.onFx(() -> window.controller().select("Live"));
    }

    private List<String> destinations() throws Exception {
        return WaitForAsyncUtils.asyncFx(() -> {
            List<String> out = new ArrayList<>();
            for (Flight f : window.controller().live().model().flights()) {
                out.add(f.destination());
            }
            return out;
        }).get();
    }

    @Test
    void liveIsTheFirstTabAndARequestBecomesADotBoundForTheBackendThatServedIt(FxRobot robot) throws Exception {
        assertThat(fx.onFx(() -> window.controller().tabs().getTabs().get(0).getText())).isEqualTo("Live");
        fx.waitFor("#live-card-demo-b");

        RunningFulcrum.Answer a = fulcrum.proxied("/one");
        String servedBy = a.header("X-Fulcrum-Backend");

        await().atMost(Duration.ofSeconds(10)).until(() -> destinations().contains(servedBy));
        assertThat(fx.onFx(() -> robot.lookup("#live-weight-demo-a").queryAs(Slider.class).getValue())).isEqualTo(1);
    }

    @Test
    void pausingFreezesTheDotsAndCountsWhatComesMeanwhile(FxRobot robot) throws Exception {
        fx.waitFor("#live-card-demo-a");
        fulcrum.proxied("/before");
        await().atMost(Duration.ofSeconds(10)).until(() -> !destinations().isEmpty());

        robot.clickOn("#live-card-demo-a").type(KeyCode.SPACE);

        assertThat(window.session().timeMachine().live()).isFalse();
        double frozen = WaitForAsyncUtils.asyncFx(() -> window.controller().live().model().now()).get();
        fulcrum.proxied("/while-paused");
        await().atMost(Duration.ofSeconds(5)).until(() -> WaitForAsyncUtils.asyncFx(() ->
                window.controller().live().model().seenWhilePaused()).get() >= 1);
        assertThat(WaitForAsyncUtils.asyncFx(() -> window.controller().live().model().now()).get()).isEqualTo(frozen);

        robot.type(KeyCode.SPACE);

        assertThat(window.session().timeMachine().live()).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> WaitForAsyncUtils.asyncFx(() ->
                window.controller().live().model().now()).get() > frozen);
    }

    @Test
    void returningToLiveCountsWhatCameMeanwhileWithoutDrawingItAsClumps(FxRobot robot) throws Exception {
        // given the stage reading requests, then another tab selected while 200 requests go through
        fx.waitFor("#live-card-demo-a");
        fulcrum.proxied("/first");
        await().atMost(Duration.ofSeconds(10)).until(() -> requestsSeen() >= 1);
        fx.onFx(() -> window.controller().select("Backends"));
        long seenBefore = requestsSeen();
        long dotsBefore = WaitForAsyncUtils.asyncFx(() -> window.controller().live().model().dots()).get();
        try (RequestSource written = window.session().client().requests()) {
            for (int i = 0; i < 200; i++) {
                fulcrum.proxied("/away/" + i);
            }
            // every one of them is in the proxy's request rings (a request is written there as it completes)
            long[] found = {0};
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                RequestSource.Batch b = written.poll();
                found[0] += b.requests().size() + b.dropped();
                return found[0] >= 200;
            });
        }

        // when Live is selected again and has read what came meanwhile
        fx.onFx(() -> window.controller().select("Live"));
        await().atMost(Duration.ofSeconds(10)).until(() -> requestsSeen() >= seenBefore + 200);

        // then those requests were counted, not drawn: no dot left for them, and one dot still stands for one request
        assertThat(WaitForAsyncUtils.asyncFx(() -> window.controller().live().model().dots()).get())
                .isEqualTo(dotsBefore);
        assertThat(WaitForAsyncUtils.asyncFx(() -> window.controller().live().model().scale()).get()).isEqualTo(1);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx.text("#liveScale")).startsWith("1 dot = 1 request");
    }

    private long requestsSeen() throws Exception {
        return WaitForAsyncUtils.asyncFx(() -> window.controller().live().model().requests()).get();
    }

    /**
     * The frames counter's busy note comes and goes with the machine's load; on the stage, over the client's column, it
     * moves nothing, where in the wrapping tool bar it took a line of its own and moved the stage down each time.
     */
    @Test
    void theFramesCountersBusyNoteMovesNothing() {
        Node stage = fx.waitFor("#liveStage");
        Label frames = (Label) fx.waitFor("#liveFrames");
        assertThat(fx.onFx(() -> frames.getParent() == stage)).isTrue();
        javafx.geometry.Bounds before = fx.onFx(() -> stage.localToScene(stage.getLayoutBounds()));

        fx.onFx(() -> {
            frames.setText(Texts.t("live.frames.busy", "4"));
            window.scene().getRoot().applyCss();
            window.scene().getRoot().layout();
        });

        assertThat(fx.onFx(() -> stage.localToScene(stage.getLayoutBounds()))).isEqualTo(before);
        assertThat(fx.onFx(() -> frames.getBoundsInParent().getMaxX())).isLessThan(before.getWidth() / 2);
    }

    @Test
    void presentModeTogglesTheProjectorStyleAndHidesTheAdminChrome(FxRobot robot) {
        robot.type(KeyCode.F11);

        fx.until(Duration.ofSeconds(5), () -> window.present().on());
        assertThat(fx.onFx(() -> List.copyOf(window.scene().getRoot().getStyleClass()))).contains("present");
        assertThat(fx.onFx(() -> robot.lookup("#statusBar").query().isVisible())).isFalse();

        robot.type(KeyCode.F11);

        assertThat(window.present().on()).isFalse();
        assertThat(fx.onFx(() -> List.copyOf(window.scene().getRoot().getStyleClass()))).doesNotContain("present");
        assertThat(fx.onFx(() -> robot.lookup("#statusBar").query().isVisible())).isTrue();
    }

    @Test
    void theTrainersKeysReweightAndTripTheSelectedBackend(FxRobot robot) {
        robot.clickOn(fx.waitFor("#live-card-demo-a"));

        robot.type(KeyCode.EQUALS).type(KeyCode.EQUALS);
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.backend("demo-a").weight() >= 2);

        robot.type(KeyCode.T);
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.app().demos().get("demo-a").errorRate() == 1.0);
        robot.type(KeyCode.H);
        await().atMost(Duration.ofSeconds(5)).until(() -> fulcrum.app().demos().get("demo-a").errorRate() == 0.0);
    }

    @Test
    void draggingTheTimelineBackShowsEveryViewAsItWas(FxRobot robot) throws Exception {
        fx.until(() -> window.session().state() != null && window.session().state().backend("demo-b") != null);
        long before = System.currentTimeMillis();
        fx.until(Duration.ofSeconds(5), () -> window.session().timeMachine().newest() >= before);
        fulcrum.engine().setWeight("demo-b", 9);
        fx.until(Duration.ofSeconds(5), () -> window.session().state().backend("demo-b").weight() == 9);

        WaitForAsyncUtils.asyncFx(() -> window.session().timeMachine().viewAt(before)).get();

        assertThat(window.session().state().backend("demo-b").weight()).as("the weight before the change").isEqualTo(1);
        assertThat(fx.text("#timelineWhen")).contains("s ago");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx.text("#live-effective-demo-b")).isEqualTo("1");

        robot.clickOn("#timelineLive");

        assertThat(window.session().timeMachine().live()).isTrue();
        fx.until(Duration.ofSeconds(5), () -> window.session().state().backend("demo-b").weight() == 9);
    }
}
