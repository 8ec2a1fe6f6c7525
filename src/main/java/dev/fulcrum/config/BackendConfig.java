package dev.fulcrum.config;

import dev.fulcrum.engine.BackendSpec;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A real backend ({@code backends[i]}, docs/REFERENCE.md §2.1). {@code id} and {@code url} are required.
 *
 * @param url         absolute {@code http://host:port}, no path
 * @param weight      0..1000; 0 = no new requests
 * @param maxInFlight cap on concurrent requests; null = no cap
 * @param backup      used only while no non-backup backend is available
 * @param labels      names to string values ({@code {"zone": "b", "cost": "0.2"}}), sorted by name; never null
 */
public record BackendConfig(String id, String url, int weight, Integer maxInFlight, boolean backup,
                            Map<String, String> labels) {
    /** The values a backend entry takes for every field it leaves out (id and url have no default). */
    public static final BackendConfig DEFAULTS = new BackendConfig(null, null, 1, null, false);

    public BackendConfig {
        labels = sorted(labels);
    }

    /** A backend with no labels. */
    public BackendConfig(String id, String url, int weight, Integer maxInFlight, boolean backup) {
        this(id, url, weight, maxInFlight, backup, Map.of());
    }

    public static BackendConfig of(String id, String url, int weight) {
        return new BackendConfig(id, url, weight, null, false);
    }

    public BackendSpec toSpec() {
        return new BackendSpec(id, url, weight, maxInFlight, backup, labels);
    }

    /** Labels as configs keep them: sorted by name (so a saved file and its reload compare equal), never null. */
    static Map<String, String> sorted(Map<String, String> labels) {
        return labels == null || labels.isEmpty() ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(labels));
    }
}
