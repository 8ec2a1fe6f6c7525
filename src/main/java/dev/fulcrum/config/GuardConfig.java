package dev.fulcrum.config;

/**
 * {@code routes[i].guard}: rolls the split's arm {@code arm} back (weight 0) when, with at least {@code minRequests}
 * in it and in the first arm over the last minute, its error rate exceeds the first arm's by more than
 * {@code errorRateAbove}, or its p99 the first arm's by more than the fraction {@code p99AboveBaselineBy}, for
 * {@code forMs}. At least one bound is given.
 */
public record GuardConfig(String arm, Double errorRateAbove, Double p99AboveBaselineBy, int minRequests, long forMs) {
    public static final GuardConfig DEFAULTS = new GuardConfig(null, null, null, 100, 10_000);
}
