package dev.fulcrum.config;

/**
 * Proxy timeouts ({@code timeouts}, docs/REFERENCE.md §2.1), all in milliseconds and positive.
 *
 * @param connectMs       connecting to a backend
 * @param readMs          waiting for a backend's response (504 after it)
 * @param idleMs          an idle client connection is closed after it
 * @param requestHeaderMs a client must finish its request headers within it
 */
public record TimeoutConfig(long connectMs, long readMs, long idleMs, long requestHeaderMs) {
    public static final TimeoutConfig DEFAULT = new TimeoutConfig(3000, 30_000, 60_000, 10_000);
}
