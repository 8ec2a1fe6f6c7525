package dev.fulcrum.demo;

import java.util.Map;

/**
 * What the traffic generator has done so far: an immutable copy taken by {@link TrafficGenerator#snapshot()}
 * and handed to listeners about four times a second.
 *
 * @param state            where the run is
 * @param elapsedNanos     time since start (frozen once the run is done)
 * @param durationNanos    the run's planned length
 * @param sent             requests sent
 * @param completed        requests answered with any HTTP status
 * @param skipped          sends that were due while {@code maxConcurrency} requests were outstanding (not sent)
 * @param inFlight         sent and not yet answered
 * @param rateLastSecond   answers (and failures) per second over the last full second
 * @param rateOverall      answers (and failures) per second since the start
 * @param targetRate       the requested rate (for a replay: the trace's average rate times the speed)
 * @param byStatus         answers by HTTP status, sorted
 * @param connectionErrors requests that failed without an answer (refused, reset)
 * @param timeouts         requests not answered within the request timeout
 * @param latency          latency of answered requests
 * @param byBackend        answers by their {@code X-Fulcrum-Backend} header, sorted (no header: {@code "-"})
 * @param gets             GET requests sent
 * @param posts            POST requests sent
 */
public record TrafficSnapshot(State state, long elapsedNanos, long durationNanos, long sent, long completed,
                              long skipped, long inFlight, double rateLastSecond, double rateOverall,
                              double targetRate, Map<Integer, Long> byStatus, long connectionErrors, long timeouts,
                              Latency latency, Map<String, Long> byBackend, long gets, long posts) {

    public enum State {
        /** Built, not started. */
        IDLE,
        /** Sending on schedule. */
        RUNNING,
        /** Sending stopped (duration reached, trace exhausted or {@code stop()}); waiting for answers. */
        DRAINING,
        /** Every sent request has finished. */
        DONE
    }

    /** Elapsed over duration, 0..1. */
    public double progress() {
        return durationNanos <= 0 ? 1 : Math.min(1.0, (double) elapsedNanos / durationNanos);
    }

    /** Answers with status 400 or above, plus connection errors and timeouts. */
    public long errors() {
        long n = connectionErrors + timeouts;
        for (Map.Entry<Integer, Long> e : byStatus.entrySet()) {
            if (e.getKey() >= 400) {
                n += e.getValue();
            }
        }
        return n;
    }

    /** Latency percentiles in milliseconds; all 0 before the first answer. */
    public record Latency(long count, double p50Ms, double p90Ms, double p99Ms, double p999Ms, double maxMs) {
        public static final Latency NONE = new Latency(0, 0, 0, 0, 0, 0);
    }
}
