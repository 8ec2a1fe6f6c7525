package dev.fulcrum.ui.workshop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.app.FulcrumApp;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.engine.DecisionTrace;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.WindowHarness;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.Scene;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextField;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * "Why this backend" against the real proxy: the same request, stepped in the tab and sent through the proxy,
 * must name the same backend (consistent hashing on the path and sticky sessions are deterministic).
 */
@Timeout(60)
/** "Why this backend" names the backend the proxy sends the same request to: sticky cookies, paths as routed. */
class WhyMatchesTheProxyTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private final HttpClient http = HttpClient.newHttpClient();

    /** A sample on free ports (proxy, admin and demo backends), as FulcrumAppTest does. */
    private FulcrumApp startSample(String name) {
        Path sample = Path.of("samples/" + name + ".json");
        FulcrumConfig c = ConfigLoader.load(sample);
        List<DemoBackendConfig> demos = new ArrayList<>();
        for (DemoBackendConfig d : c.demoBackends()) {
            demos.add(new DemoBackendConfig(d.id(), 0, d.weight(), d.latencyMs(), d.errorRate()));
        }
        RunningFulcrum f = RunningFulcrum.wholeApp(c.withDefaultPool(new PoolConfig(c.strategy(), c.backends(), demos))
                .withProxyPort(0).withAdminPort(0)).configFile(sample).start();
        fx.closeAfter(f);
        return f.app();
    }


    private DecisionTrace step(FxRobot robot, WorkshopTabs.Workshop w) {
        DecisionTrace before = w.why().traceProperty().get();
        robot.interact(() -> w.why().step());
        fx.until(Duration.ofSeconds(5), () -> w.why().traceProperty().get() != before
                && w.why().traceProperty().get() != null);
        return w.why().traceProperty().get();
    }

    private String proxied(FulcrumApp app, String path, String cookie) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(app.proxyUrl() + path));
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.discarding()).headers()
                .firstValue("X-Fulcrum-Backend").orElseThrow();
    }

    private WorkshopTabs.Workshop open(FxRobot robot, FulcrumApp app) {
        UiSession session = fx.closeAfter(new UiSession(new InProcessEngineClient(app), "embedded engine (test)"));
        return fx.closeAfter(fx.onFx(() -> {
            WorkshopTabs.Workshop w = WorkshopTabs.create(session, WorkshopContext.embedded(app, r -> { }));
            TabPane tp = new TabPane();
            tp.getTabs().addAll(w.tabs());
            tp.getSelectionModel().select(w.tabs().get(2));
            fx.stage().setScene(new Scene(tp, 1280, 800));
            fx.stage().show();
            session.start();
            return w;
        }));
    }

    @Test
    void aRequestCarryingTheStickyCookieIsExplainedAsGoingToItsStickyBackend(FxRobot robot) throws Exception {
        // given sticky.json (round robin + sticky cookie) and a client whose first answer set the cookie
        FulcrumApp app = startSample("sticky");
        HttpResponse<Void> first = http.send(HttpRequest.newBuilder(URI.create(app.proxyUrl() + "/k/k42")).build(),
                HttpResponse.BodyHandlers.discarding());
        String stickyBackend = first.headers().firstValue("X-Fulcrum-Backend").orElseThrow();
        String setCookie = first.headers().firstValue("Set-Cookie").orElseThrow();
        String token = setCookie.substring("FULCRUM_STICKY=".length(), setCookie.indexOf(';'));
        WorkshopTabs.Workshop w = open(robot, app);

        // when the trainer steps that client's next request (its cookie typed into the form) three times
        robot.interact(() -> {
            robot.lookup("#whyCookieName").queryAs(TextField.class).setText("FULCRUM_STICKY");
            robot.lookup("#whyCookieValue").queryAs(TextField.class).setText(token);
        });
        List<String> explained = new ArrayList<>();
        List<String> real = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            explained.add(step(robot, w).picked());
            real.add(proxied(app, "/k/k42", "FULCRUM_STICKY=" + token));
        }

        // then the proxy keeps the client on its backend, and so must the explanation
        assertThat(real).containsOnly(stickyBackend);
        assertThat(explained).as("explained picks for a request carrying the sticky cookie of " + stickyBackend)
                .containsOnly(stickyBackend);
    }

    @Test
    void aPathIsHashedAsTheProxyHashesIt(FxRobot robot) throws Exception {
        // given workshop.json: consistent hashing on the path
        FulcrumApp app = startSample("workshop");
        WorkshopTabs.Workshop w = open(robot, app);
        List<String> mismatches = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            for (String path : List.of("/k/k" + k + "?debug=1", "/k//k" + k, "/k/k%20" + k)) {
                robot.interact(() -> robot.lookup("#whyPath").queryAs(TextField.class).setText(path));
                DecisionTrace t = step(robot, w);
                String proxy = proxied(app, path, null);
                if (!proxy.equals(t.picked())) {
                    mismatches.add(path + ": explained " + t.picked() + " (key '" + t.key() + "'), proxy " + proxy);
                }
            }
        }
        assertThat(mismatches).isEmpty();
    }
}
