package dev.fulcrum.lesson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.HttpEngineClient;
import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.app.FulcrumApp;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.FulcrumConfig;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The window plays a lesson on the engine it shows, embedded or attached to a headless one: the lesson's config is
 * applied in place, the engine keeps its ports, and the lesson's checks hold as they do on a fresh engine (the
 * strategy starts from its first pick, a demo backend already running keeps its port).
 */
class InPlaceLessonTest {
    /** The embedded default's shape (demo-a, b, c weighted 5, 3, 1, consistent hashing), every port free. */
    static final String RUNNING = "{\"proxy\": {\"port\": 0}, \"admin\": {\"port\": 0}, \"strategy\": {\"type\":"
            + " \"smooth-weighted-round-robin\"}, \"demoBackends\": [{\"id\": \"demo-a\", \"port\": 0, \"weight\": 5},"
            + " {\"id\": \"demo-b\", \"port\": 0, \"weight\": 3}, {\"id\": \"demo-c\", \"port\": 0, \"weight\": 1}]}";

    private FulcrumApp app;

    @BeforeEach
    void start() {
        app = FulcrumApp.start(ConfigLoader.parse(RUNNING), null);
    }

    @AfterEach
    void stop() {
        app.close();
    }

    static List<String> play(Lesson lesson, EngineClient client) {
        try (LessonRunner runner = new LessonRunner(lesson, LessonEngine.inPlace(client, lesson))) {
            List<String> lines = new java.util.ArrayList<>();
            for (int i = 0; i < lesson.steps().size(); i++) {
                int step = i + 1;
                runner.run(i).checks().forEach(c -> lines.add(c.line(step)));
            }
            return lines;
        }
    }

    @Test
    void theEmbeddedEngineTakesTheLessonInPlaceAndKeepsItsPorts() {
        String proxy = app.proxyUrl();
        int demoA = app.demos().get("demo-a").port();
        EngineClient client = new InProcessEngineClient(app);
        List<String> lines = play(LessonReader.readResource(Lessons.resource("round-robin-and-smooth-wrr")), client);
        assertThat(lines).isNotEmpty().allMatch(l -> l.contains(": ok: "), "every line ok");
        assertThat(app.proxyUrl()).isEqualTo(proxy);
        assertThat(app.demos().get("demo-a").port()).isEqualTo(demoA);
        assertThat(app.demos().get("demo-a").weight()).isEqualTo(5);
    }

    @Test
    void anAttachedEngineTakesTheLessonOverTheAdminApi() {
        try (EngineClient client = new HttpEngineClient(URI.create(app.admin().url()), null)) {
            List<String> lines = play(LessonReader.readResource(Lessons.resource("consistent-hashing")), client);
            assertThat(lines).isNotEmpty().allMatch(l -> l.contains(": ok: "), "every line ok");
        }
        assertThat(app.demos().get("demo-e")).as("the lesson's added demo backend, stopped with the lesson").isNull();
    }

    @Test
    void closingTheLessonPutsBackTheConfigAndTheDemoFaultsThatRanBefore() {
        FulcrumConfig before = app.currentConfig();
        double latencyBefore = app.demos().get("demo-b").latencyMs();
        Lesson l = LessonReader.parse("{\"title\": \"t\", \"summary\": \"s\", \"config\": {\"strategy\": {\"type\":"
                + " \"round-robin\"}, \"circuitBreaker\": {\"openMs\": 1500}, \"demoBackends\": [{\"id\": \"demo-a\","
                + " \"port\": 0}, {\"id\": \"demo-b\", \"port\": 0, \"errorRate\": 1.0}]}, \"steps\": [{\"say\": \"x\","
                + " \"do\": [{\"demo\": \"demo-b\", \"latencyMs\": 40}, {\"add\": \"demo-e\"}],"
                + " \"expect\": [{\"state\": \"demo-e\", \"is\": \"UP\"}]}]}", "t");
        EngineClient client = new InProcessEngineClient(app);
        List<String> lines = play(l, client);

        assertThat(lines).allMatch(line -> line.contains(": ok: "), "the lesson ran");
        assertThat(LessonConfigs.demoPorts(app.currentConfig(), d -> 0)).as("ports aside (0 is any free one)")
                .isEqualTo(before);
        assertThat(app.demos().get("demo-e")).isNull();
        assertThat(app.demos().get("demo-b").errorRate()).isZero();
        assertThat(app.demos().get("demo-b").latencyMs()).isEqualTo(latencyBefore);
        assertThat(app.engine().pool("default").snapshot().spec().type()).isEqualTo("smooth-weighted-round-robin");
        assertThat(app.currentConfig().circuitBreaker().openMs()).isEqualTo(10_000);
    }

    @Test
    void whatARunningEngineCannotChangeInPlaceIsRefusedWithTheEnginesReasons() {
        FulcrumConfig running = app.currentConfig();
        Lesson l = LessonReader.parse("{\"title\": \"t\", \"summary\": \"s\", \"config\": {\"timeouts\": {\"readMs\":"
                + " 200}, \"demoBackends\": [{\"id\": \"demo-a\", \"port\": 0}]}, \"steps\": [{\"say\": \"x\"}]}", "t");
        assertThatThrownBy(() -> LessonEngine.inPlace(new InProcessEngineClient(app), l))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("the engine refuses the lesson's config: timeouts.readMs: takes effect at a"
                        + " restart");
        assertThat(app.currentConfig()).isEqualTo(running);
        assertThat(app.engine().pool("default").snapshot().spec().type()).isEqualTo("smooth-weighted-round-robin");
    }
}
