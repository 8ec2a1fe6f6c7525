package dev.fulcrum.demo;

import java.util.Map;

/**
 * A snapshot of one demo backend's traffic counters, for tests and the window.
 *
 * <p>Only application traffic counts (ordinary paths and {@code /echo}); {@code /health} probes and
 * {@code /metrics.json} polls are control-plane chatter and would otherwise drown a quiet backend's numbers.
 *
 * @param requests requests answered since start (all server runs together)
 * @param byStatus the same, by HTTP status
 * @param inFlight requests being served right now
 */
public record DemoCounters(long requests, Map<Integer, Long> byStatus, int inFlight) {
    public DemoCounters {
        byStatus = Map.copyOf(byStatus);
    }

    /** Requests answered with {@code status} (0 when none). */
    public long count(int status) {
        return byStatus.getOrDefault(status, 0L);
    }
}
