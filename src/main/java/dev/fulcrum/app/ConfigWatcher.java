package dev.fulcrum.app;

import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.ConfigProblem;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.time.Cancellable;
import dev.fulcrum.time.Scheduler;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches {@code --config FILE}: a valid edit is applied live; an invalid one is logged and published as a
 * {@code config} event with its problems, and the running config stays. Edits are debounced (editors often
 * write a file in several steps): the first event of a burst schedules one read {@link #DEBOUNCE_MS} later on the
 * {@link Scheduler}, and events until then join it. Reads are compared by modification time and content, so
 * saving from the app, which writes the same content, does not re-apply anything.
 *
 * <p>Threads: one thread waits for file-system events and only schedules; reads, applies and the re-resolving of
 * links run as scheduler tasks, one at a time (SIGHUP's {@link #reloadNow} too). Tests give a
 * {@link dev.fulcrum.time.ManualClock} and advance it once the file-system event has arrived.
 *
 * <p>The file may be a symlink into another folder (a Kubernetes ConfigMap mounts {@code fulcrum.json ->
 * ..data/fulcrum.json} with {@code ..data -> ..2024_01_01_...}; a dotfiles repo links into its checkout). An edit of
 * the target shows only in the target's folder, and a ConfigMap update shows in the link's folder only as a new
 * {@code ..data} link, never under the file's own name. So the target's folder is watched too, any symlink appearing
 * beside a linked config counts as a possible change, and after each look the link is resolved again, moving the
 * second watch when it was re-pointed.
 */
final class ConfigWatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigWatcher.class);
    /** How long after a file's first change it is read: a guess, longer than an editor's save takes. */
    static final long DEBOUNCE_MS = 300;

    private final Path file;
    /** The file's folder with its own links resolved: the form {@link #target} and watch keys are compared in. */
    private final Path folder;
    /** Applies a config read from the file; returns its problems (empty: applied). */
    private final Function<FulcrumConfig, List<String>> apply;
    /** Where a rejected edit is announced, as a {@code config} event. */
    private final Engine events;
    private final WatchService watch;
    private final Thread thread;
    private final Scheduler scheduler;
    /** Whether this watcher made {@link #scheduler} (and so shuts it down). */
    private final boolean ownsScheduler;
    /** Set from the first event of a burst until its read starts: later events join that read. */
    private final AtomicBoolean readScheduled = new AtomicBoolean();
    private volatile Cancellable pendingRead;
    /** Where the file's links lead, as of the last look; changed only in {@link #watchTarget}. */
    private volatile Path target;
    /** The watch on the target's folder, when it is not {@link #folder}. */
    private WatchKey targetKey;
    private volatile FileTime lastSeen;
    private volatile String lastContent;

    private ConfigWatcher(Path file, Function<FulcrumConfig, List<String>> apply, Engine events, Scheduler scheduler,
                          boolean ownsScheduler) throws IOException {
        this.file = file.toAbsolutePath();
        this.apply = apply;
        this.events = events;
        this.scheduler = scheduler;
        this.ownsScheduler = ownsScheduler;
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
    static ConfigWatcher start(Path file, FulcrumApp app) {
        return start(file, app::apply, app.engine(), Scheduler.daemon("fulcrum-config-reload"), true);
    }

    /** Starts watching with reads on {@code scheduler} (a test's manual clock), which the caller shuts down. */
    static ConfigWatcher start(Path file, FulcrumApp app, Scheduler scheduler) {
        return start(file, app::apply, app.engine(), scheduler, false);
    }

    /** Starts watching with reads on {@code scheduler}, each config read handed to {@code apply}. */
    static ConfigWatcher start(Path file, Function<FulcrumConfig, List<String>> apply, Engine events,
                               Scheduler scheduler) {
        return start(file, apply, events, scheduler, false);
    }

    private static ConfigWatcher start(Path file, Function<FulcrumConfig, List<String>> apply, Engine events,
                                       Scheduler scheduler, boolean ownsScheduler) {
        try {
            return new ConfigWatcher(file, apply, events, scheduler, ownsScheduler);
        } catch (IOException e) {
            LOG.warn("cannot watch {}: {}; edits will not be applied live", file, e.toString());
            if (ownsScheduler) {
                scheduler.shutdown();
            }
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
                key.reset(); // every key, or it is never signalled again and every later edit goes unnoticed
                if (ours && readScheduled.compareAndSet(false, true)) {
                    pendingRead = scheduler.schedule(this::readAfterBurst, DEBOUNCE_MS, TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closing
        }
    }

    /** The debounced read: the editor has finished writing. */
    private void readAfterBurst() {
        readScheduled.set(false); // an event from now on may be a newer write: it schedules a read of its own
        // watch a re-pointed link's new folder before reading through it: an edit there right after the swap is
        // then either in what reload() reads or signalled afterwards, never lost between
        watchTarget();
        reload();
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

    /** Reads the file again whether or not it looks changed (SIGHUP), on the scheduler, not the caller's thread. */
    void reloadNow() {
        scheduler.execute(() -> {
            lastSeen = null;
            lastContent = null;
            reload();
        });
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
            List<String> problems = apply.apply(next);
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
        events.publish("config", null, null, null, "rejected: " + String.join("; ", problems));
    }

    @Override
    public void close() {
        thread.interrupt();
        try {
            watch.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        Cancellable read = pendingRead;
        if (read != null) {
            read.cancel();
        }
        if (ownsScheduler) {
            scheduler.shutdown();
        }
    }
}
