package dev.fulcrum.engine.sim;

/**
 * One request of a simulated trace.
 *
 * @param atNanos when it arrives, nanoseconds after the start of the trace
 * @param method  GET or POST (carried for the record; strategies do not look at it)
 * @param key     the hash key, e.g. {@code k17}
 */
public record SimRequest(long atNanos, String method, String key) {
    public SimRequest {
        if (atNanos < 0) {
            throw new IllegalArgumentException("atNanos: must be at least 0 (got: " + atNanos + ")");
        }
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("key: required (got: " + key + ")");
        }
        method = method == null ? "GET" : method;
    }
}
