package dev.fulcrum.ui.requests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.requests.RequestSample;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.CutText;
import dev.fulcrum.ui.MainWindow;
import dev.fulcrum.ui.WindowHarness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.VBox;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * The Requests and Routes tabs built in Simplified Chinese and in Polish, in the whole window at 1280x800 on a real
 * engine whose route splits and mirrors: their titles, column headers, buttons and panel texts are the language's,
 * the tabs keep their English view names, and nothing in them is cut (the list, each of a request's detail tabs,
 * the split panel).
 */
@Timeout(90)
class RequestsLanguageTest {
    /** One route that splits stable 90 / canary 10 under a guard and mirrors to shadow: every part of its panel. */
    static final String CONFIG = """
            {
              "proxy": {"host": "127.0.0.1", "port": 0},
              "admin": {"host": "127.0.0.1", "port": 0},
              "healthCheck": {"enabled": false},
              "demoBackends": [{"id": "web-1", "port": 0}],
              "pools": {
                "stable": {"demoBackends": [{"id": "stable-1", "port": 0}]},
                "canary": {"demoBackends": [{"id": "canary-1", "port": 0}]},
                "shadow": {"demoBackends": [{"id": "shadow-1", "port": 0}]}
              },
              "routes": [
                {"pathPrefix": "/", "split": [{"pool": "stable", "weight": 90}, {"pool": "canary", "weight": 10}],
                 "mirror": {"pool": "shadow", "percent": 100},
                 "guard": {"arm": "canary", "errorRateAbove": 0.05, "p99AboveBaselineBy": 0.5, "minRequests": 50,
                           "forMs": 5000}}
              ]
            }
            """;

    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    @Test
    void inChineseTheTabsSpeakChineseAndNothingIsCut(FxRobot robot) {
        List<String> cut = tabsIn(Locale.SIMPLIFIED_CHINESE, robot, "请求", "方法", "由路由 0 接收，其分流将它发往后端池 ", "全量发布",
                "守护：");
        assertThat(cut).as("texts cut in the Requests and Routes tabs in Chinese").isEmpty();
    }

    @Test
    void inPolishTheTabsSpeakPolishAndNothingIsCut(FxRobot robot) {
        List<String> cut = tabsIn(Locale.forLanguageTag("pl"), robot, "Żądania", "Metoda",
                "Przejęła je trasa 0, a jej podział skierował je do puli ",
                "Wdróż", "strażnik: ");
        assertThat(cut).as("texts cut in the Requests and Routes tabs in Polish").isEmpty();
    }

    /** The index of the newest row that is a client's request, not a mirrored copy. */
    private static int clientsRequest(TableView<?> table) {
        for (int i = 0; i < table.getItems().size(); i++) {
            RequestSample.Routing g = ((RequestsViewModel.Row) table.getItems().get(i)).request().routing();
            if (g == null || !g.mirror()) {
                return i;
            }
        }
        throw new AssertionError("no client's request among " + table.getItems().size() + " rows");
    }

    /**
     * Opens the window in {@code language}, checks the words given, and returns what {@link CutText} finds cut in the
     * two tabs.
     */
    private List<String> tabsIn(Locale language, FxRobot robot, String requestsTitle, String methodHeader,
                                String routedStart, String promote, String guardStart) {
        List<String> cut = new ArrayList<>();
        Texts.use(language);
        try {
            RunningFulcrum fulcrum = fx.closeAfter(RunningFulcrum.wholeApp(CONFIG).start());
            for (int i = 0; i < 20; i++) {
                fulcrum.proxied("/items/" + i);
            }
            MainWindow window = fx.open(fulcrum);

            // the Requests tab: its title and headers in the language, its view name English
            Tab requests = fx.onFx(() -> tab(window, "requestsTab"));
            assertThat(fx.onFx(requests::getText)).isEqualTo(requestsTitle);
            assertThat(fx.onFx(requests::getUserData)).isEqualTo("Requests");
            fx.onFx(() -> window.controller().select("Requests"));
            TableView<?> table = fx.lookup("#requestsTable", TableView.class);
            assertThat(fx.onFx(() -> table.getColumns().get(0).getText())).isEqualTo(methodHeader);
            assertThat(fx.onFx(() -> robot.lookup("#requestFilter").queryAs(TextField.class).getPromptText()))
                    .isEqualTo(Texts.t("requests.filter.prompt"));
            await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(() -> table.getItems().size()) >= 20);
            cut.addAll(cutIn(requests, "Requests list"));
            // a client's request, not its mirrored copy (the route copies every one): the split's words are asked
            fx.onFx(() -> table.getSelectionModel().select(clientsRequest(table)));
            TabPane details = fx.lookup("#requestDetails", TabPane.class);
            int detailTabs = fx.onFx(() -> details.getTabs().size());
            for (int i = 0; i < detailTabs; i++) {
                int at = i;
                fx.onFx(() -> details.getSelectionModel().select(at));
                cut.addAll(cutIn(requests, "Requests " + fx.onFx(() -> details.getTabs().get(at).getText())));
            }
            // "Why this backend" tells the record in the language
            VBox why = fx.lookup("#whyRecorded", VBox.class);
            assertThat(fx.onFx(() -> ((Label) why.getChildren().get(0)).getText())).startsWith(routedStart);

            // the Routes tab: the split panel in the language
            await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(() -> tab(window, "routesTab")) != null);
            Tab routes = fx.onFx(() -> tab(window, "routesTab"));
            assertThat(fx.onFx(routes::getText)).isEqualTo(Texts.t("routes.tab")).isNotEqualTo("Routes");
            assertThat(fx.onFx(routes::getUserData)).isEqualTo("Routes");
            fx.onFx(() -> window.controller().select("Routes"));
            fx.waitFor("#split-promote-0");
            assertThat(fx.text("#split-promote-0")).isEqualTo(promote);
            assertThat(fx.text("#split-guard-0")).startsWith(guardStart);
            cut.addAll(cutIn(routes, "Routes"));
        } finally {
            Texts.use(Locale.ENGLISH);
        }
        return cut;
    }

    private static Tab tab(MainWindow window, String id) {
        return window.controller().tabs().getTabs().stream().filter(t -> id.equals(t.getId())).findFirst()
                .orElse(null);
    }

    /** What is cut in {@code tab}'s content at 1280x800, laid out as it is now. */
    private List<String> cutIn(Tab tab, String where) {
        return fx.onFx(() -> {
            fx.stage().setWidth(1280);
            fx.stage().setHeight(800);
            Parent root = fx.stage().getScene().getRoot();
            root.applyCss();
            root.layout();
            return CutText.cut((Parent) tab.getContent(), where);
        });
    }
}
