package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.testkit.RunningFulcrum;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The window's commands keep a backend's labels: added with them, and brought back with them when a removal is undone. */
@ExtendWith(ApplicationExtension.class)
class BackendCommandsLabelsTest {
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

    @Test
    void aRemovedBackendComesBackWithItsLabelsOnUndo() {
        // given a backend added with labels, nothing in flight on it
        commands.add("default", "api-9", "http://127.0.0.1:9", 2, Map.of("zone", "b", "cost", "0.2"), null, null);
        commandsDone();
        assertThat(fulcrum.backend("api-9").labels()).isEqualTo(Map.of("zone", "b", "cost", "0.2"));
        EngineState.BackendInfo row = client.state().backend("api-9");

        // when it is removed, gone from the engine, and the removal undone
        commands.remove(row);
        commandsDone();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            fulcrum.engine().tick();
            return fulcrum.backend("api-9") == null;
        });
        commands.undo();
        commandsDone();

        // then it is back as it was, labels included
        assertThat(fulcrum.backend("api-9")).isNotNull();
        assertThat(fulcrum.backend("api-9").labels()).isEqualTo(Map.of("zone", "b", "cost", "0.2"));
        assertThat(fulcrum.backend("api-9").weight()).isEqualTo(2);
    }
}
