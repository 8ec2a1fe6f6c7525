package dev.fulcrum.config;

/**
 * Retries ({@code retries}, docs/REFERENCE.md §2.1 and §3): at most {@code maxRetries} more attempts, each on a different
 * backend, only for GET, HEAD and OPTIONS unless {@code retryNonIdempotent}.
 */
public record RetryConfig(int maxRetries, boolean retryNonIdempotent) {
    public static final RetryConfig DEFAULT = new RetryConfig(2, false);
}
