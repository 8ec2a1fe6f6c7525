package dev.fulcrum.ui;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.fulcrum.time.Scheduler;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.DoubleSupplier;

/**
 * Gives back the heap the window's process grew while it was busy: once its start has settled, and once the machine
 * is quiet again after a stretch of saturating load. G1 grows the heap when collections take a large share of the time
 * (the window's start, a load test) and shrinks it only at the end of a marking cycle, which a process at rest with a
 * small live set may never start: a window could keep 110 MB of heap committed for 40 MB of live objects, or 53 MB,
 * depending on when the last marking of its start fell. Asking for one collection here starts that cycle.
 *
 * <p>It asks only when the JVM runs {@link System#gc()} as a concurrent cycle ({@code -XX:+ExplicitGCInvokesConcurrent},
 * which the installers set): a stop-the-world full collection would hold up the proxy's requests. Without the flag (a
 * plain {@code java -jar}) nothing is started.
 *
 * <p>Example: the window shows at 0 s; at 5 s one cycle runs (a young pause of a few ms, marking beside the
 * application, a remark that gives the unused regions back). wrk saturates the machine from 60 s to 120 s; the checks
 * at 125 and 130 s read a quiet machine and the second asks for one more cycle.
 *
 * <p>Its scheduler's one thread owns the busy/quiet state; {@code System.gc()} blocks that thread, not the FX thread,
 * until the cycle ends.
 */
public final class HeapSettle {
    /** After the window shows: its views are built and their first samples drawn. */
    static final long AFTER_START_SECONDS = 5;
    static final long CHECK_SECONDS = 5;
    /**
     * The machine's CPU load below which it counts as quiet: the window at rest, drawing its gentle traffic at 60
     * frames a second, keeps a 2-core machine at 0.25-0.35.
     */
    static final double QUIET = 0.5;
    /** Quiet checks in a row, after a busy one, before the heap is settled again. */
    static final int QUIET_CHECKS = 2;
    private static final AtomicBoolean DECIDED = new AtomicBoolean();

    private final Scheduler scheduler;
    private final DoubleSupplier cpuLoad;
    private final Runnable collect;
    private boolean busy;
    private int quietChecks;

    HeapSettle(Scheduler scheduler, DoubleSupplier cpuLoad, Runnable collect) {
        this.scheduler = scheduler;
        this.cpuLoad = cpuLoad;
        this.collect = collect;
    }

    /**
     * Starts settling this process's heap, decided once per process (a second window on the same JVM, after a change
     * of language or scenario, asks nothing again); nothing when {@code System.gc()} would stop the world.
     */
    public static void forThisProcess() {
        if (!DECIDED.compareAndSet(false, true) || !explicitGcIsConcurrent()) {
            return;
        }
        new HeapSettle(Scheduler.daemon("fulcrum-heap-settle"), FramePacer.machineLoad(), System::gc).start();
    }

    static boolean explicitGcIsConcurrent() {
        try {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return vm != null && Boolean.parseBoolean(vm.getVMOption("ExplicitGCInvokesConcurrent").getValue());
        } catch (RuntimeException notHotSpot) {
            return false;
        }
    }

    void start() {
        scheduler.schedule(collect, AFTER_START_SECONDS, TimeUnit.SECONDS);
        scheduler.scheduleAtFixedRate(this::check, AFTER_START_SECONDS + CHECK_SECONDS, CHECK_SECONDS,
                TimeUnit.SECONDS);
    }

    /** One look at the machine's load; settles the heap on the last of {@link #QUIET_CHECKS} quiet ones after a busy. */
    void check() {
        double load = cpuLoad.getAsDouble();
        if (load >= FramePacer.BUSY) {
            busy = true;
            quietChecks = 0;
        } else if (load >= QUIET) {
            quietChecks = 0;
        } else if (busy && ++quietChecks == QUIET_CHECKS) {
            busy = false;
            quietChecks = 0;
            collect.run();
        }
    }
}
