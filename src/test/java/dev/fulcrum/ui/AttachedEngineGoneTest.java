package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.testkit.FreePort;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.time.ManualClock;
import dev.fulcrum.ui.backends.BackendRow;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A window attached to a headless engine that is killed: within about two seconds its rows, the figures of the last
 * answer, are greyed with their actions off, a banner says since when, the Events tab says it went away, and a
 * command's failure says the engine is unreachable in words; started again, the window says it is a new instance and
 * its totals are the new engine's own. The two seconds pass on the window's clock, a {@link ManualClock} the tests
 * move: nothing here waits for time to pass.
 */
@Timeout(60)
class AttachedEngineGoneTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private final ManualClock clock = new ManualClock();
    /** The engine the window is attached to: killed and restarted by the tests, closed last after each. */
    private RunningFulcrum fulcrum;
    private MainWindow window;

    @BeforeEach
    void closeTheEngineLast() {
        fx.closeAfter(() -> {
            if (fulcrum != null) {
                fulcrum.close();
            }
        });
    }

    private UiSession attach(FxRobot robot, String url) {
        window = fx.attach(url, clock);
        fx.onFx(() -> window.controller().select("Backends"));
        fx.waitFor("#row-demo-a");
        return window.session();
    }

    /** The demo app with its admin API on {@code adminPort}. */
    private static RunningFulcrum engineOn(int adminPort) {
        return RunningFulcrum.wholeApp(RunningFulcrum.demoJson(null, RunningFulcrum.QUIET)
                .replace("\"admin\": {\"host\": \"127.0.0.1\", \"port\": 0",
                        "\"admin\": {\"host\": \"127.0.0.1\", \"port\": " + adminPort)).start();
    }

    @Test
    void aRestartedEngineIsSaidToBeANewInstanceAndTheUndoHistoryIsCleared(FxRobot robot) throws Exception {
        int port = FreePort.loopback();
        fulcrum = engineOn(port);
        UiSession session = attach(robot, fulcrum.adminUrl());
        fx.until(Duration.ofSeconds(5), () -> session.staleness().instanceProperty().get() != null);
        robot.interact(() -> session.undo().record(new UndoHistory.Change("weight demo-a 1 -> 5", () -> { })));
        Label banner = fx.lookup("#instanceBanner", Label.class);
        assertThat(fx.onFx(banner::isVisible)).isFalse();

        // when the engine is stopped (and the window's clock moves on past the wait for an answer), and another one
        // started in its place
        fulcrum.close();
        fulcrum = null;
        clock.advanceMillis(Staleness.STALE_AFTER_MS);
        fx.until(Duration.ofSeconds(5), session::stale);
        fulcrum = engineOn(port);

        // then the window says it is a new instance, and nothing of the old one's history can be undone (read once
        // the FX thread has finished showing that answer: the banner shows a moment before the figures go live)
        fx.until(banner::isVisible);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx.onFx(banner::getText)).contains("is a new instance").contains("undo history");
        assertThat(session.undo().lastProperty().get()).isNull();
        assertThat(session.stale()).isFalse();
        assertThat(fx.onFx(() -> robot.lookup("#staleBanner").queryAs(Label.class).isVisible())).isFalse();
    }

    @Test
    void aKilledEngineGreysTheRowsDisablesActionsAndSaysSince(FxRobot robot) {
        fulcrum = RunningFulcrum.demoApp();
        String url = fulcrum.adminUrl();
        UiSession session = attach(robot, url);
        @SuppressWarnings("unchecked")
        TableView<BackendRow> table = fx.lookup("#backendsTable", TableView.class);
        Label banner = fx.lookup("#staleBanner", Label.class);
        assertThat(fx.onFx(banner::isVisible)).isFalse();
        assertThat(fx.onFx(table::isDisabled)).isFalse();

        // when the engine goes away, and two seconds pass on the window's clock
        java.util.Map<String, dev.fulcrum.admin.EngineState.BackendInfo> lastAnswer = new java.util.HashMap<>();
        robot.interact(() -> table.getItems().forEach(r -> lastAnswer.put(r.id(), r.info())));
        fulcrum.close();
        fulcrum = null;
        long gone = clock.nanos();
        clock.advanceMillis(Staleness.STALE_AFTER_MS);

        // then within about two seconds the window says so and offers nothing to send
        fx.until(Duration.ofSeconds(4), banner::isVisible);
        assertThat(Duration.ofNanos(clock.nanos() - gone)).isLessThan(Duration.ofSeconds(4));
        assertThat(fx.onFx(banner::getText)).startsWith("remote engine at " + url + " not answering since ");
        assertThat(fx.onFx(table::isDisabled)).as("rows greyed, actions off").isTrue();
        assertThat(fx.onFx(() -> robot.lookup("#addButton").queryAs(Button.class).isDisabled())).isTrue();
        fx.onFx(() -> window.controller().select("Live"));
        assertThat(fx.onFx(() -> robot.lookup("#liveCards").query().isDisabled()))
                .as("the Live cards' sliders and buttons off").isTrue();
        assertThat(fx.text("#liveRate")).contains("not answering");
        // and the rows keep the figures of the last answer, as the banner says ("the figures shown are from then"),
        // greyed rather than blanked
        assertThat(fx.onFx(() -> java.util.List.copyOf(table.getItems())))
                .allSatisfy(r -> assertThat(r.info()).as(r.id()).isEqualTo(lastAnswer.get(r.id())));
        assertThat(cell(table, "State", "demo-a")).isEqualTo(lastAnswer.get("demo-a").state());
        assertThat(cell(table, "req/s", "demo-a")).isNotEqualTo("\u2013");

        // and a command sent anyway says in words that the engine cannot be reached
        AtomicReference<String> failure = new AtomicReference<>();
        robot.interact(() -> session.run("drain demo-a", () -> session.client().drain("demo-a"), null, failure::set));
        await().atMost(Duration.ofSeconds(10)).until(() -> failure.get() != null);
        assertThat(failure.get()).contains("is not reachable").doesNotContain("java.net");
    }

    /** The text the table shows in column {@code header} for backend {@code id}, read on the FX thread. */
    static String cell(TableView<BackendRow> table, String header, String id) {
        return WindowHarness.answerOnFx(() -> {
            for (TableColumn<BackendRow, ?> c : table.getColumns()) {
                if (c.getText().equals(header)) {
                    for (BackendRow r : table.getItems()) {
                        if (r.id().equals(id)) {
                            return String.valueOf(c.getCellData(r));
                        }
                    }
                }
            }
            throw new AssertionError("no column " + header + " or no row " + id);
        });
    }

    /** What the engine itself counts: the requests its backends were sent, summed over {@code GET /api/state}. */
    private static long engineTotal(RunningFulcrum f) throws Exception {
        long sum = 0;
        for (com.fasterxml.jackson.databind.JsonNode b : new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(f.get("/api/state").body()).get("backends")) {
            sum += b.get("totalRequests").asLong();
        }
        return sum;
    }

    /** The "of N total" of the status bar's error figures. */
    private static final java.util.regex.Pattern TOTAL = java.util.regex.Pattern.compile("(\\d+) of (\\d+) total");

    private static long shownTotal(Label errors) {
        java.util.regex.Matcher m = TOTAL.matcher(WindowHarness.answerOnFx(errors::getText));
        return m.find() ? Long.parseLong(m.group(2)) : -1;
    }

    /**
     * After a headless engine restarted, the timeline dragged back and Live pressed, the status bar read "20 of 32289
     * total" while the engine said 2,743: the old instance's counts were added to the new one's.
     */
    @Test
    void afterARestartScrubbingBackAndPressingLiveShowsTheNewEnginesOwnTotal(FxRobot robot) throws Exception {
        int port = FreePort.loopback();
        fulcrum = engineOn(port);
        UiSession session = attach(robot, fulcrum.adminUrl());
        Label errors = fx.lookup("#totalErrors", Label.class);
        for (int i = 0; i < 12; i++) {
            assertThat(fulcrum.proxied("/before").status()).isEqualTo(200);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> shownTotal(errors) == 12);
        long beforeRestart = clock.wallMillis();

        // when the engine is stopped and another one started in its place, its counters from 0, which answers 5
        fulcrum.close();
        fulcrum = null;
        clock.advanceMillis(Staleness.STALE_AFTER_MS);
        fx.until(Duration.ofSeconds(5), session::stale);
        fulcrum = engineOn(port);
        for (int i = 0; i < 5; i++) {
            assertThat(fulcrum.proxied("/after").status()).isEqualTo(200);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> shownTotal(errors) == 5);

        // and the timeline is dragged back to before the restart, then Live pressed
        robot.interact(() -> session.timeMachine().viewAt(beforeRestart));
        assertThat(session.timeMachine().live()).isFalse();
        robot.clickOn("#timelineLive");
        WaitForAsyncUtils.waitForFxEvents();

        // then the status bar's total is what the new engine counts, not the old one's added to it
        assertThat(session.timeMachine().live()).isTrue();
        assertThat(shownTotal(errors)).as(fx.onFx(errors::getText)).isEqualTo(engineTotal(fulcrum)).isEqualTo(5);
    }

    /**
     * The engine killed and started again: the Events tab listed "reconnected" with every field empty, and nothing when
     * it went away. It now lists "disconnected" when the event stream ends, and "reconnected" saying where and after
     * how long.
     */
    @Test
    void theEventsSayWhenTheEngineWentAwayAndWhenItCameBackAfterHowLong(FxRobot robot) throws Exception {
        int port = FreePort.loopback();
        fulcrum = engineOn(port);
        String url = fulcrum.adminUrl();
        attach(robot, url);
        fx.onFx(() -> window.controller().select("Events"));
        @SuppressWarnings("unchecked")
        TableView<dev.fulcrum.engine.EngineEvent> events = fx.lookup("#eventsTable", TableView.class);

        // when the engine goes away
        fulcrum.close();
        fulcrum = null;

        // then, while it is gone, the Events tab lists it, saying which engine
        await().atMost(Duration.ofSeconds(10)).until(() -> row(events, "disconnected") != null);
        assertThat(fx.onFx(() -> row(events, "reconnected"))).isNull();
        java.util.List<String> gone = fx.onFx(() -> row(events, "disconnected"));
        assertThat(gone.get(0)).as("from").contains(url);
        assertThat(gone.get(1)).as("to").isNotEqualTo("\u2013").isNotBlank();

        // and when an engine answers there again, "reconnected" says where and after how long
        fulcrum = engineOn(port);
        await().atMost(Duration.ofSeconds(15)).until(() -> row(events, "reconnected") != null);
        java.util.List<String> back = fx.onFx(() -> row(events, "reconnected"));
        assertThat(back.get(0)).as("from").matches("gone for \\d+(\\.\\d)? s.*");
        assertThat(back.get(1)).as("to").contains(url);
    }

    /** The From and To the Events table shows for its newest event of {@code type}, or null when it has none. */
    private static java.util.List<String> row(TableView<dev.fulcrum.engine.EngineEvent> table, String type) {
        return WindowHarness.answerOnFx(() -> {
            java.util.List<String> found = null;
            for (dev.fulcrum.engine.EngineEvent e : table.getItems()) {
                if (e.type().equals(type)) {
                    found = java.util.List.of(text(table, "From", e), text(table, "To", e));
                }
            }
            return found;
        });
    }

    private static String text(TableView<dev.fulcrum.engine.EngineEvent> table, String header,
                               dev.fulcrum.engine.EngineEvent e) {
        for (TableColumn<dev.fulcrum.engine.EngineEvent, ?> c : table.getColumns()) {
            if (c.getText().equals(header)) {
                return String.valueOf(c.getCellData(e));
            }
        }
        throw new AssertionError("no column " + header);
    }
}
