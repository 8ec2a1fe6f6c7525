package dev.fulcrum.ui;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.backends.BackendRow;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javafx.scene.control.ComboBox;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/** The pool selector lists the engine's pools and the views follow it. */
@Timeout(60)
class PoolSelectorTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private RunningFulcrum fulcrum;
    private MainWindow window;

    @BeforeEach
    void open() {
        FulcrumConfig c = RunningFulcrum.demoConfig(StrategySpec.of(StrategySpec.ROUND_ROBIN), BreakerConfig.DEFAULT,
                List.of(demo("web-1", 1, 0, 0)));
        c = c.withPools(Map.of("api", new PoolConfig(StrategySpec.of(StrategySpec.ROUND_ROBIN), List.of(),
                List.of(demo("api-1", 1, 0, 0), demo("api-2", 1, 0, 0)))));
        fulcrum = RunningFulcrum.wholeApp(c).start();
        window = fx.open(fulcrum);
    }

    @Test
    void choosingAPoolShowsOnlyItsBackends(FxRobot robot) {
        // given the default pool shown
        @SuppressWarnings("unchecked")
        ComboBox<String> pools = fx.lookup("#poolSelector", ComboBox.class);
        fx.until(() -> pools.getItems().equals(List.of("default", "api")));
        fx.until(Duration.ofSeconds(5), () -> ids().equals(List.of("web-1")));

        // when api is chosen
        robot.interact(() -> pools.setValue("api"));

        // then the table shows api's backends only, and new backends would go to api
        fx.until(Duration.ofSeconds(5), () -> ids().equals(List.of("api-1", "api-2")));
        assertThat(window.session().pool()).isEqualTo("api");
    }

    private List<String> ids() {
        return window.controller().backends().viewModel().rows().stream().map(BackendRow::id).toList();
    }
}
