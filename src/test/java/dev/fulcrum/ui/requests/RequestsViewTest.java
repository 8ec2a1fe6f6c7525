package dev.fulcrum.ui.requests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.MainWindow;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.WindowHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.layout.VBox;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The Requests tab in the whole window against a real engine: a request sent through the real proxy is listed, its
 * row opens its headers, timing and why it went where it did; the list exports as HAR; pause holds the list and counts;
 * the HTTPS dialog runs the trust steps and shows their lines; an engine that keeps no requests has no tab.
 */
@Timeout(60)
class RequestsViewTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path dir;
    private RunningFulcrum fulcrum;
    private MainWindow window;

    @BeforeEach
    void open() {
        fulcrum = RunningFulcrum.demoApp();
        window = open(fulcrum);
    }

    /** The window on {@code f}'s engine as the app opens it on its own: the Requests tab asks its live pools too. */
    private MainWindow open(RunningFulcrum f) {
        fx.closeAfter(f);
        return fx.show(new UiSession(new InProcessEngineClient(f.app()), "embedded engine (test)"), null, f.app());
    }

    /** The requests table. FX thread. */
    @SuppressWarnings("unchecked")
    private TableView<RequestsViewModel.Row> table(FxRobot robot) {
        return robot.lookup("#requestsTable").queryAs(TableView.class);
    }

    /** The text of the label or text area {@code id}, read on the FX thread. */
    private String text(FxRobot robot, String id) {
        return fx.onFx(() -> {
            Node n = robot.lookup(id).query();
            return n instanceof TextArea t ? t.getText() : ((Label) n).getText();
        });
    }

    /** The texts of the labels in the box {@code id}, a line each, read on the FX thread. */
    private String lines(FxRobot robot, String id) {
        return fx.onFx(() -> String.join("\n", robot.lookup(id).queryAs(VBox.class).getChildren().stream()
                .map(n -> ((Label) n).getText()).toList()));
    }

    private void showRequestsTab(FxRobot robot) {
        robot.interact(() -> window.controller().select("Requests"));
    }

    @Test
    void whileHiddenTheTabReadsNothingAndShownItTakesWhatTheStreamHolds(FxRobot robot) throws Exception {
        // given the window on another tab, and requests through the proxy meanwhile
        robot.interact(() -> window.controller().select("Backends"));
        int[] at = WaitForAsyncUtils.asyncFx(() -> window.requests().pollCounts()).get();
        for (int i = 0; i < 3; i++) {
            assertThat(fulcrum.proxied("/while-hidden/" + i).status()).isEqualTo(200);
        }
        // then the hidden list has read nothing, and reads nothing while hidden: its view is off the scene and its
        // poll stopped (each read costs the window, at full load, more than anything it draws)
        assertThat(WaitForAsyncUtils.asyncFx(() -> window.requests().polling()).get()).as("poll while hidden").isFalse();
        int[] later = WaitForAsyncUtils.asyncFx(() -> window.requests().pollCounts()).get();
        assertThat(later[1]).as("reads while hidden").isEqualTo(at[1]);
        TableView<?> hidden = fx.anywhere(window, "#requestsTable", TableView.class);
        assertThat(fx.onFx(() -> List.copyOf(hidden.getItems()))).isEmpty();

        // when the tab is shown, the requests are there
        showRequestsTab(robot);
        fx.until(() -> table(robot).getItems().stream()
                .filter(r -> r.request().path().startsWith("/while-hidden/")).count() == 3);
    }

    @Test
    void aRequestThroughTheProxyIsListedAndItsRowOpensItsHeaders(FxRobot robot) throws Exception {
        // given the Requests tab, and a request through the real proxy with a header and a credential
        showRequestsTab(robot);
        assertThat(fulcrum.proxied("/hello?x=1", "Authorization", "Bearer s3cret").status()).isEqualTo(200);

        // when it is listed and its row clicked
        // (the row's cell is laid out on the pulse after the row arrives)
        robot.clickOn(cellShowing(robot, "/hello?x=1"));

        // then its headers show, the credential masked
        fx.until(Duration.ofSeconds(5), () -> text(robot, "#requestHeaders").contains("Authorization"));
        assertThat(text(robot, "#requestHeaders")).contains("Authorization: Bearer ***").doesNotContain("s3cret");
        assertThat(text(robot, "#responseHeaders")).containsIgnoringCase("content-type");
        RequestsViewModel.Row row = fx.onFx(() -> table(robot).getSelectionModel().getSelectedItem());
        assertThat(row.request().backend()).startsWith("demo-");
        assertThat(lines(robot, "#whyRecorded")).contains("Routed to pool default.")
                .contains(row.request().backend() + " answered 200.");
        // and the live pool is asked about the same request, and says it is the pool now
        fx.until(Duration.ofSeconds(5), () -> lines(robot, "#whyNow")
                .startsWith("The pool as it is now, not as it was when the request ran"));

        // when the selection is exported as HAR
        Path file = dir.resolve("selection.har");
        List<java.util.concurrent.CompletableFuture<Path>> export = new java.util.ArrayList<>();
        robot.interact(() -> export.add(window.requests().exportHar(List.of(row.request()), file)));
        export.get(0).get(10, TimeUnit.SECONDS);

        // then the file holds that request
        JsonNode har = JSON.readTree(Files.readString(file));
        assertThat(har.at("/log/entries")).hasSize(1);
        assertThat(har.at("/log/entries/0/request/url").asText()).endsWith("/hello?x=1");
        assertThat(har.at("/log/entries/0/_backend").asText()).isEqualTo(row.request().backend());
        fx.until(Duration.ofSeconds(5), () -> text(robot, "#exportResult").startsWith("wrote 1 request to"));
    }

    @Test
    void aRecordedDecisionShowsItsCandidatesDrawAndWords(FxRobot robot) throws Exception {
        // given decisions logged, weighted random, and a request through the real proxy
        fulcrum.proxy().logDecisions(true);
        fulcrum.engine().setStrategy(dev.fulcrum.engine.Engine.DEFAULT_POOL,
                dev.fulcrum.engine.strategy.StrategySpec.of(dev.fulcrum.engine.strategy.StrategySpec.WEIGHTED_RANDOM));
        showRequestsTab(robot);
        assertThat(fulcrum.proxied("/decided").status()).isEqualTo(200);

        // when its row is clicked
        robot.clickOn(cellShowing(robot, "/decided"));

        // then "Why this backend" says the draw in words, and the decision's table lists both candidates
        fx.until(Duration.ofSeconds(5), () -> lines(robot, "#whyRecorded").contains("Drew "));
        String backend = fx.onFx(() -> table(robot).getSelectionModel().getSelectedItem()).request().backend();
        assertThat(lines(robot, "#whyRecorded"))
                .contains("Attempt 1: weighted-random chose among demo-a, demo-b and picked " + backend + ".")
                .containsPattern("Drew 0\\.?\\d* along the weight line, which falls in " + backend + "'s share");
        VBox pane = fx.lookup("#decisionPane", VBox.class);
        List<String> texts = WaitForAsyncUtils.asyncFx(() -> pane.getChildren().stream()
                .flatMap(n -> n instanceof javafx.scene.layout.Pane p ? p.getChildren().stream() : java.util.stream.Stream.of(n))
                .filter(n -> n instanceof Label).map(n -> ((Label) n).getText()).toList()).get(5, TimeUnit.SECONDS);
        assertThat(texts).contains("Attempt 1: weighted-random picked " + backend, "Backend", "Score", "demo-a",
                "demo-b", "picked");
    }

    /**
     * The table cell showing {@code text}, once one does (within ten seconds). Found on the FX thread, and handed back
     * as found: the table lays its cells out again as rows arrive, so a second look from another thread can miss it.
     */
    private Node cellShowing(FxRobot robot, String text) {
        return fx.waitFor(() -> robot.lookup((Node n) -> n instanceof TableCell<?, ?> c && text.equals(c.getText()))
                .<Node>tryQuery().orElse(null));
    }

    @Test
    void pauseHoldsTheListAndCountsWhatArrives(FxRobot robot) {
        // given one request listed
        showRequestsTab(robot);
        fulcrum.proxied("/first");
        fx.until(() -> table(robot).getItems().size() == 1);

        // when paused and three more arrive
        robot.clickOn("#pauseRequests");
        for (int i = 0; i < 3; i++) {
            fulcrum.proxied("/later-" + i);
        }

        // then the list stays, and says how many are new
        fx.until(() -> text(robot, "#requestCount").endsWith("paused, 3 new"));
        assertThat(fx.onFx(() -> List.copyOf(table(robot).getItems()))).singleElement().satisfies(r ->
                assertThat(r.request().path()).isEqualTo("/first"));

        // and resuming puts them on top
        robot.clickOn("#pauseRequests");
        fx.until(Duration.ofSeconds(5), () -> table(robot).getItems().size() == 4);
        assertThat(fx.onFx(() -> table(robot).getItems().get(3)).request().path()).isEqualTo("/first");
    }

    @Test
    void theHttpsDialogRunsTheTrustStepsOffTheFxThreadAndShowsTheirLines(FxRobot robot) {
        // given the embedded engine's tab offers HTTPS, and a dialog over steps that print two lines
        showRequestsTab(robot);
        assertThat(fx.onFx(() -> robot.lookup("#httpsButton").queryAs(Button.class).isVisible())).isTrue();
        List<String> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
        RequestsContext.LocalHttps fake = new RequestsContext.LocalHttps() {
            @Override
            public String url() {
                return "https://127.0.0.1:8443";
            }

            @Override
            public void trust(Consumer<String> line) {
                threads.add(Thread.currentThread().getName());
                line.accept("created the local certificate authority: /tmp/ca/fulcrum-ca.crt");
                line.accept("restart the browser so it reads its store again");
            }

            @Override
            public void untrust(Consumer<String> line) {
                line.accept("no browser store holds Fulcrum local CA");
            }
        };
        robot.interact(() -> new TrustDialog(fx.stage(), fake).show());
        assertThat(text(robot, "#httpsAddress")).isEqualTo("HTTPS address: https://127.0.0.1:8443");

        // when Trust is clicked
        robot.clickOn("#trustHttps");

        // then each step's line shows, and the steps ran on a thread of their own
        fx.until(Duration.ofSeconds(5), () -> text(robot, "#trustOutput").contains("restart the browser"));
        assertThat(text(robot, "#trustOutput")).startsWith("created the local certificate authority");
        assertThat(threads).containsExactly("fulcrum-trust");

        // and Remove shows its own
        fx.until(Duration.ofSeconds(5), () -> !robot.lookup("#untrustHttps").queryAs(Button.class).isDisabled());
        robot.clickOn("#untrustHttps");
        fx.until(Duration.ofSeconds(5), () -> text(robot, "#trustOutput")
                .equals("no browser store holds Fulcrum local CA\n"));
    }

    @Test
    void anEngineThatKeepsNoRequestsHasNoRequestsTab(FxRobot robot) throws Exception {
        // given the window on an engine with proxy.recentRequests 0
        RunningFulcrum none = RunningFulcrum.wholeApp("""
                {"proxy": {"host": "127.0.0.1", "port": 0, "recentRequests": 0},
                 "admin": {"host": "127.0.0.1", "port": 0},
                 "demoBackends": [{"id": "demo-a", "port": 0}], "healthCheck": {"enabled": false}}
                """).start();
        fx.closeAll(); // the first window, its session and engine
        window = open(none);

        // then the tab goes once the engine says it shows none
        fx.until(() -> window.controller().tabs().getTabs().stream()
                .noneMatch(t -> "requestsTab".equals(t.getId())));
        assertThat(fx.onFx(() -> window.controller().tabs().getTabs().stream()
                .map(javafx.scene.control.Tab::getText).toList())).contains("Backends", "Events");
    }

    @Test
    void attachedToARemoteEngineThereIsNoHttpsButton(FxRobot robot) {
        RequestsTab.Built[] built = new RequestsTab.Built[1];
        robot.interact(() -> built[0] = RequestsTab.create(window.session(), RequestsContext.remote()));
        javafx.scene.layout.BorderPane root =
                fx.onFx(() -> (javafx.scene.layout.BorderPane) built[0].tab().getContent());
        Node https = fx.onFx(() -> root.lookup("#httpsButton"));
        assertThat(fx.onFx(https::isVisible)).isFalse();
        assertThat(fx.onFx(https::isManaged)).isFalse();
        robot.interact(built[0].controller()::close);
    }
}
