package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.workshop.WorkshopContext;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javafx.scene.control.Tab;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * The window's workshop tabs: Traffic is built with the window (the Live toolbar drives its generator), Side by side,
 * Why this backend and Scenarios only when first selected, each then whole and working.
 */
@Timeout(60)
class WorkshopTabsInWindowTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private MainWindow window;

    @BeforeEach
    void open() {
        RunningFulcrum fulcrum = fx.closeAfter(RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(
                StrategySpec.of(StrategySpec.ROUND_ROBIN), BreakerConfig.DEFAULT,
                List.of(RunningFulcrum.demo("demo-a", 1, 0, 0)))).start());
        window = fx.show(new UiSession(new InProcessEngineClient(fulcrum.app()), "embedded engine (test)"),
                WorkshopContext.embedded(fulcrum.app(), resource -> { }), null);
    }

    @Test
    void onlyTrafficIsBuiltWithTheWindowAndEachOtherTabWhenFirstSelected(FxRobot robot) {
        Map<String, Tab> tabs = fx.onFx(() -> window.controller().tabs().getTabs().stream()
                .filter(t -> t.getId() != null && t.getId().startsWith("workshop"))
                .collect(Collectors.toMap(Tab::getId, t -> t)));
        assertThat(tabs).containsOnlyKeys("workshopTrafficTab", "workshopSideBySideTab", "workshopWhyTab",
                "workshopScenariosTab");
        assertThat(fx.onFx(() -> tabs.get("workshopTrafficTab").getContent())).isNotNull();
        for (String lazy : List.of("workshopSideBySideTab", "workshopWhyTab", "workshopScenariosTab")) {
            assertThat(fx.onFx(() -> tabs.get(lazy).getContent())).as(lazy).isNull();
        }
        assertThat(robot.lookup("#sbsRun").tryQuery()).isEmpty();

        for (String[] tabAndControl : new String[][] {{"Side by side", "#sbsRun"}, {"Why this backend", "#whyClientIp"},
                {"Scenarios", "#openScenario"}}) {
            robot.interact(() -> window.controller().select(tabAndControl[0]));
            assertThat(robot.lookup(tabAndControl[1]).tryQuery()).as(tabAndControl[0]).isPresent();
        }
        // built once: selecting a tab again keeps its view (and what was typed in it)
        javafx.scene.Node sbs = fx.onFx(() -> tabs.get("workshopSideBySideTab").getContent());
        robot.interact(() -> window.controller().select("Live"));
        robot.interact(() -> window.controller().select("Side by side"));
        assertThat(fx.onFx(() -> tabs.get("workshopSideBySideTab").getContent())).isSameAs(sbs);
    }
}
