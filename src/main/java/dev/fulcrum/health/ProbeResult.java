package dev.fulcrum.health;

/**
 * One active health probe, as the window's health view lists it.
 *
 * @param atMillis  when the probe was sent, wall-clock milliseconds (the engine's ticker)
 * @param ok        the backend answered {@code expectedStatus} within the timeout
 * @param latencyMs from sending to the whole answer, or to the failure
 * @param status    the HTTP status answered, or null when there was no answer
 * @param error     why the probe failed ({@code connection refused}, {@code timeout after 1000 ms},
 *                  {@code expected status 200 (got: 503)}), or null when it succeeded
 */
public record ProbeResult(long atMillis, boolean ok, double latencyMs, Integer status, String error) {
}
