package dev.fulcrum.demo;

/**
 * How one request of workshop traffic ended, handed to a listener of {@link TrafficGenerator#onAnswer}: when it was
 * sent (so a reader can count what was sent since a moment, not what happened to come back since), which backend
 * answered and how.
 *
 * @param sentNanos     when it was sent, on the generator's ticker
 * @param backend       its {@code X-Fulcrum-Backend} header, {@code -} without one, null when no answer came
 * @param status        the HTTP status, 0 when no answer came (refused, reset, timed out)
 * @param latencyMicros from send to answer (or failure)
 * @param requestClass  the traffic class it was sent as ({@link TrafficGenerator#classes}), or null
 */
public record TrafficAnswer(long sentNanos, String backend, int status, long latencyMicros, String requestClass) {
    /** An answer to a request sent without a class. */
    public TrafficAnswer(long sentNanos, String backend, int status, long latencyMicros) {
        this(sentNanos, backend, status, latencyMicros, null);
    }

    /** Whether an HTTP answer came (of any status). */
    public boolean answered() {
        return status > 0;
    }
}
