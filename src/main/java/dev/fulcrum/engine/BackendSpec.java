package dev.fulcrum.engine;

import java.util.Map;
import java.util.TreeMap;

/**
 * A backend as configured or added through the admin API.
 *
 * @param maxInFlight cap on concurrent requests; null = no cap
 * @param backup      used only while no non-backup backend is available
 * @param labels      free-form string labels (docs/REFERENCE.md §2.1 {@code labels}), sorted by name; never null
 */
public record BackendSpec(String id, String url, int weight, Integer maxInFlight, boolean backup,
                          Map<String, String> labels) {
    public BackendSpec {
        labels = labels == null || labels.isEmpty() ? Map.of()
                : java.util.Collections.unmodifiableMap(new TreeMap<>(labels));
    }

    /** A backend with no labels. */
    public BackendSpec(String id, String url, int weight, Integer maxInFlight, boolean backup) {
        this(id, url, weight, maxInFlight, backup, Map.of());
    }

    public BackendSpec withWeight(int w) {
        return new BackendSpec(id, url, w, maxInFlight, backup, labels);
    }

    public BackendSpec withLabels(Map<String, String> newLabels) {
        return new BackendSpec(id, url, weight, maxInFlight, backup, newLabels);
    }
}
