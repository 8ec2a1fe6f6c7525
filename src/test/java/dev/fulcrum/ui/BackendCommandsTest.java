package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.engine.BackendState;
import dev.fulcrum.testkit.RunningFulcrum;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The operator acts on a row showing the last sample, which may not have the engine's newest state yet: what undo
 * restores follows the engine at the moment the command ran, not the row.
 */
@ExtendWith(ApplicationExtension.class)
class BackendCommandsTest {
    private final RunningFulcrum fulcrum = RunningFulcrum.demoApp();
    private final InProcessEngineClient client = new InProcessEngineClient(fulcrum.app());
    private final UiSession session = new UiSession(client, "test");
    private final BackendCommands commands = new BackendCommands(session);

    @Start
    void start(Stage stage) {
        // the toolkit only: the commands hand their results over on the FX thread
    }

    @AfterEach
    void stop() {
        session.close();
        fulcrum.close();
    }

    /** Waits until the worker has run every command so far and the FX thread has what they handed over. */
    private void commandsDone() {
        CountDownLatch done = new CountDownLatch(1);
        session.run("test barrier", done::countDown);
        await().atMost(Duration.ofSeconds(10)).until(() -> done.getCount() == 0);
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Runs the operator's command, then Ctrl+Z's undo, each once the engine has what came before. */
    private void doneThenUndone(Runnable command) {
        command.run();
        commandsDone();
        commands.undo();
        commandsDone();
    }

    @Test
    void undoingARemovalFromARowThatHasNotSeenTheDrainBringsTheBackendBackDrained() {
        EngineState.BackendInfo row = client.state().backend("demo-a");
        client.drain("demo-a");
        assertThat(fulcrum.backend("demo-a").state()).isEqualTo(BackendState.DRAINED);

        doneThenUndone(() -> commands.remove(row));

        assertThat(row.state()).isEqualTo("UP");
        assertThat(fulcrum.backend("demo-a").state()).isEqualTo(BackendState.DRAINED);
    }

    @Test
    void drainingFromARowThatHasNotSeenTheEnableCanBeUndone() {
        client.drain("demo-a");
        EngineState.BackendInfo row = client.state().backend("demo-a");
        client.enable("demo-a");

        doneThenUndone(() -> commands.drain(row));

        assertThat(row.state()).isEqualTo("DRAINED");
        assertThat(fulcrum.backend("demo-a").state()).isEqualTo(BackendState.UP);
    }
}
