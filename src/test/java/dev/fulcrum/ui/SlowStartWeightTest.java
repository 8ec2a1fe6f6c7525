package dev.fulcrum.ui;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javafx.scene.control.Label;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * During slow start the weight column shows the effective weight beside the configured one, where the strategy
 * reads weights; under one that does not, no ramp is shown, as none is applied.
 */
@Timeout(60)
class SlowStartWeightTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private RunningFulcrum fulcrum;
    private MainWindow window;

    @BeforeEach
    void open() {
        // weight-aware, so slow start applies (a weight-blind strategy shows no ramp: the last test)
        FulcrumConfig c = RunningFulcrum.demoConfig(StrategySpec.of(StrategySpec.SMOOTH_WRR), BreakerConfig.DEFAULT,
                List.of(demo("old", 1, 0, 0)));
        // a ten-minute ramp: the new backend stays well below its weight for the whole test
        c = new FulcrumConfig(c.proxy(), c.admin(), c.strategy(), c.backends(), c.demoBackends(), c.healthCheck(),
                c.outlierDetection(), c.circuitBreaker(), c.retries(), c.timeouts(), 600_000, c.stickySession(),
                c.pools(), c.routes());
        fulcrum = RunningFulcrum.wholeApp(c).start();
        window = fx.open(fulcrum);
    }

    @Test
    void aNewBackendShowsItsRampingEffectiveWeight(FxRobot robot) {
        // given a backend added with weight 10 while slow start is on
        window.session().client().addBackend("default", "late", "http://127.0.0.1:9", 10);

        // then its row says weight 10 and, beside it, the lower weight it has now
        fx.until(() -> robot.lookup("#effective-late").tryQuery().isPresent());
        fx.untilAsserted(Duration.ofSeconds(5), () -> assertThat(
                robot.lookup("#effective-late").queryAs(Label.class).getText()).matches("10 \\(now [0-9.]+\\)"));
        assertThat(fx.text("#effective-old")).isEqualTo("1");
    }

    @Test
    void underRoundRobinANewBackendShowsNoRampAsNoneApplies(FxRobot robot) {
        // given round robin, which picks without reading weights
        window.session().client().setStrategy("default", Map.of("type", StrategySpec.ROUND_ROBIN));

        // when a backend is added with weight 10 while slow start is on
        window.session().client().addBackend("default", "late", "http://127.0.0.1:9", 10);

        // then its row says weight 10 and nothing else: no ramp that would change no pick
        fx.until(() -> robot.lookup("#effective-late").tryQuery().isPresent());
        fx.untilAsserted(Duration.ofSeconds(5), () -> assertThat(
                robot.lookup("#effective-late").queryAs(Label.class).getText()).isEqualTo("10"));
        assertThat(fulcrum.backend("late").effectiveWeight()).isEqualTo(10.0);
        // and the slider says the weight is ignored, which it is not under a strategy that reads weights
        fx.until(Duration.ofSeconds(5), () -> robot.lookup("#weight-ignored-late").queryAs(Label.class).isVisible());
        window.session().client().setStrategy("default", Map.of("type", StrategySpec.SMOOTH_WRR));
        fx.until(Duration.ofSeconds(5), () -> !robot.lookup("#weight-ignored-late").queryAs(Label.class).isVisible());
    }
}
