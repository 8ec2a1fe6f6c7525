package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.engine.BackendState;
import dev.fulcrum.testkit.FreePort;
import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.admin.OperatorFiguresApiTest;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.backends.BackendRow;
import java.time.Duration;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The figures the window gives an operator, against what clients and the engine saw: the status bar's errors, a
 * backend's state after an ejection, the Live tab's sentence while paused.
 */
@Timeout(90)
class OperatorFiguresTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private static final java.util.regex.Pattern FIGURES =
            java.util.regex.Pattern.compile("(\\d+) of (\\d+) total");

    /**
     * curl saw 670 of 670 answered 200, and the status bar's errors rose from 30 to 40: each retried request's first
     * attempt, to a backend nothing listened on, was counted as an error.
     */
    @Test
    void requestsRetriedAndAnswered200AreNoErrorsInTheStatusBar(FxRobot robot) throws Exception {
        RunningFulcrum fulcrum = RunningFulcrum.wholeApp(OperatorFiguresApiTest.retryingConfig("gone", "http://127.0.0.1:" + FreePort.loopback(),
                "{\"enabled\": false}")).start();
        fx.open(fulcrum);
        Label errors = (Label) fx.waitFor("#totalErrors");

        // when 20 GETs go through, about half of them first to the backend that refuses connections, and all are
        // answered 200
        for (int i = 0; i < 20; i++) {
            assertThat(fulcrum.proxied("/hello").status()).isEqualTo(200);
        }

        // then the status bar counts 20 requests and no error
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            java.util.regex.Matcher m = FIGURES.matcher(fx.onFx(errors::getText));
            return m.find() && Long.parseLong(m.group(2)) >= 20;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx.onFx(errors::getText)).contains("0 of 20 total").startsWith("errors 0.0/s");
    }

    /**
     * A backend ejected by passive detection, with active checks off, read UP after its ejection though nothing
     * listened there: it is back in rotation (the engine's design, as nginx's fail_timeout), but unverified until a
     * request to it succeeds.
     */
    @Test
    void aBackendBackFromAnEjectionWithNoHealthChecksReadsUnverifiedUntilARequestToItSucceeds(FxRobot robot)
            throws Exception {
        RecordingBackend flaky = fx.closeAfter(new RecordingBackend("flaky"));
        flaky.down();
        RunningFulcrum fulcrum = RunningFulcrum.wholeApp(OperatorFiguresApiTest.retryingConfig("flaky", flaky.url(), "{\"enabled\": true,"
                + " \"consecutiveFailures\": 2, \"baseEjectionMs\": 200, \"maxEjectionPercent\": 50}")).start();
        MainWindow window = fx.open(fulcrum);
        fx.waitFor("#row-flaky");
        @SuppressWarnings("unchecked")
        TableView<BackendRow> table = fx.lookup("#backendsTable", TableView.class);

        // when its requests fail until it is ejected, and the ejection ends with nothing listening there
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            assertThat(fulcrum.proxied("/hello").status()).isEqualTo(200);
            return fulcrum.backend("flaky").state() == BackendState.EJECTED;
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> fulcrum.backend("flaky").state() == BackendState.UP);

        // then the window, once it shows a sample taken after the ejection ended, does not say UP but unverified
        await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(() -> table.getItems().stream()
                .anyMatch(r -> r.id().equals("flaky") && r.info().timesEjected() > 0
                        && !r.info().state().equals("EJECTED"))));
        assertThat(AttachedEngineGoneTest.cell(table, "State", "flaky")).isEqualTo("UP (unverified)");
        assertThat(AttachedEngineGoneTest.cell(table, "State", "demo-a")).isEqualTo("UP");
        fx.onFx(() -> window.controller().select("Health"));
        Label health = (Label) fx.waitFor("#healthState-flaky");
        assertThat(fx.onFx(health::getText)).isEqualTo("UP (unverified)");
        fx.onFx(() -> window.controller().select("Backends"));

        // and once a request to it succeeds, it is UP
        flaky.up();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            assertThat(fulcrum.proxied("/hello").status()).isEqualTo(200);
            return flaky.requests.get() > 0;
        });
        await().atMost(Duration.ofSeconds(10)).until(() ->
                AttachedEngineGoneTest.cell(table, "State", "flaky").equals("UP"));
    }

    /** Dragging the timeline back read "paused: 0 requests since", the sentence ending on "since". */
    @Test
    void theLiveTabSaysSinceWhenItIsPaused(FxRobot robot) {
        MainWindow window = fx.open(RunningFulcrum.demoApp());
        fx.onFx(() -> window.controller().select("Live"));
        fx.waitFor("#live-card-demo-a");
        Label rate = fx.lookup("#liveRate", Label.class);
        TimeMachine machine = window.session().timeMachine();

        // when the timeline is dragged back a little
        robot.interact(() -> machine.viewAt(machine.newest() - 1));

        // then the Live tab says how many requests came since when
        await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(rate::getText)
                .startsWith("paused"));
        assertThat(fx.onFx(rate::getText))
                .matches("paused: [\\d,]+ requests since \\d\\d:\\d\\d:\\d\\d");
    }
}
