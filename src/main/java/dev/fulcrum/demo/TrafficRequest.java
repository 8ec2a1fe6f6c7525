package dev.fulcrum.demo;

/**
 * One request of workshop traffic as sent (and as recorded to, or replayed from, a JSON-lines file).
 *
 * @param offsetMicros when it was sent, in microseconds after the run started
 * @param method       GET or POST
 * @param path         the request path before the key is placed (see {@link TrafficSettings.KeyPlacement}),
 *                     so a trace recorded with one placement can be replayed with another
 * @param key          the hash key it carried, e.g. {@code k17}
 */
public record TrafficRequest(long offsetMicros, String method, String path, String key) {
    public TrafficRequest {
        if (offsetMicros < 0) {
            throw new IllegalArgumentException("offsetMicros: must be at least 0 (got: " + offsetMicros + ")");
        }
        if (!"GET".equals(method) && !"POST".equals(method)) {
            throw new IllegalArgumentException("method: must be GET or POST (got: " + method + ")");
        }
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("path: must start with / (got: " + path + ")");
        }
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("key: required (got: " + key + ")");
        }
    }
}
