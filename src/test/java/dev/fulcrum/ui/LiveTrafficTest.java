package dev.fulcrum.ui;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.demo.TrafficSnapshot;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.live.LiveModel;
import dev.fulcrum.ui.workshop.WorkshopContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * Traffic from the Live tab: its toolbar starts and stops the Traffic tab's generator, one run seen the same in both,
 * and the gentle traffic the window opens with on its default config draws a dot per request with nothing clicked.
 * Of the workshop's tabs only Traffic is built with the window; Side by side, Why this backend and Scenarios when first
 * selected.
 */
@Timeout(90)
class LiveTrafficTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private MainWindow window;
    private RunningFulcrum fulcrum;

    @BeforeEach
    void open() {
        fulcrum = fx.closeAfter(RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(
                StrategySpec.of(StrategySpec.ROUND_ROBIN), BreakerConfig.DEFAULT,
                List.of(demo("demo-a", 1, 0, 0), demo("demo-b", 1, 0, 0)))).start());
        window = fx.show(new UiSession(new InProcessEngineClient(fulcrum.app()), "embedded engine (test)"),
                WorkshopContext.embedded(fulcrum.app(), resource -> { }), null);
    }

    @Test
    void startAndStopOnTheLiveToolbarDriveTheTrafficTabsRunAndStopThereStopsIt(FxRobot robot) {
        // given the window on Live, the proxy's address known
        assertThat(fx.onFx(() -> window.controller().tabs().getSelectionModel().getSelectedItem().getText()))
                .isEqualTo("Live");
        fx.until(() -> !button("#liveTraffic").isDisabled());
        assertThat(fx.onFx(() -> button("#liveTraffic").getText())).isEqualTo("Start traffic");

        // when Start traffic is clicked on the Live toolbar
        robot.clickOn("#liveTraffic");

        // then the Traffic tab's generator runs with the Traffic tab's settings, the Traffic tab shows it, dots fly
        fx.until(() -> snapshot() != null && live().dots() > 0);
        assertThat(snapshot().targetRate()).isEqualTo(SessionTraffic.DEFAULT_RATE);
        assertThat(fx.onFx(() -> button("#liveTraffic").getText())).isEqualTo("Stop traffic");
        assertThat(fx.onFx(() -> button("#trafficStart").isDisabled())).isTrue();
        assertThat(fx.onFx(() -> button("#trafficStop").isDisabled())).isFalse();

        // when Stop is clicked on the Traffic tab, the Live toolbar offers Start again
        selectTraffic(robot);
        robot.clickOn("#trafficStop");
        await().atMost(Duration.ofSeconds(15)).until(() -> !running());
        assertThat(fx.onFx(() -> button("#liveTraffic").getText())).isEqualTo("Start traffic");
        assertThat(snapshot().state()).isEqualTo(TrafficSnapshot.State.DONE);

        // and Stop traffic on the Live toolbar stops a run the Live toolbar started
        robot.interact(() -> window.controller().select("Live"));
        robot.clickOn("#liveTraffic");
        await().atMost(Duration.ofSeconds(10)).until(() -> running() && snapshot().state() == TrafficSnapshot.State.RUNNING);
        robot.clickOn("#liveTraffic");
        await().atMost(Duration.ofSeconds(15)).until(() -> !running());
        assertThat(fx.onFx(() -> button("#trafficStart").isDisabled())).isFalse();
    }

    @Test
    void gentleTrafficDrawsADotPerRequestWithNothingClickedAndTheSessionStopsIt(FxRobot robot) {
        // when the window starts gentle traffic, as it does on the default config, before the proxy's address is known
        fx.onFx(() -> window.session().traffic().startGentle());

        // then it runs at the gentle rate, the Traffic tab shows it running, and Live draws one dot per request
        fx.until(Duration.ofSeconds(15), () -> snapshot() != null && live().dots() >= 5);
        assertThat(snapshot().targetRate()).isEqualTo(SessionTraffic.GENTLE_RATE);
        assertThat(snapshot().durationNanos()).isEqualTo(Duration.ofSeconds(SessionTraffic.GENTLE_DURATION_S).toNanos());
        assertThat(fx.onFx(() -> live().scale())).isEqualTo(1);
        assertThat(fx.onFx(() -> button("#liveTraffic").getText())).isEqualTo("Stop traffic");
        selectTraffic(robot);
        fx.until(Duration.ofSeconds(5), () -> robot.lookup("#trafficStatus").queryAs(Label.class).getText()
                .startsWith("running"));

        // when the session's traffic is stopped (what a lesson does as it starts to play)
        fx.onFx(() -> window.session().traffic().stop());

        // then the run ends and every Start is offered again
        await().atMost(Duration.ofSeconds(15)).until(() -> !running());
        assertThat(fx.onFx(() -> button("#trafficStart").isDisabled())).isFalse();
        assertThat(fx.onFx(() -> button("#liveTraffic").getText())).isEqualTo("Start traffic");
    }

    @Test
    void aRunGoesOnInTheWindowBuiltAgainInAnotherLanguage(FxRobot robot) {
        // given gentle traffic going
        fx.onFx(() -> window.session().traffic().startGentle());
        fx.until(Duration.ofSeconds(15), () -> snapshot() != null && snapshot().sent() > 0);
        UiSession first = window.session();

        // when the window is built again on the same engine, as a pick in the language box has it (FulcrumWindow)
        SessionTraffic.Run run = fx.onFx(() -> {
            SessionTraffic.Run going = first.handOver();
            window.close();
            return going;
        });
        assertThat(run).isNotNull();
        UiSession again = new UiSession(first.client(), "embedded engine (test)");
        window = fx.show(again, WorkshopContext.embedded(fulcrum.app(), resource -> { }), null);
        fx.onFx(() -> again.traffic().adopt(run));

        // then the same run goes on there: Live draws its dots, its toolbar offers Stop, the Traffic tab follows it
        long sentBefore = fx.onFx(() -> run.generator().snapshot().sent());
        fx.until(Duration.ofSeconds(15), () -> running() && live().dots() > 0 && snapshot() != null
                && snapshot().sent() > sentBefore);
        assertThat(snapshot().targetRate()).isEqualTo(SessionTraffic.GENTLE_RATE);
        assertThat(fx.onFx(() -> button("#liveTraffic").getText())).isEqualTo("Stop traffic");

        // and Stop in the new window ends it
        fx.onFx(() -> again.traffic().stop());
        await().atMost(Duration.ofSeconds(15)).until(() -> !running());
        assertThat(run.generator().done()).isDone();
    }

    @Test
    void onlyTrafficIsBuiltWithTheWindowAndEachOtherTabWhenFirstSelected(FxRobot robot) {
        Map<String, Tab> tabs = fx.onFx(() -> window.controller().tabs().getTabs().stream()
                .filter(t -> t.getId() != null && t.getId().startsWith("workshop"))
                .collect(Collectors.toMap(Tab::getId, t -> t)));
        assertThat(tabs).containsOnlyKeys("workshopTrafficTab", "workshopSideBySideTab", "workshopWhyTab",
                "workshopScenariosTab");
        ParkedTabs views = window.controller().parkedTabs();
        assertThat(fx.onFx(() -> views.content(tabs.get("workshopTrafficTab")))).isNotNull();
        for (String lazy : List.of("workshopSideBySideTab", "workshopWhyTab", "workshopScenariosTab")) {
            assertThat(fx.onFx(() -> views.content(tabs.get(lazy)))).as(lazy).isNull();
        }
        assertThat(fx.onFx(() -> robot.lookup("#sbsRun").tryQuery())).isEmpty();

        for (String[] tabAndControl : new String[][] {{"Side by side", "#sbsRun"}, {"Why this backend", "#whyClientIp"},
                {"Scenarios", "#openScenario"}}) {
            robot.interact(() -> window.controller().select(tabAndControl[0]));
            assertThat(fx.onFx(() -> robot.lookup(tabAndControl[1]).tryQuery())).as(tabAndControl[0]).isPresent();
        }
        // built once: selecting a tab again keeps its view (and what was typed in it)
        javafx.scene.Node sbs = fx.onFx(() -> views.content(tabs.get("workshopSideBySideTab")));
        robot.interact(() -> window.controller().select("Live"));
        assertThat(fx.onFx(() -> views.content(tabs.get("workshopSideBySideTab")))).isSameAs(sbs);
        robot.interact(() -> window.controller().select("Side by side"));
        assertThat(fx.onFx(() -> tabs.get("workshopSideBySideTab").getContent())).isSameAs(sbs);
    }

    private void selectTraffic(FxRobot robot) {
        robot.interact(() -> {
            Tab traffic = window.controller().tabs().getTabs().stream()
                    .filter(t -> "workshopTrafficTab".equals(t.getId())).findFirst().orElseThrow();
            window.controller().tabs().getSelectionModel().select(traffic);
        });
    }

    /** A button on Live or on the Traffic tab, whichever is shown. FX thread. */
    private Button button(String query) {
        return (Button) WindowHarness.anywhere(window, query);
    }

    private LiveModel live() {
        return window.controller().live().model();
    }

    private TrafficSnapshot snapshot() {
        return fx.onFx(() -> window.session().traffic().snapshotProperty().get());
    }

    private boolean running() {
        return fx.onFx(() -> window.session().traffic().runningProperty().get());
    }
}
