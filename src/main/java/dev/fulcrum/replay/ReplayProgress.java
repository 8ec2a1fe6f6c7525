package dev.fulcrum.replay;

import java.util.Locale;

/**
 * A live replay so far (see {@link LiveReplay}): how many requests of the recording were sent, answered or failed,
 * how many were late, and how late the sends were.
 *
 * @param state           where the replay is
 * @param total           requests in the recording (counted before the first send), -1 while counting
 * @param sent            requests sent
 * @param answered        requests that got an HTTP answer (any status)
 * @param failed          requests that got none (refused, reset, timed out) or could not be sent (a target or method
 *                        no HTTP request can carry)
 * @param late            requests sent more than {@link LiveReplay#LATE_NANOS} after their due time, or that had to
 *                        wait for a free slot under {@link LiveReplay#MAX_IN_FLIGHT}
 * @param waitedForSlot   of those, the ones that waited for a free slot
 * @param inFlight        requests sent and not answered yet
 * @param elapsedNanos    since the replay's start (frozen at DONE)
 * @param sendingNanos    from the start to the last send so far: the time the requests sent took to send
 * @param recordedNanos   from the recording's first request to its last, as recorded (at 1x)
 * @param speed           the speed factor
 * @param latenessMeanMs  mean of send time minus due time, in ms (0 before the first send)
 * @param latenessP99Ms   its 99th percentile
 * @param latenessMaxMs   its maximum
 * @param error           why the replay stopped early (the recording could not be read), or null
 * @param byStatus        the answers by HTTP status, in status order
 */
public record ReplayProgress(State state, long total, long sent, long answered, long failed, long late,
                             long waitedForSlot, int inFlight, long elapsedNanos, long sendingNanos,
                             long recordedNanos, double speed, double latenessMeanMs, double latenessP99Ms,
                             double latenessMaxMs, String error, java.util.Map<Integer, Long> byStatus) {
    public ReplayProgress {
        byStatus = byStatus == null ? java.util.Map.of() : java.util.Collections.unmodifiableMap(
                new java.util.TreeMap<>(byStatus));
    }

    /** Where a replay is. */
    public enum State {
        /** Not started. */
        IDLE,
        /** Reading the recording once to count its requests. */
        COUNTING,
        /** Sending at the recorded offsets. */
        SENDING,
        /** Every request sent (or the replay cancelled); waiting for the answers outstanding. */
        DRAINING,
        /** Every answer in (or given up on): the figures are final. */
        DONE
    }

    /** Whether the replay ended before its last request was sent (cancelled, or the recording broke off). */
    public boolean cancelled() {
        return state == State.DONE && total >= 0 && sent < total;
    }

    /** The share of the recording sent, 0 to 1 (0 while counting). */
    public double fraction() {
        return total <= 0 ? (state == State.DONE ? 1 : 0) : Math.min(1, (double) sent / total);
    }

    /** Requests sent per second of sending, 0 before two sends apart in time. */
    public double achievedRate() {
        return sendingNanos <= 0 ? 0 : sent * 1e9 / sendingNanos;
    }

    /** The rate the recording asks for at this speed: its requests over its span divided by the speed. */
    public double recordedRate() {
        return recordedNanos <= 0 || total <= 0 ? 0 : total * 1e9 / (recordedNanos / speed);
    }

    /** The headless progress line: {@code replay: 1200/5000 requests, 24%}. */
    public String progressLine() {
        if (total < 0) {
            return "replay: counting the requests";
        }
        return String.format(Locale.ROOT, "replay: %d/%d requests, %d%%", sent, total,
                (long) Math.floor(fraction() * 100));
    }

    /**
     * The line a replay ends with (docs/REFERENCE.md §1): {@code replay: 5000 requests in 10.02 s (499.0 req/s), 3
     * late by more than 10 ms, 0 failed}; when it ended early, {@code replay: cancelled after 1200 of 5000 requests in
     * ...}, and {@code replay: stopped after ...: REASON} when the recording could not be read on.
     */
    public String summaryLine() {
        String head = error != null ? String.format(Locale.ROOT, "stopped after %d of %d requests", sent, total)
                : cancelled() ? String.format(Locale.ROOT, "cancelled after %d of %d requests", sent, total)
                : sent + " requests";
        return String.format(Locale.ROOT, "replay: %s in %.2f s (%.1f req/s), %d late by more than %d ms, %d failed%s",
                head, sendingNanos / 1e9, achievedRate(), late, LiveReplay.LATE_NANOS / 1_000_000, failed,
                error == null ? "" : ": " + error);
    }
}
