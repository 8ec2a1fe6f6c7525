package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;
import static dev.fulcrum.app.ConfigWatcherTest.readOnceTheEditIsSeen;

import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.time.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --config} given as a symlink into another folder: edits of the target, and a re-pointed link (the way a
 * Kubernetes ConfigMap volume swaps its {@code ..data} link), are applied live like edits of a plain file. The
 * file-system events are real; the debounce runs on a {@link ManualClock}.
 */
class ConfigWatcherSymlinkTest {
    private static final String CONFIG = ConfigWatcherTest.CONFIG;

    @TempDir
    Path dir;
    private FulcrumApp app;
    private ConfigWatcher watcher;
    private final ManualClock clock = new ManualClock();
    private final List<EngineEvent> events = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        if (watcher != null) {
            watcher.close();
        }
        if (app != null) {
            app.close();
        }
    }

    private void start(Path link) {
        app = FulcrumApp.start(ConfigLoader.load(link), link);
        app.engine().subscribe(events::add);
        watcher = ConfigWatcher.start(link, app, clock);
        assertThat(watcher).isNotNull();
    }

    private static String config(int weightB) {
        return CONFIG.replace("WEIGHT_B", Integer.toString(weightB));
    }

    private int weight(String id) {
        return app.engine().backends().stream().filter(v -> v.id().equals(id)).mapToInt(BackendView::weight)
                .findFirst().orElse(-1);
    }

    private long applied() {
        return events.stream().filter(e -> e.type().equals("config") && "applied".equals(e.to())).count();
    }

    @Test
    void anEditOfALinkedFileInAnotherFolderIsAppliedOnlyWhenItsContentChanges() throws Exception {
        Path target = Files.writeString(Files.createDirectories(dir.resolve("dotfiles")).resolve("fulcrum.json"),
                config(2));
        Path link = Files.createSymbolicLink(Files.createDirectories(dir.resolve("etc")).resolve("fulcrum.json"),
                target);
        start(link);

        Files.writeString(target, config(5));
        readOnceTheEditIsSeen(clock);
        assertThat(weight("demo-b")).isEqualTo(5);

        // the same content written again, then a real edit, within one debounce: one read, the second apply
        Files.writeString(target, config(5));
        Files.writeString(target, config(6));
        readOnceTheEditIsSeen(clock);
        assertThat(weight("demo-b")).isEqualTo(6);
        assertThat(applied()).isEqualTo(2);
    }

    @Test
    void aConfigMapStyleSwapOfTheDataLinkIsFollowed() throws Exception {
        Path volume = Files.createDirectories(dir.resolve("configmap"));
        Files.writeString(Files.createDirectories(volume.resolve("..v1")).resolve("fulcrum.json"), config(2));
        Files.createSymbolicLink(volume.resolve("..data"), Path.of("..v1"));
        Path link = Files.createSymbolicLink(volume.resolve("fulcrum.json"), Path.of("..data", "fulcrum.json"));
        start(link);

        // what the kubelet does: write a new folder, point a temporary link at it, rename that over ..data
        Files.writeString(Files.createDirectories(volume.resolve("..v2")).resolve("fulcrum.json"), config(5));
        Files.createSymbolicLink(volume.resolve("..data_tmp"), Path.of("..v2"));
        Files.move(volume.resolve("..data_tmp"), volume.resolve("..data"), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        readOnceTheEditIsSeen(clock);
        assertThat(weight("demo-b")).isEqualTo(5);

        // the watch moved with the link: an edit in the new folder is seen, one in the old folder is not ours
        Files.writeString(volume.resolve("..v1").resolve("fulcrum.json"), config(9));
        Files.writeString(volume.resolve("..v2").resolve("fulcrum.json"), config(7));
        readOnceTheEditIsSeen(clock);
        assertThat(weight("demo-b")).isEqualTo(7);
        assertThat(app.currentConfig().demoBackends().get(1).weight()).isEqualTo(7);
    }
}
