package dev.fulcrum.engine;

import java.util.Map;

/**
 * Passive outlier detection, after Envoy's consecutive-5xx detector (docs/REFERENCE.md §2.1,
 * {@code outlierDetection}): a backend whose requests fail {@code consecutiveFailures} times in a row is
 * ejected, left out of the pool's snapshot for a while, without waiting for the active health check.
 *
 * <p>Ejection length: the n-th ejection of a backend lasts n times {@code baseEjectionMs}, capped at 300 s, so
 * a backend that keeps failing stays out longer each time. Example with the default 30 s: 30 s, 60 s, 90 s ...
 * 300 s from the 10th ejection on.
 *
 * <p>Share: at most {@code maxEjectionPercent} of a pool's primaries (or, separately, of its backups) are
 * ejected at once, but one always may be. Example with 50% and four primaries: the first and second are
 * ejected; a third failing one stays in (3 of 4 is over 50%). With three primaries only one is ejected
 * (2 of 3 is over 50%). When ejections still leave nothing to pick, {@link PanicMode} puts them back.
 *
 * <p>Threading, in two halves. Request threads count a backend's failures in a row
 * ({@link #countCall}, on {@link Backend#consecutiveFailures}, an atomic) and hand the backend to the
 * control thread when the run reaches the threshold; the control thread alone decides the ejection
 * ({@link #eject}), ends it ({@link #endIfOver}) and owns {@link Backend#ejectedUntilNanos} and
 * {@link Backend#timesEjected}.
 *
 * <p>Back in rotation, unverified: when an ejection ends the backend takes requests again whether or not anything
 * listens there (as nginx's {@code fail_timeout}), so unless active health checks say it is UP it is
 * {@link Backend#unverified} until a request to it succeeds (or a probe does, {@link ProbeHysteresis}).
 */
final class OutlierEjection {
    private static final long MAX_EJECTION_NANOS = 300_000_000_000L;
    private static final long MAX_EJECTION_MS = MAX_EJECTION_NANOS / 1_000_000L;

    private OutlierEjection() {
    }

    /**
     * Counts one finished call (request thread; no lock, no allocation). A success ends the run of failures;
     * a failure extends it.
     *
     * @return true when this failure brings the run to the threshold: hand {@code b} to {@link #eject}
     */
    static boolean countCall(Backend b, boolean failed, EngineSettings.OutlierSpec o) {
        if (!failed) {
            if (b.consecutiveFailures().get() != 0) { // a read, not a store, on the common path
                b.consecutiveFailures().set(0);
            }
            if (b.unverified) { // likewise
                b.unverified = false;
            }
            return false;
        }
        // >= rather than ==, so a threshold lowered at run time still applies; eject() resets the count whatever
        // it decides, so the next run of failures can reach the threshold again
        return o.enabled() && b.consecutiveFailures().incrementAndGet() >= o.consecutiveFailures();
    }

    /**
     * Ejects {@code b} if it is still the member of that id, not ejected already, and within the share
     * (control thread). Whatever is decided, its next run of failures counts from zero.
     *
     * @param members the pool's members by id
     * @return true when {@code b} was ejected (the pool's states need a refresh)
     */
    static boolean eject(Backend b, Map<String, Backend> members, long now, EngineSettings.OutlierSpec o) {
        b.consecutiveFailures().set(0);
        if (members.get(b.id()) != b || isEjected(b, now) || !o.enabled()) {
            return false;
        }
        int total = 0;
        int ejected = 0;
        for (Backend m : members.values()) {
            if (m.isBackup() == b.isBackup()) {
                total++;
                if (isEjected(m, now)) {
                    ejected++;
                }
            }
        }
        if (ejected > 0 && (ejected + 1) * 100L > (long) o.maxEjectionPercent() * total) {
            return false;
        }
        b.timesEjected++;
        b.ejectedUntilNanos = now + length(o.baseEjectionMs(), b.timesEjected);
        return true;
    }

    /**
     * The length of the {@code n}-th ejection in nanoseconds. Each factor is capped before they are
     * multiplied, so the n-th ejection of a long-lived backend cannot wrap to a negative length.
     */
    static long length(long baseEjectionMs, int n) {
        return Math.min(MAX_EJECTION_NANOS,
                Math.min(baseEjectionMs, MAX_EJECTION_MS) * 1_000_000L * Math.min(n, MAX_EJECTION_MS));
    }

    /** True while {@code b}'s ejection deadline is ahead of {@code now}. */
    static boolean isEjected(Backend b, long now) {
        return b.ejectedUntilNanos != Long.MIN_VALUE && now - b.ejectedUntilNanos < 0;
    }

    /**
     * Ends {@code b}'s ejection if its deadline has passed (the control tick's job).
     *
     * @return true when an ejection ended just now (the backend's slow start begins)
     */
    static boolean endIfOver(Backend b, long now) {
        if (b.ejectedUntilNanos != Long.MIN_VALUE && !isEjected(b, now)) {
            end(b);
            return true;
        }
        return false;
    }

    /**
     * Ends {@code b}'s ejection now, its deadline passed or an operator enabled it (control thread): it is back in
     * rotation, unverified unless active health checks say it is UP.
     */
    static void end(Backend b) {
        if (b.ejectedUntilNanos != Long.MIN_VALUE) {
            b.ejectedUntilNanos = Long.MIN_VALUE;
            b.unverified = b.health != HealthStatus.UP;
        }
    }

    /** Milliseconds left of {@code b}'s ejection for a view: 0 once due, until the tick that ends it. */
    static long remainingMs(Backend b, long now) {
        return isEjected(b, now) ? (b.ejectedUntilNanos - now) / 1_000_000 : 0;
    }
}
