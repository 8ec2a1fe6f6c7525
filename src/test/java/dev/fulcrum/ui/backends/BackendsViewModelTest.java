package dev.fulcrum.ui.backends;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.UiSession;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The live weight throttle against a real embedded engine, counted by the engine's own weight events (what the
 * Events tab shows): a drag updates live, and nothing sends a weight the backend already has.
 */
@ExtendWith(ApplicationExtension.class)
@Timeout(60)
class BackendsViewModelTest {
    private RunningFulcrum fulcrum;
    private UiSession session;
    private BackendsViewModel vm;
    private final List<String> weightEvents = new CopyOnWriteArrayList<>();

    @Start
    void start(Stage stage) {
        // no window needed: the session hands its answers to the FX thread, so the toolkit has to run
        fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.of(StrategySpec.ROUND_ROBIN), BreakerConfig.DEFAULT,
                List.of(demo("a", 1, 0, 0), demo("b", 1, 0, 0)))).start();
        fulcrum.engine().subscribe((EngineEvent e) -> {
            if ("weight".equals(e.type())) {
                weightEvents.add(e.backend() + " " + e.from() + "->" + e.to());
            }
        });
        session = new UiSession(new InProcessEngineClient(fulcrum.app()), "test"); // not started: no sampling needed
        vm = new BackendsViewModel(session);
    }

    @AfterEach
    void stop() {
        session.close();
        fulcrum.close();
    }

    /** Every weight event up to a marker sent afterwards through the same worker (so all earlier ones are in). */
    private List<String> weightEventsSoFar(FxRobot robot) {
        robot.interact(() -> vm.commands().sendWeight("b", 7));
        await().atMost(Duration.ofSeconds(5)).until(() -> weightEvents.contains("b 1->7"));
        List<String> seen = List.copyOf(weightEvents);
        return seen.subList(0, seen.indexOf("b 1->7"));
    }

    @Test
    void releasingOnTheWeightTheDragAlreadySentSendsNothingMore(FxRobot robot) {
        // given a at weight 1, dragged to 5 and then to 15 (each sent live)
        robot.interact(() -> {
            vm.weightDragged("a", 1, 5, 0);
            vm.weightDragged("a", 1, 15, BackendsViewModel.DRAG_SEND_INTERVAL_MS);
        });

        // when the slider is released on 15
        robot.interact(() -> vm.weightSet("a", 1, 15));

        // then the engine saw 1->5 and 5->15 only, not a no-op 15->15
        assertThat(weightEventsSoFar(robot)).containsExactly("a 1->5", "a 5->15");
        assertThat(fulcrum.engine().backends().stream().filter(b -> b.id().equals("a")).findFirst().orElseThrow()
                .weight()).isEqualTo(15);
        // and undo still restores the weight before the drag (the history read on the FX thread, which keeps it)
        await().atMost(Duration.ofSeconds(5)).until(() -> WaitForAsyncUtils.asyncFx(() ->
                session.undo().lastProperty().get() != null).get());
        robot.interact(() -> vm.undo());
        await().atMost(Duration.ofSeconds(5)).until(() -> weightEvents.contains("a 15->1"));
    }

    @Test
    void aDragSendsEachWeightOnceAndAReleaseBetweenSendsStillSendsTheFinalOne(FxRobot robot) {
        // given a drag whose first step rounds to the weight a has, then repeats 5, then reaches 12 too soon to send
        robot.interact(() -> {
            long t = 0;
            vm.weightDragged("a", 1, 1, t);
            vm.weightDragged("a", 1, 5, t += BackendsViewModel.DRAG_SEND_INTERVAL_MS);
            vm.weightDragged("a", 1, 5, t += BackendsViewModel.DRAG_SEND_INTERVAL_MS);
            vm.weightDragged("a", 1, 12, t + 1);
        });

        // when it is released on 12
        robot.interact(() -> vm.weightSet("a", 1, 12));

        // then 5 went once, live, and 12 on release
        assertThat(weightEventsSoFar(robot)).containsExactly("a 1->5", "a 5->12");
    }

    @Test
    void aSetToTheCurrentWeightSendsNothing(FxRobot robot) {
        // when a click or key leaves the weight where it is
        robot.interact(() -> vm.weightSet("a", 1, 1));

        // then no weight event at all
        assertThat(weightEventsSoFar(robot)).isEmpty();
    }
}
