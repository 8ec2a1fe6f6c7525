package dev.fulcrum.ui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Has the operating system run the proxy's threads before the window's when the cores are all busy: the threads that
 * draw the window (JavaFX's application and renderer threads, its invoke-later dispatcher) and the JIT's C2 compiler
 * threads, which under a saturating load spend minutes compiling the window's drawing and layout code, run at nice
 * {@value #NICE}. On an idle core they run as before; when wrk, the backends and the proxy want both cores of a
 * 2-core machine, a proxy I/O thread that wakes up takes the core from them at once. The stage already draws fewer
 * frames then ({@link FramePacer}); this is the same promise kept by the scheduler.
 *
 * <p>Linux only: each thread is found by its name in {@code /proc/self/task/TID/comm} and lowered with
 * {@code renice -n 10 -p TID} (a thread's nice value is its own on Linux, and lowering needs no privilege). Elsewhere,
 * or without {@code renice}, nothing changes.
 *
 * <p>A thread inherits its creator's nice value, and only a privileged process may raise it again, so a thread that
 * starts an engine (whose I/O threads it creates) must not be started by a lowered thread: {@link #start} starts it
 * from a parent thread of its own, created at normal priority before anything is lowered.
 *
 * <p>Example: the window shows; the FX thread (tid 4012), QuantumRenderer-0 (4009) and C2 CompilerThread0 (3987) are
 * reniced to 10; the XNIO I/O threads of the engine stay at 0, and so do those of a scenario opened later, whose
 * {@code fulcrum-ui-connect} thread {@link #start} started from the parent.
 */
public final class ProxyFirst {
    private static final Logger LOG = LoggerFactory.getLogger(ProxyFirst.class);
    static final int NICE = 10;
    /** The lowered threads' names as {@code /proc} gives them: a thread's first 15 characters. */
    static final List<String> DRAWING = List.of("JavaFX Applicat", "QuantumRenderer", "InvokeLaterDisp",
            "C2 CompilerThre");
    /** Off with {@code -Dfulcrum.ui.proxyFirst=false} (the test JVMs, whose windows share two cores with a build). */
    static final String PROPERTY = "fulcrum.ui.proxyFirst";
    private static final AtomicBoolean DONE = new AtomicBoolean();
    /** Starts threads at the priority this class's first user had: normal, since only this class lowers any. */
    private static final ThreadPoolExecutor PARENT = parent();

    private ProxyFirst() {
    }

    private static ThreadPoolExecutor parent() {
        ThreadPoolExecutor p = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "fulcrum-thread-parent");
            t.setDaemon(true);
            return t;
        });
        p.prestartAllCoreThreads(); // now, from a thread not yet lowered
        return p;
    }

    /** Starts {@code t} from a thread at normal priority, whichever thread asks (the FX thread, lowered). */
    public static void start(Thread t) {
        PARENT.execute(t::start);
    }

    /**
     * Lowers the drawing and compiling threads of this process, once per process, off the caller's thread; nothing
     * where it does not apply (see the class).
     */
    public static void forThisProcess() {
        if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "true")) || !DONE.compareAndSet(false, true)) {
            return;
        }
        start(new Thread(() -> {
            List<String> lowered = lower(DRAWING);
            LOG.debug("at nice {}: {}", NICE, lowered);
        }, "fulcrum-proxy-first"));
    }

    /**
     * Renices every thread of this process whose name starts with one of {@code names}; returns their ids, empty
     * where threads cannot be listed or {@code renice} cannot be run.
     */
    static List<String> lower(List<String> names) {
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return List.of();
        }
        List<String> ids = new ArrayList<>();
        try (Stream<Path> all = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) all::iterator) {
                String name = threadName(task);
                if (name != null && names.stream().anyMatch(name::startsWith)) {
                    ids.add(task.getFileName().toString());
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("cannot list this process's threads", e);
            return List.of();
        }
        if (ids.isEmpty()) {
            return ids;
        }
        List<String> command = new ArrayList<>(List.of("renice", "-n", String.valueOf(NICE), "-p"));
        command.addAll(ids);
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!p.waitFor(5, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroy();
                LOG.debug("renice did not lower {}", ids);
                return List.of();
            }
            return ids;
        } catch (IOException e) {
            LOG.debug("no renice here", e);
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    /** A thread's name as the kernel keeps it, or null once it has ended. */
    static String threadName(Path task) {
        try {
            return Files.readString(task.resolve("comm")).strip();
        } catch (IOException gone) {
            return null;
        }
    }

    /** A thread's nice value, field 19 of {@code /proc/self/task/TID/stat} (after the name, which may hold spaces). */
    static int nice(Path task) throws IOException {
        String stat = Files.readString(task.resolve("stat"));
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(after[16]);
    }
}
