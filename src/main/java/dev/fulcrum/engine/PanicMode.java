package dev.fulcrum.engine;

/**
 * Panic mode, after Envoy's: when ejections alone would leave a pool nothing to pick, passive detection is
 * more likely wrong (a shared dependency failing, a burst of client errors counted as the backends') than
 * every backend broken, so the ejected backends take traffic again, primaries first. A pool's snapshot says
 * whether it is in panic ({@link PoolSnapshot#panic}), and each change is told as a {@code panic} event
 * ({@code off} to {@code on}, or back).
 *
 * <p>Example: primaries a, b, c and backup z. a and b are ejected, c is DOWN: z serves, no panic. z is
 * ejected too: nothing but ejected backends is left, so a and b serve (z stays out while a primary can serve),
 * and the pool is in panic until a backend is available on its own or the ejections end. Had c been ejected
 * rather than DOWN, it would serve too; a DOWN, draining, OPEN-breaker or weight-0 backend never does.
 *
 * <p>Threading: stateless; {@link SnapshotBuilder} asks it on the control thread while building a snapshot.
 */
final class PanicMode {
    private PanicMode() {
    }

    /**
     * True when the pool is in panic: no backend is available, and at least one is left out by ejection alone.
     *
     * @param available backends that may take traffic, primaries and backups together
     * @param ejected   backends that would be available but for an ejection, primaries and backups together
     */
    static boolean applies(int available, int ejected) {
        return available == 0 && ejected > 0;
    }

    /** The text a {@code panic} event carries for a state. */
    static String name(boolean panic) {
        return panic ? "on" : "off";
    }
}
