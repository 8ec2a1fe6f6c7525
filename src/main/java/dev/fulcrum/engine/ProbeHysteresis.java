package dev.fulcrum.engine;

/**
 * Active health-check results with rise/fall hysteresis: a backend goes DOWN after {@code fall} failed
 * probes in a row and comes back UP after {@code rise} good ones in a row, so one lost probe neither takes a
 * backend out nor one lucky probe puts a broken one back. A backend not yet probed (UNKNOWN) takes traffic
 * and is UP after its first good probe.
 *
 * <p>Example with rise 2, fall 3: UNKNOWN, ok: UP. fail, fail: still UP (streak -2). fail: DOWN. ok: still
 * DOWN (streak 1). fail, ok: still DOWN (the streak starts again at 1). ok: UP, and its slow start begins.
 *
 * <p>Threading: stateless; the fields it reads and writes ({@link Backend#probeStreak},
 * {@link Backend#health}, and {@link Backend#upSinceNanos} through {@link SlowStart}) are the control
 * thread's. The health checker's results reach it through {@link Engine#reportProbe}.
 */
final class ProbeHysteresis {
    private ProbeHysteresis() {
    }

    /**
     * Applies one probe result to {@code b} under {@code s}'s rise, fall and slow start.
     *
     * @return true when {@code b}'s health changed (the pool's states need a refresh)
     */
    static boolean apply(Backend b, boolean ok, EngineSettings s, long now) {
        b.probeStreak = ok ? Math.max(0, b.probeStreak) + 1 : Math.min(0, b.probeStreak) - 1;
        int streak = Math.abs(b.probeStreak);
        HealthStatus before = b.health;
        if (ok) {
            b.unverified = false; // an answer to a probe shows it works
        }
        if (ok && before != HealthStatus.UP && (before == HealthStatus.UNKNOWN || streak >= s.rise())) {
            b.health = HealthStatus.UP;
            if (before == HealthStatus.DOWN) {
                SlowStart.begin(b, s.slowStartMs(), now);
            }
        } else if (!ok && before != HealthStatus.DOWN && streak >= s.fall()) {
            b.health = HealthStatus.DOWN;
        }
        return b.health != before;
    }
}
