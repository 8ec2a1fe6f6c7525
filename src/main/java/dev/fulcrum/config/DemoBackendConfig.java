package dev.fulcrum.config;

import dev.fulcrum.engine.BackendSpec;

/**
 * A demo backend Fulcrum starts itself on {@code 127.0.0.1:port} ({@code demoBackends[i]}, docs/REFERENCE.md §2.1 and §2.4).
 * {@code id} and {@code port} are required.
 *
 * @param port      0 = pick a free port when it starts (its real port is then passed to {@link #toSpec(int)})
 * @param latencyMs delay before each ordinary answer
 * @param errorRate share of ordinary answers that are 500, 0..1
 */
public record DemoBackendConfig(String id, int port, int weight, long latencyMs, double errorRate) {
    /** The values a demo backend entry takes for every field it leaves out (id and port have no default). */
    public static final DemoBackendConfig DEFAULTS = new DemoBackendConfig(null, 0, 1, 5, 0.0);

    public static DemoBackendConfig of(String id, int port, int weight) {
        return new DemoBackendConfig(id, port, weight, 5, 0.0);
    }

    /** The pool member for this demo backend at its configured port: {@code http://127.0.0.1:PORT}, no cap. */
    public BackendSpec toSpec() {
        return toSpec(port);
    }

    /** The pool member for this demo backend once it listens on {@code actualPort} (differs when port is 0). */
    public BackendSpec toSpec(int actualPort) {
        return new BackendSpec(id, "http://127.0.0.1:" + actualPort, weight, null, false);
    }
}
