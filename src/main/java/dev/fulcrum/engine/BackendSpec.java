package dev.fulcrum.engine;

/**
 * A backend as configured or added through the admin API.
 *
 * @param maxInFlight cap on concurrent requests; null = no cap
 * @param backup      used only while no non-backup backend is available
 */
public record BackendSpec(String id, String url, int weight, Integer maxInFlight, boolean backup) {
    public BackendSpec withWeight(int w) {
        return new BackendSpec(id, url, w, maxInFlight, backup);
    }
}
