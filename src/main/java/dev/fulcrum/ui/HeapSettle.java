package dev.fulcrum.ui;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.fulcrum.time.Scheduler;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Sizes the window's heap to its load: roomy while a busy machine collects it often, given back once quiet again.
 * G1 resizes the heap only at the end of a marking cycle (or a full collection), keeping between
 * {@code MinHeapFreeRatio} and {@code MaxHeapFreeRatio} percent of it free; young collections grow it only when their
 * pauses take a large share of the time.
 *
 * <p>While busy: a window whose embedded proxy saturates the machine keeps 35-50 MB live (its views, textures and
 * request history) and allocates 40 MB a second. In a heap G1 sized at rest (55-75 MB with the free ratios of the
 * installers, or of an idle start) the live set sits above G1's threshold for starting a marking cycle, so it marks
 * back to back, a cycle a second, taking the proxy a tenth of a core; or the young generation is left 8 MB and
 * collected five times a second. So after {@value #TIGHT_CHECKS} readings in a row of a nearly saturated machine and
 * {@value #TIGHT_COLLECTIONS} collections or more in each check's {@value #CHECK_SECONDS} s, the free ratios become
 * {@value #BUSY_MIN_FREE}% (at least), and the heap grows to about three times its live set at the next cycle's end. A
 * window animating 1,000 requests a second (the machine 44-100% busy from one second to the next, a burst of
 * collections as the load starts) keeps its small heap.
 *
 * <p>Once quiet: the launch's ratios come back, and a cycle is asked for so G1 gives back what it grew (at rest it may
 * never start one by itself: a window could keep 110 MB of heap committed for 40 MB of live objects). The same happens
 * once the window's start has settled.
 *
 * <p>A cycle is asked for ({@link System#gc()}) only when the JVM runs it as a concurrent cycle
 * ({@code -XX:+ExplicitGCInvokesConcurrent}, which the installers set): a stop-the-world full collection would hold up
 * the proxy's requests. Without the flag (a plain {@code java -jar}) only the ratios change, and take effect at G1's
 * own next cycle.
 *
 * <p>Example: the window shows at 0 s; at 5 s one cycle runs (a young pause of a few ms, marking beside the
 * application, a remark that gives the unused regions back). wrk saturates the machine from 60 s to 120 s; the check
 * at 65 s reads it saturated after 20 collections, and the one at 70 s again, so it widens the ratios and asks for a
 * cycle; the checks at 125 and 130 s read a quiet machine, and the second restores the ratios and asks for one more.
 *
 * <p>Its scheduler's one thread owns the busy/quiet state and is the only one to set the ratios; {@code System.gc()}
 * blocks that thread, not the FX thread, until the cycle ends.
 */
public final class HeapSettle {
    /** After the window shows: its views are built and their first samples drawn. */
    static final long AFTER_START_SECONDS = 5;
    static final long CHECK_SECONDS = 5;
    /** Periods after which a check counts as late. */
    static final long LATE_CHECKS = 2;
    private static final long LATE_NANOS = TimeUnit.SECONDS.toNanos(LATE_CHECKS * CHECK_SECONDS);
    /**
     * The machine's CPU load below which it counts as quiet: the window at rest, drawing its gentle traffic at 60
     * frames a second, keeps a 2-core machine at 0.25-0.35.
     */
    static final double QUIET = 0.5;
    /** Quiet checks in a row, after a busy one, before the heap is settled again. */
    static final int QUIET_CHECKS = 2;
    /**
     * Collections in one check's {@value #CHECK_SECONDS} s from which a busy machine's heap counts as tight: at
     * saturation a heap sized at rest is collected 2-5 times a second, a roomy one every 2 s.
     */
    static final int TIGHT_COLLECTIONS = 5;
    /** Checks in a row that must find the machine nearly saturated and the heap tight. */
    static final int TIGHT_CHECKS = 2;
    /** The least free share of the heap G1 keeps at a cycle's end while the machine is busy, in percent. */
    static final int BUSY_MIN_FREE = 70;
    private static final AtomicBoolean DECIDED = new AtomicBoolean();

    /** The JVM's heap free ratios, in percent. */
    interface FreeRatios {
        int min();

        int max();

        /** Sets both, in the order that keeps the minimum at most the maximum between the two. */
        void set(int min, int max);
    }

    private final Scheduler scheduler;
    private final DoubleSupplier cpuLoad;
    private final LongSupplier collections;
    private final Runnable collect;
    private final FreeRatios ratios;
    private final int launchMin;
    private final int launchMax;
    private long lastCollections;
    private long lastCheckNanos;
    private boolean busy;
    private int tightChecks;
    private boolean roomy;
    private int quietChecks;

    HeapSettle(Scheduler scheduler, DoubleSupplier cpuLoad, LongSupplier collections, Runnable collect,
            FreeRatios ratios) {
        this.scheduler = scheduler;
        this.cpuLoad = cpuLoad;
        this.collections = collections;
        this.collect = collect;
        this.ratios = ratios;
        this.launchMin = ratios.min();
        this.launchMax = ratios.max();
        this.lastCheckNanos = scheduler.ticker().nanos();
    }

    /**
     * Starts sizing this process's heap, decided once per process (a second window on the same JVM, after a change
     * of language or scenario, starts nothing again); nothing where the JVM's free ratios cannot be set (not HotSpot).
     */
    public static void forThisProcess() {
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (vm == null || !DECIDED.compareAndSet(false, true)) {
            return;
        }
        FreeRatios ratios = vmRatios(vm);
        try {
            ratios.min();
        } catch (IllegalArgumentException noSuchFlag) { // the bean without HotSpot's flags
            return;
        }
        new HeapSettle(Scheduler.daemon("fulcrum-heap-settle"), FramePacer.machineLoad(), HeapSettle::collectionCount,
                collector(), ratios).start();
    }

    /** The collections this JVM has made so far, of every kind. */
    static long collectionCount() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    /** Asks for a concurrent cycle where {@code System.gc()} is one; does nothing otherwise. */
    static Runnable collector() {
        return explicitGcIsConcurrent() ? System::gc : () -> { };
    }

    static boolean explicitGcIsConcurrent() {
        try {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return vm != null && Boolean.parseBoolean(vm.getVMOption("ExplicitGCInvokesConcurrent").getValue());
        } catch (RuntimeException notHotSpot) {
            return false;
        }
    }

    /** The running JVM's {@code MinHeapFreeRatio} and {@code MaxHeapFreeRatio}, which HotSpot lets a process set. */
    static FreeRatios vmRatios(HotSpotDiagnosticMXBean vm) {
        return new FreeRatios() {
            @Override
            public int min() {
                return Integer.parseInt(vm.getVMOption("MinHeapFreeRatio").getValue());
            }

            @Override
            public int max() {
                return Integer.parseInt(vm.getVMOption("MaxHeapFreeRatio").getValue());
            }

            @Override
            public void set(int min, int max) {
                if (max > max()) { // the maximum first: the JVM refuses a minimum above the maximum
                    vm.setVMOption("MaxHeapFreeRatio", Integer.toString(max));
                    vm.setVMOption("MinHeapFreeRatio", Integer.toString(min));
                } else {
                    vm.setVMOption("MinHeapFreeRatio", Integer.toString(min));
                    vm.setVMOption("MaxHeapFreeRatio", Integer.toString(max));
                }
            }
        };
    }

    void start() {
        scheduler.schedule(() -> {
            collect.run();
            lastCollections = collections.getAsLong(); // each check counts the collections of its own 5 s
            lastCheckNanos = scheduler.ticker().nanos();
        }, AFTER_START_SECONDS, TimeUnit.SECONDS);
        // a fixed delay: a process stopped for a while (SIGSTOP, a debugger) gets one late check, not a burst of them
        scheduler.scheduleWithFixedDelay(this::check, AFTER_START_SECONDS + CHECK_SECONDS, CHECK_SECONDS,
                TimeUnit.SECONDS);
    }

    /**
     * One look at the machine's load and the collections since the last: the last of {@link #TIGHT_CHECKS} nearly
     * saturated ones with a tight heap makes the heap roomy; the last of {@link #QUIET_CHECKS} quiet ones after a busy
     * one gives it back. A check that comes more than {@value #LATE_CHECKS} periods after the last only starts the
     * next one's count: the process was stopped or starved meanwhile, and what it read covers a span its thresholds
     * are not for (a window stopped while another process saturates the machine would read busy, then quiet, and give
     * its heap back under load).
     */
    void check() {
        boolean late = scheduler.ticker().nanos() - lastCheckNanos > LATE_NANOS;
        double load = cpuLoad.getAsDouble();
        long count = collections.getAsLong();
        long since = count - lastCollections;
        lastCollections = count;
        if (!late) {
            look(load, since);
        }
        // from the check's end: a cycle asked for blocks this thread, and the next check waits for it
        lastCheckNanos = scheduler.ticker().nanos();
    }

    private void look(double load, long since) {
        boolean tight = load >= FramePacer.NEARLY_SATURATED && since >= TIGHT_COLLECTIONS;
        tightChecks = tight ? tightChecks + 1 : 0;
        if (load >= FramePacer.BUSY) {
            busy = true;
            quietChecks = 0;
            if (!roomy && tightChecks >= TIGHT_CHECKS) {
                roomy = true;
                int min = Math.max(launchMin, BUSY_MIN_FREE);
                ratios.set(min, Math.max(launchMax, min));
                collect.run();
            }
        } else if (load >= QUIET) {
            quietChecks = 0;
        } else if (busy && ++quietChecks == QUIET_CHECKS) {
            busy = false;
            quietChecks = 0;
            if (roomy) {
                roomy = false;
                ratios.set(launchMin, launchMax);
            }
            collect.run();
        }
    }
}
