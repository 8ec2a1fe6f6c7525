package dev.fulcrum.ui;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import java.time.Duration;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Label;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** The breaker and health views against a real engine whose demo backend fails every request. */
@Timeout(60)
class BreakersViewTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private RunningFulcrum fulcrum;
    private MainWindow window;

    @BeforeEach
    void open() {
        // a small window (5 calls) that opens at 50% failures and stays open for a minute
        BreakerConfig breaker = new BreakerConfig(true, 5, 5, 50, 2000, 100, 60_000, 1);
        fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.of(StrategySpec.ROUND_ROBIN), breaker,
                List.of(demo("flaky", 1, 0, 1.0)))).start();
        window = fx.open(fulcrum);
    }

    @Test
    void aBackendThatFailsEveryCallShowsItsBreakerOpen(FxRobot robot) {
        // given the Breakers tab showing flaky CLOSED
        robot.interact(() -> window.controller().select("Breakers"));
        fx.waitFor("#breakerState-flaky");
        assertThat(fx.text("#breakerState-flaky")).isEqualTo("CLOSED");

        // when requests fail until the breaker opens
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            fulcrum.status("/");
            return fulcrum.backend("flaky").breaker().name().equals("OPEN");
        });

        // then the card says OPEN, lights the OPEN node, counts down to HALF_OPEN and lists the transition
        // (as it is now: a state replayed after the fact has a note of when beside it)
        fx.until(Duration.ofSeconds(5), () ->
                "OPEN".equals(robot.lookup("#breakerState-flaky").queryAs(Label.class).getText())
                        && robot.lookup("#breakerStateNote-flaky").queryAs(Label.class).getText().isEmpty());
        Node card = fx.lookup("#breaker-flaky", Node.class);
        assertThat(fx.onFx(() -> card.lookupAll(".breaker-node").stream().filter(n -> n.getStyleClass().contains("lit"))
                .map(n -> ((Label) n).getText()).toList())).containsExactly("OPEN");
        assertThat(fx.text("#breakerCountdown-flaky")).startsWith("HALF_OPEN in");
        fx.untilAsserted(Duration.ofSeconds(5), () -> assertThat(card.lookupAll(".transition").stream()
                .map(n -> ((Label) n).getText())).anySatisfy(t -> assertThat(t).endsWith("CLOSED → OPEN")));
    }

    @Test
    void theHeaderFollowsTheBreakerSettingsOfAConfigApplied(FxRobot robot) {
        robot.interact(() -> window.controller().select("Breakers"));
        Label header = fx.lookup("#thresholdsLabel", Label.class);
        assertThat(fx.onFx(header::getText)).contains("stays open 60000 ms");

        String config = dev.fulcrum.config.ConfigWriter.toJson(fulcrum.app().currentConfig())
                .replace("\"openMs\": 60000", "\"openMs\": 1500");
        assertThat(config).contains("\"openMs\": 1500");
        assertThat(fulcrum.app().applyConfig(config)).isEmpty();

        fx.untilAsserted(() -> assertThat(header.getText())
                .contains("stays open 1500 ms"));
    }

    @Test
    void aCardShowsItsRatesAndThresholdsWhole(FxRobot robot) {
        // given the Breakers tab, the card's widest figures shown: slow calls open at 100%
        robot.interact(() -> window.controller().select("Breakers"));
        fx.waitFor("#breakerState-flaky");
        WaitForAsyncUtils.waitForFxEvents();

        // then no text of the card is cut with an ellipsis ("0% (opens at 10…")
        List<String> cut = new java.util.ArrayList<>();
        robot.interact(() -> {
            for (Node n : robot.lookup("#breaker-flaky").query().lookupAll(".text")) {
                if (n instanceof javafx.scene.text.Text t && n.getParent() instanceof javafx.scene.control.Labeled l
                        && l.getText() != null && !l.getText().isEmpty() && !l.getText().equals(t.getText())) {
                    cut.add(l.getText() + " -> " + t.getText());
                }
            }
        });
        assertThat(cut).as("texts cut on the breaker card").isEmpty();
    }

    @Test
    void whileItsTabIsHiddenTheViewRestsAndSelectingItShowsTheStateAtOnce(FxRobot robot) {
        // given another tab selected
        robot.interact(() -> window.controller().select("Backends"));

        // when the breaker opens and the window has already sampled that
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            fulcrum.status("/");
            return fulcrum.backend("flaky").breaker().name().equals("OPEN");
        });
        fx.until(Duration.ofSeconds(5), () -> window.session().state() != null
                && window.session().state().backends().stream().anyMatch(b -> b.breaker() != null
                && "OPEN".equals(b.breaker().state())));

        // then the hidden view built nothing for it
        assertThat(fx.onFx(() -> robot.lookup("#breakerState-flaky").tryQuery())).isEmpty();

        // and selecting the tab shows OPEN without waiting for the next sample
        robot.interact(() -> window.controller().select("Breakers"));
        assertThat(fx.text("#breakerState-flaky")).isEqualTo("OPEN");
    }

    @Test
    void theHealthViewBuildsNothingWhileItsTabIsHiddenAndShowsEveryBackendWhenSelected(FxRobot robot) {
        // given another tab selected, and several samples taken since
        robot.interact(() -> window.controller().select("Backends"));
        java.util.concurrent.atomic.AtomicInteger samples = new java.util.concurrent.atomic.AtomicInteger();
        robot.interact(() -> window.session().stateProperty().addListener((o, a, s) -> samples.incrementAndGet()));
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            fulcrum.status("/"); // traffic, so that every sample differs from the one before
            return samples.get() >= 3;
        });

        // then the hidden Health view built no row
        assertThat(fx.onFx(() -> robot.lookup("#health-flaky").tryQuery())).isEmpty();

        // and selecting it shows the backend's row
        robot.interact(() -> window.controller().select("Health"));
        fx.until(Duration.ofSeconds(5), () -> robot.lookup("#health-flaky").tryQuery().isPresent());
    }
}
