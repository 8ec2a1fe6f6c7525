package dev.fulcrum.ui;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.fulcrum.time.ManualClock;
import java.lang.management.ManagementFactory;

/**
 * Run by {@link HeapSettleTest} in a JVM of its own: holds 40 MB live, then has a {@link HeapSettle} on this JVM's
 * real free ratios and collector read a saturated machine with a tight heap and a quiet one, twice each, and prints the
 * heap committed at rest, after the saturated readings and after the quiet ones (MB), and the ratios after each; then
 * whether this JVM runs {@code System.gc()} concurrently and whether {@link HeapSettle#forThisProcess} starts its
 * thread (last, so that thread's own readings of the machine cannot change the ratios measured).
 */
final class HeapSettleProbe {
    private static final int LIVE_MB = 40;
    private static double load;
    private static long collections;

    private HeapSettleProbe() {
    }

    public static void main(String[] args) {
        byte[][] live = new byte[LIVE_MB * 16][];
        for (int i = 0; i < live.length; i++) {
            live[i] = new byte[64 * 1024];
        }
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        HeapSettle.FreeRatios ratios = HeapSettle.vmRatios(vm);
        Runnable collect = HeapSettle.collector();
        HeapSettle settle = new HeapSettle(new ManualClock(), () -> load, () -> collections, collect, ratios);
        collect.run();
        long rest = committedMb();
        load = 0.97;
        for (int i = 0; i < HeapSettle.TIGHT_CHECKS; i++) {
            collections += HeapSettle.TIGHT_COLLECTIONS;
            settle.check();
        }
        long busy = committedMb();
        String busyRatios = ratios.min() + "/" + ratios.max();
        load = 0.1;
        settle.check();
        settle.check();
        long quiet = committedMb();
        String quietRatios = ratios.min() + "/" + ratios.max();
        HeapSettle.forThisProcess();
        boolean settling = Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("fulcrum-heap-settle"));
        System.out.println("concurrent=" + HeapSettle.explicitGcIsConcurrent() + " settling=" + settling
                + " rest=" + rest + " busy=" + busy + " quiet=" + quiet + " ratios=" + busyRatios + " " + quietRatios
                + " live=" + live.length);
    }

    private static long committedMb() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted() >> 20;
    }
}
