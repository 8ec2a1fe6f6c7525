package dev.fulcrum.config;

import dev.fulcrum.engine.BackendSpec;
import java.util.Map;

/**
 * A demo backend Fulcrum starts itself on {@code 127.0.0.1:port} ({@code demoBackends[i]}, docs/REFERENCE.md §2.1 and §2.4).
 * {@code id} and {@code port} are required.
 *
 * @param port      0 = pick a free port when it starts (its real port is then passed to {@link #toSpec(int)})
 * @param latencyMs delay before each ordinary answer
 * @param errorRate share of ordinary answers that are 500, 0..1
 * @param labels    as a backend's ({@link BackendConfig#labels()}), so a lesson can label its demo backends
 */
public record DemoBackendConfig(String id, int port, int weight, long latencyMs, double errorRate,
                                Map<String, String> labels) {
    /** The values a demo backend entry takes for every field it leaves out (id and port have no default). */
    public static final DemoBackendConfig DEFAULTS = new DemoBackendConfig(null, 0, 1, 5, 0.0);

    public DemoBackendConfig {
        labels = BackendConfig.sorted(labels);
    }

    /** A demo backend with no labels. */
    public DemoBackendConfig(String id, int port, int weight, long latencyMs, double errorRate) {
        this(id, port, weight, latencyMs, errorRate, Map.of());
    }

    public static DemoBackendConfig of(String id, int port, int weight) {
        return new DemoBackendConfig(id, port, weight, 5, 0.0);
    }

    /** The same demo backend on another port, its labels and faults kept. */
    public DemoBackendConfig withPort(int newPort) {
        return new DemoBackendConfig(id, newPort, weight, latencyMs, errorRate, labels);
    }

    /** The pool member for this demo backend at its configured port: {@code http://127.0.0.1:PORT}, no cap. */
    public BackendSpec toSpec() {
        return toSpec(port);
    }

    /** The pool member for this demo backend once it listens on {@code actualPort} (differs when port is 0). */
    public BackendSpec toSpec(int actualPort) {
        return new BackendSpec(id, "http://127.0.0.1:" + actualPort, weight, null, false, labels);
    }
}
