package dev.fulcrum.ui;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.demo.TrafficGenerator;
import dev.fulcrum.demo.TrafficSettings;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/** The Load tab's charts in the real window, against a real engine and real traffic. */
@Timeout(60)
class LoadChartsTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    @Test
    void theErrorAxisReachesTheSpikesTheChartShowsWhenTheTabIsSelectedWhilePaused(FxRobot robot) {
        // given a backend failing every request, breaker off, the window on another tab while it fails
        RunningFulcrum fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.of(StrategySpec.ROUND_ROBIN),
                new BreakerConfig(false, 10, 5, 50, 2000, 100, 5000, 1), List.of(demo("demo-a", 1, 0, 1.0)))).start();
        MainWindow window = fx.open(fulcrum);
        TrafficGenerator traffic = fx.closeAfter(TrafficGenerator.create(TrafficSettings.defaults(URI.create(fulcrum.url()))
                .withRate(20).withDuration(Duration.ofSeconds(60))));
        traffic.start();
        UiSession session = window.session();
        await().atMost(Duration.ofSeconds(15)).until(() -> fx.onFx(() -> errorRate(session.state())) >= 0.99);
        long firstFailing = fx.onFx(() -> session.timeMachine().newest());
        // a second and a half of failing samples: the Load tab holds at least one point of 100% meanwhile
        await().atMost(Duration.ofSeconds(15)).until(() -> fx.onFx(() -> session.timeMachine().newest() >= firstFailing + 1500
                && errorRate(session.state()) >= 0.99));

        // when the timeline is paused and the Load tab selected
        fx.onFx(() -> session.timeMachine().pause());
        fx.onFx(() -> window.controller().select("Load"));

        // then the chart shows the 100% it held, and its axis goes up to it
        @SuppressWarnings("unchecked")
        LineChart<Number, Number> errors = fx.lookup("#errorChart", LineChart.class);
        double highest = fx.onFx(() -> errors.getData().stream().flatMap(s -> s.getData().stream())
                .mapToDouble(d -> d.getYValue().doubleValue()).max().orElse(0));
        assertThat(highest).isEqualTo(100);
        assertThat(fx.onFx(() -> ((NumberAxis) errors.getYAxis()).getUpperBound())).isGreaterThanOrEqualTo(highest);
    }

    private static double errorRate(EngineState s) {
        EngineState.BackendInfo b = s == null ? null : s.backend("demo-a");
        return b == null ? 0 : b.errorRate();
    }
}
