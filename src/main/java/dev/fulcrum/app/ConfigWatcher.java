package dev.fulcrum.app;

import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.ConfigProblem;
import dev.fulcrum.config.FulcrumConfig;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches {@code --config FILE}: a valid edit is applied live; an invalid one is logged and published as a
 * {@code config} event with its problems, and the running config stays. Edits are debounced (editors often
 * write a file in several steps) and compared by modification time and content, so saving from the app,
 * which writes the same content, does not re-apply anything.
 *
 * <p>The file may be a symlink into another folder (a Kubernetes ConfigMap mounts {@code fulcrum.json ->
 * ..data/fulcrum.json} with {@code ..data -> ..2024_01_01_...}; a dotfiles repo links into its checkout). An edit of
 * the target shows only in the target's folder, and a ConfigMap update shows in the link's folder only as a new
 * {@code ..data} link, never under the file's own name. So the target's folder is watched too, any symlink appearing
 * beside a linked config counts as a possible change, and after each look the link is resolved again, moving the
 * second watch when it was re-pointed.
 */
public final class ConfigWatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigWatcher.class);
    private static final long DEBOUNCE_MS = 300;

    private final Path file;
    /** The file's folder with its own links resolved: the form {@link #target} and watch keys are compared in. */
    private final Path folder;
    private final FulcrumApp app;
    private final WatchService watch;
    private final Thread thread;
    /** Where the file's links lead, as of the last look; only the watch thread changes it after start. */
    private volatile Path target;
    /** The watch on the target's folder, when it is not {@link #folder}. */
    private WatchKey targetKey;
    private volatile FileTime lastSeen;
    private volatile String lastContent;

    private ConfigWatcher(Path file, FulcrumApp app) throws IOException {
        this.file = file.toAbsolutePath();
        this.app = app;
        this.folder = this.file.getParent().toRealPath();
        this.watch = FileSystems.getDefault().newWatchService();
        folder.register(watch, StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_CREATE);
        watchTarget();
        this.lastSeen = Files.getLastModifiedTime(this.file);
        this.lastContent = Files.readString(this.file);
        this.thread = new Thread(this::loop, "fulcrum-config-watch");
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts watching, or returns null (and logs why) when the folder cannot be watched. */
    public static ConfigWatcher start(Path file, FulcrumApp app) {
        try {
            return new ConfigWatcher(file, app);
        } catch (IOException e) {
            LOG.warn("cannot watch {}: {}; edits will not be applied live", file, e.toString());
            return null;
        }
    }

    private void loop() {
        try {
            while (true) {
                WatchKey key = watch.take();
                Path in = (Path) key.watchable();
                boolean ours = key.pollEvents().stream()
                        .anyMatch(ev -> ev.context() instanceof Path p && concerns(in, p));
                key.reset();
                if (ours) {
                    TimeUnit.MILLISECONDS.sleep(DEBOUNCE_MS); // let the editor finish writing
                    // swallow the burst of events the same save produced; each key must be reset, or it is
                    // never signalled again and every later edit goes unnoticed
                    for (WatchKey more; (more = watch.poll()) != null; ) {
                        more.pollEvents();
                        more.reset();
                    }
                    // watch a re-pointed link's new folder before reading through it: an edit there right after
                    // the swap is then either in what reload() reads or signalled afterwards, never lost between
                    watchTarget();
                    reload();
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closing
        }
    }

    /**
     * Whether an event for {@code name} in the watched folder {@code in} may have changed what the file reads: the
     * file itself, the link's target, or (for a linked file) a link beside it, such as a ConfigMap's new {@code ..data}.
     * A false alarm costs one read: {@link #reload()} applies nothing unless the content changed.
     */
    private boolean concerns(Path in, Path name) {
        Path entry = in.resolve(name);
        if (entry.equals(target)) {
            return true;
        }
        return in.equals(folder) && (name.equals(file.getFileName())
                || Files.isSymbolicLink(file) && Files.isSymbolicLink(entry));
    }

    /** Resolves the file's links again and watches the target's folder, moving the watch if the link was re-pointed. */
    private synchronized void watchTarget() {
        Path now;
        try {
            now = file.toRealPath();
        } catch (IOException e) {
            return; // a link caught mid-swap; the next event looks again
        }
        if (now.equals(target)) {
            return;
        }
        target = now;
        if (targetKey != null) {
            targetKey.cancel();
            targetKey = null;
        }
        Path targetFolder = now.getParent();
        if (!targetFolder.equals(folder)) { // the same folder is watched already; registering it again would share its key
            try {
                targetKey = targetFolder.register(watch, StandardWatchEventKinds.ENTRY_MODIFY,
                        StandardWatchEventKinds.ENTRY_CREATE);
            } catch (IOException | ClosedWatchServiceException e) {
                LOG.warn("cannot watch {}: {}; edits of {} will not be applied live", targetFolder, e.toString(), now);
            }
        }
    }

    /** Reads the file again whether or not it looks changed (SIGHUP), on a thread of its own. */
    void reloadNow() {
        Thread t = new Thread(() -> {
            lastSeen = null;
            lastContent = null;
            reload();
        }, "fulcrum-sighup");
        t.setDaemon(true);
        t.start();
    }

    /** Reads the file and applies it if it changed; returns the problems (empty = applied or unchanged). */
    List<String> reload() {
        try {
            FileTime t = Files.getLastModifiedTime(file);
            String content = Files.readString(file);
            if (t.equals(lastSeen) && content.equals(lastContent)) {
                return List.of();
            }
            lastSeen = t;
            lastContent = content;
            FulcrumConfig next = ConfigLoader.parse(content);
            List<String> problems = app.apply(next);
            if (problems.isEmpty()) {
                LOG.info("applied the edited config from {}", file);
            } else {
                reject(problems);
            }
            return problems;
        } catch (ConfigException e) {
            List<String> problems = e.problems().stream().map(ConfigProblem::describe).toList();
            reject(problems);
            return problems;
        } catch (IOException e) {
            LOG.warn("cannot read {}: {}", file, e.toString());
            return List.of("file: cannot read (got: " + file + ")");
        } catch (RuntimeException e) {
            // whatever went wrong, this thread must live on to apply the next edit
            LOG.error("the edited config from {} could not be applied", file, e);
            List<String> problems = List.of("$: could not be applied: " + e.getMessage() + " (got: " + file + ")");
            reject(problems);
            return problems;
        }
    }

    private void reject(List<String> problems) {
        for (String p : problems) {
            LOG.warn("config error: {} (edit not applied; the running config stays)", p);
        }
        app.engine().publish("config", null, null, null, "rejected: " + String.join("; ", problems));
    }

    @Override
    public void close() {
        thread.interrupt();
        try {
            watch.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
