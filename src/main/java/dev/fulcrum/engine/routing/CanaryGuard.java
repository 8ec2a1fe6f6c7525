package dev.fulcrum.engine.routing;

import java.util.Locale;

/**
 * Watches a split's canary arm against its baseline (the first arm) over the figures the split panel shows (the last
 * minute, {@link ArmStats}) and says when to roll back ({@code routes[i].guard}, docs/REFERENCE.md §2.1): while the
 * canary's error rate exceeds the baseline's by more than {@code errorRateAbove}, or its p99 exceeds the baseline's
 * p99 by more than the fraction {@code p99AboveBaselineBy}, with at least {@code minRequests} in each arm, for
 * {@code forMs} without a break. Judged once a second by the control thread, which alone calls {@link #judge}; the
 * state it publishes is read from any thread.
 *
 * <p>Example: errorRateAbove 0.05, forMs 10000: the baseline at 1% errors and the canary at 12% for ten seconds is a
 * rollback; the canary at 5.5% never is.
 */
public final class CanaryGuard {
    /** What the guard is doing, as {@code /api/state} says it: {@code state} is one of the {@code STATE_} words. */
    public record Status(String state, long sinceMillis, String reason) {
    }

    public static final String WATCHING = "watching";
    public static final String TOO_FEW = "too-few";
    public static final String BREACHING = "breaching";
    public static final String ROLLED_BACK = "rolled-back";
    /** The canary takes no users (weight 0): nothing to judge. */
    public static final String IDLE = "idle";

    private final String arm;
    private final Double errorRateAbove;
    private final Double p99AboveBaselineBy;
    private final int minRequests;
    private final long forMs;

    // control thread
    private long breachSinceNanos = Long.MIN_VALUE;
    private volatile Status status;

    /** A guard watching from its first judgement on (its state's {@code sinceMillis} is 0 until then). */
    public CanaryGuard(String arm, Double errorRateAbove, Double p99AboveBaselineBy, int minRequests, long forMs) {
        this.arm = arm;
        this.errorRateAbove = errorRateAbove;
        this.p99AboveBaselineBy = p99AboveBaselineBy;
        this.minRequests = minRequests;
        this.forMs = forMs;
        this.status = new Status(WATCHING, 0, null);
    }

    public String arm() {
        return arm;
    }

    public Double errorRateAbove() {
        return errorRateAbove;
    }

    public Double p99AboveBaselineBy() {
        return p99AboveBaselineBy;
    }

    public int minRequests() {
        return minRequests;
    }

    public long forMs() {
        return forMs;
    }

    public Status status() {
        return status;
    }

    /**
     * One judgement (control thread, once a second).
     *
     * @param baselineName the baseline arm's pool, for the reason
     * @param canaryWeight the canary's weight now: at 0 there is nothing to judge
     * @return why to roll back now, or null
     */
    public String judge(String baselineName, ArmStats.Figures baseline, ArmStats.Figures canary, int canaryWeight,
                        long nowNanos, long nowMillis) {
        if (canaryWeight == 0) {
            breachSinceNanos = Long.MIN_VALUE;
            if (!status.state().equals(ROLLED_BACK) && !status.state().equals(IDLE)) {
                status = new Status(IDLE, nowMillis, null);
            }
            return null;
        }
        if (baseline.requests() < minRequests || canary.requests() < minRequests) {
            breachSinceNanos = Long.MIN_VALUE;
            set(TOO_FEW, nowMillis, String.format(Locale.ROOT, "%d and %d requests in the last minute, %d needed in each",
                    baseline.requests(), canary.requests(), minRequests));
            return null;
        }
        String breach = breach(baselineName, baseline, canary);
        if (breach == null) {
            breachSinceNanos = Long.MIN_VALUE;
            set(WATCHING, nowMillis, null);
            return null;
        }
        if (breachSinceNanos == Long.MIN_VALUE) {
            breachSinceNanos = nowNanos;
        }
        long heldMs = (nowNanos - breachSinceNanos) / 1_000_000;
        if (heldMs < forMs) {
            set(BREACHING, nowMillis, breach);
            return null;
        }
        breachSinceNanos = Long.MIN_VALUE;
        String reason = breach + String.format(Locale.ROOT, " for %.0f s (%d and %d requests)", heldMs / 1000.0,
                baseline.requests(), canary.requests());
        status = new Status(ROLLED_BACK, nowMillis, reason);
        return reason;
    }

    /** The canary's weight was raised again after a rollback: the guard watches afresh. */
    public void rearm(long nowMillis) {
        breachSinceNanos = Long.MIN_VALUE;
        status = new Status(WATCHING, nowMillis, null);
    }

    private void set(String state, long nowMillis, String reason) {
        Status s = status;
        if (!s.state().equals(state) || !java.util.Objects.equals(s.reason(), reason)) {
            status = new Status(state, s.state().equals(state) ? s.sinceMillis() : nowMillis, reason);
        }
    }

    /** Which bound the canary is past, in words with the figures, or null. */
    private String breach(String baselineName, ArmStats.Figures baseline, ArmStats.Figures canary) {
        if (errorRateAbove != null && canary.errorRate() - baseline.errorRate() > errorRateAbove) {
            return String.format(Locale.ROOT, "%s error rate %.3f above %s's %.3f by more than errorRateAbove %s",
                    arm, canary.errorRate(), baselineName, baseline.errorRate(), number(errorRateAbove));
        }
        if (p99AboveBaselineBy != null && baseline.p99Ms() > 0
                && canary.p99Ms() > baseline.p99Ms() * (1 + p99AboveBaselineBy)) {
            return String.format(Locale.ROOT, "%s p99 %.1f ms above %s's %.1f ms by more than p99AboveBaselineBy %s",
                    arm, canary.p99Ms(), baselineName, baseline.p99Ms(), number(p99AboveBaselineBy));
        }
        return null;
    }

    private static String number(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
