package dev.fulcrum.ui;

/**
 * Run by {@link HeapSettleTest} in a JVM of its own: prints whether that JVM runs {@code System.gc()} concurrently and
 * whether {@link HeapSettle#forThisProcess} started its thread, then asks for one collection.
 */
final class HeapSettleProbe {
    private HeapSettleProbe() {
    }

    public static void main(String[] args) {
        HeapSettle.forThisProcess();
        boolean settling = Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("fulcrum-heap-settle"));
        System.out.println("concurrent=" + HeapSettle.explicitGcIsConcurrent() + " settling=" + settling);
        System.gc();
    }
}
