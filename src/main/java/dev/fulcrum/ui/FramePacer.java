package dev.fulcrum.ui;

import java.lang.management.ManagementFactory;
import java.util.function.DoubleSupplier;

/**
 * How often an animated stage (Live, the ring's keys, the breakers) may draw: the proxy comes first. Once a second it
 * reads how busy the machine's CPUs were over the last moments and, when they are nearly saturated (a benchmark, a load
 * test on the same machine), lets the stage draw only a few frames a second, so the software renderer does not take
 * the cores the proxy needs; at workshop rates, where the machine has room, every pulse is drawn (60 a second). The
 * Live toolbar says when it holds back.
 *
 * <p>Example: CPU load 0.97 (wrk against the proxy on this machine) gives at most 4 frames a second (a frame is skipped
 * when less than 1/4 s has passed since the last drawn one), 0.92 gives 8, 0.8 gives 20, 0.5 gives every pulse. At 4
 * a second the Live stage's FX thread and renderer take about half of what they take at 8.
 */
public final class FramePacer {
    static final double SATURATED = 0.95;
    static final double NEARLY_SATURATED = 0.9;
    static final double BUSY = 0.75;

    private final DoubleSupplier cpuLoad;
    private double minGap;
    private double lastFrame = Double.NaN;
    private double lastCheck = Double.NEGATIVE_INFINITY;
    private int cap;

    FramePacer(DoubleSupplier cpuLoad) {
        this.cpuLoad = cpuLoad;
    }

    /** A pacer on this machine's CPU load. */
    public static FramePacer ofThisMachine() {
        return new FramePacer(machineLoad());
    }

    /** The machine's recent CPU load, 0 to 1 (0 where the platform does not say). */
    static DoubleSupplier machineLoad() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return () -> Math.max(0, sun.getCpuLoad());
        }
        return () -> 0;
    }

    /** Whether the pulse at {@code now} (seconds) is drawn. */
    public boolean due(double now) {
        check(now);
        // a little slack: pulses come every 1/60 s, so 1/4 s is never met to the nanosecond
        if (!Double.isNaN(lastFrame) && now - lastFrame < minGap - 0.004) {
            return false;
        }
        lastFrame = now;
        return true;
    }

    /**
     * Reads the machine's load again when a second has passed since the last look, and sets {@link #cap()}; a stage
     * that draws on ticks at the cap's rate (rather than on pulses) calls this instead of {@link #due}.
     */
    public void check(double now) {
        if (now - lastCheck >= 1) {
            lastCheck = now;
            double load = cpuLoad.getAsDouble();
            cap = load >= SATURATED ? 4 : load >= NEARLY_SATURATED ? 8 : load >= BUSY ? 20 : 0;
            minGap = cap == 0 ? 0 : 1.0 / cap;
        }
    }

    /** The frames a second the stage holds itself to now, or 0 when it draws every pulse. */
    public int cap() {
        return cap;
    }
}
