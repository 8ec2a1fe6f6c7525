package dev.fulcrum.config;

import dev.fulcrum.engine.BackendSpec;

/**
 * A real backend ({@code backends[i]}, docs/REFERENCE.md §2.1). {@code id} and {@code url} are required.
 *
 * @param url         absolute {@code http://host:port}, no path
 * @param weight      0..1000; 0 = no new requests
 * @param maxInFlight cap on concurrent requests; null = no cap
 * @param backup      used only while no non-backup backend is available
 */
public record BackendConfig(String id, String url, int weight, Integer maxInFlight, boolean backup) {
    /** The values a backend entry takes for every field it leaves out (id and url have no default). */
    public static final BackendConfig DEFAULTS = new BackendConfig(null, null, 1, null, false);

    public static BackendConfig of(String id, String url, int weight) {
        return new BackendConfig(id, url, weight, null, false);
    }

    public BackendSpec toSpec() {
        return new BackendSpec(id, url, weight, maxInFlight, backup);
    }
}
