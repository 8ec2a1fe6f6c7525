package dev.fulcrum.spi;

/**
 * Which candidates may take this request now: a candidate at its {@code maxInFlight} cap, one whose circuit breaker
 * admits no more calls, or one this request already failed on is not. Skip those the way your algorithm says.
 */
@FunctionalInterface
public interface Eligible {
    boolean test(Candidate candidate);
}
