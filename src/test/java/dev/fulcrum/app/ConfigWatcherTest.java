package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.config.BackendConfig;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.ConfigWriter;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Editing the {@code --config} file of a running Fulcrum: valid edits apply live, invalid ones are refused. The
 * file-system events are real (awaited with a deadline); the debounce runs on a {@link ManualClock}.
 */
class ConfigWatcherTest {
    /** Two demo backends; {@code WEIGHT_B} is replaced by demo-b's weight. */
    static final String CONFIG = """
            {
              "proxy": {"host": "127.0.0.1", "port": 0},
              "admin": {"host": "127.0.0.1", "port": 0},
              "strategy": {"type": "round-robin"},
              "demoBackends": [
                {"id": "demo-a", "port": 0, "weight": 1, "latencyMs": 0, "errorRate": 0.0},
                {"id": "demo-b", "port": 0, "weight": WEIGHT_B, "latencyMs": 0, "errorRate": 0.0}
              ],
              "healthCheck": {"enabled": false}
            }
            """;

    @TempDir
    Path dir;
    private Path file;
    private FulcrumApp app;
    private ConfigWatcher watcher;
    private final ManualClock clock = new ManualClock();
    private final List<EngineEvent> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        file = dir.resolve("fulcrum.json");
        Files.writeString(file, CONFIG.replace("WEIGHT_B", "2"));
        app = FulcrumApp.start(ConfigLoader.load(file), file);
        app.engine().subscribe(events::add);
        watcher = ConfigWatcher.start(file, app, clock);
        assertThat(watcher).isNotNull();
    }

    @AfterEach
    void stop() {
        if (watcher != null) {
            watcher.close();
        }
        app.close();
    }

    /** Waits for the watcher to see the edit (a real file-system event), then lets the debounce pass. */
    static void readOnceTheEditIsSeen(ManualClock clock) {
        await().atMost(Duration.ofSeconds(15)).until(() -> clock.pending() > 0);
        clock.advanceMillis(ConfigWatcher.DEBOUNCE_MS);
    }

    private int weight(String id) {
        return app.engine().backends().stream().filter(v -> v.id().equals(id)).mapToInt(BackendView::weight).findFirst().orElse(-1);
    }

    @Test
    void aValidEditOfTheFileIsAppliedLive() throws Exception {
        Files.writeString(file, CONFIG.replace("WEIGHT_B", "5"));
        await().atMost(Duration.ofSeconds(15)).until(() -> clock.pending() > 0);
        // the editor may still be writing: nothing is read before the debounce is over
        clock.advanceMillis(ConfigWatcher.DEBOUNCE_MS - 1);
        assertThat(weight("demo-b")).isEqualTo(2);
        clock.advanceMillis(1);
        assertThat(weight("demo-b")).isEqualTo(5);
        assertThat(app.currentConfig().demoBackends().get(1).weight()).isEqualTo(5);
        assertThat(events).anyMatch(e -> e.type().equals("config") && "applied".equals(e.to()));
    }

    @Test
    void anInvalidEditIsReportedAndTheRunningConfigStays() throws Exception {
        Files.writeString(file, CONFIG.replace("WEIGHT_B", "-3"));
        readOnceTheEditIsSeen(clock);
        assertThat(events).anyMatch(e -> e.type().equals("config") && e.to() != null && e.to().startsWith("rejected"));
        EngineEvent rejected = events.stream().filter(e -> e.type().equals("config")).findFirst().orElseThrow();
        assertThat(rejected.to()).contains("demoBackends[1].weight: must be between 0 and 1000 (got: -3)");
        assertThat(weight("demo-b")).isEqualTo(2);
        assertThat(app.currentConfig().demoBackends().get(1).weight()).isEqualTo(2);

        // fixing the file afterwards is applied as usual
        Files.writeString(file, CONFIG.replace("WEIGHT_B", "7"));
        readOnceTheEditIsSeen(clock);
        assertThat(weight("demo-b")).isEqualTo(7);
    }

    @Test
    void anEditThatIsNotJsonIsReportedWithItsPosition() throws Exception {
        Files.writeString(file, "{ \"proxy\": ");
        List<String> problems = watcher.reload();
        assertThat(problems).isNotEmpty();
        assertThat(events).anyMatch(e -> e.type().equals("config") && e.to().startsWith("rejected: "));
        assertThat(weight("demo-b")).isEqualTo(2);
    }

    @Test
    void reloadingAnUnchangedFileAppliesNothing() {
        int before = (int) events.stream().filter(e -> e.type().equals("config")).count();
        assertThat(watcher.reload()).isEmpty();
        assertThat(events.stream().filter(e -> e.type().equals("config")).count()).isEqualTo(before);
    }

    /**
     * Saves from the app go through {@link ConfigWriter#writeAtomically}; a reader racing many saves (the
     * watcher, an editor) must only ever see a whole old or a whole new file, never a half-written one.
     */
    @Test
    void savingAtomicallyNeverLeavesAHalfWrittenFileForTheWatcherOrAnyReader() throws Exception {
        AtomicBoolean saving = new AtomicBoolean(true);
        AtomicInteger reads = new AtomicInteger();
        AtomicReference<String> torn = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            while (saving.get()) {
                try {
                    String text = Files.readString(file, StandardCharsets.UTF_8);
                    ConfigLoader.parse(text);
                    reads.incrementAndGet();
                } catch (Exception e) {
                    torn.compareAndSet(null, e.toString());
                }
            }
        }, "racing-reader");
        reader.start();
        FulcrumConfig base = app.liveConfig();
        int last = 0;
        for (int i = 0; i < 60; i++) {
            last = 10 + i;
            List<DemoBackendConfig> demos = new ArrayList<>(base.demoBackends());
            DemoBackendConfig b = demos.get(1);
            demos.set(1, new DemoBackendConfig(b.id(), b.port(), last, b.latencyMs(), b.errorRate()));
            // every other save is much longer, so a torn write would show up as truncated JSON
            List<BackendConfig> statics = new ArrayList<>();
            for (int k = 0; i % 2 == 1 && k < 40; k++) {
                statics.add(BackendConfig.of("static-" + k, "http://127.0.0.1:" + (20000 + k), 1));
            }
            FulcrumConfig next = base.withDefaultPool(new PoolConfig(base.strategy(), statics, demos));
            ConfigWriter.writeAtomically(file, next);
        }
        int finalWeight = last;
        await().atMost(Duration.ofSeconds(10)).until(() -> reads.get() > 100);
        saving.set(false);
        reader.join(10_000);
        assertThat(torn.get()).isNull();
        readOnceTheEditIsSeen(clock);
        assertThat(weight("demo-b")).isEqualTo(finalWeight);
        assertThat(events).noneMatch(e -> e.type().equals("config") && e.to().startsWith("rejected"));
        try (var list = Files.list(dir)) {
            assertThat(list.map(p -> p.getFileName().toString())).containsExactly("fulcrum.json");
        }
    }
}
