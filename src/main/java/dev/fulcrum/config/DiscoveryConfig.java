package dev.fulcrum.config;

/**
 * A source of backends besides the static list (docs/REFERENCE.md §2.5), in a pool's {@code discovery} array.
 *
 * <pre>
 * { "type": "dns",  "name": "api.internal", "port": 3000, "refreshMs": 5000 }   every A/AAAA record, re-resolved
 * { "type": "file", "path": "backends.json" }                                     a watched JSON list of backends
 * </pre>
 *
 * New addresses join with slow start; vanished ones drain and are then removed.
 *
 * @param type      dns or file
 * @param name      the DNS name to resolve (dns)
 * @param port      the port the discovered addresses serve on (dns)
 * @param refreshMs how often to re-resolve or re-read
 * @param path      the JSON file: an array of {@code {"id","url","weight"}} (file)
 * @param weight    the weight given to each discovered address (dns)
 * @param server    the DNS server to ask, {@code host:port}; null = the system's resolvers (dns)
 */
public record DiscoveryConfig(String type, String name, int port, long refreshMs, String path, int weight,
                              String server) {
    public static final String DNS = "dns";
    public static final String FILE = "file";
    public static final DiscoveryConfig DEFAULTS = new DiscoveryConfig(null, null, 0, 5000, null, 1, null);

    public static DiscoveryConfig dns(String name, int port, long refreshMs, String server) {
        return new DiscoveryConfig(DNS, name, port, refreshMs, null, 1, server);
    }

    public static DiscoveryConfig file(String path, long refreshMs) {
        return new DiscoveryConfig(FILE, null, 0, refreshMs, path, 1, null);
    }

    /** A short label for logs and events, e.g. {@code dns:api.internal:3000}. */
    public String label() {
        return DNS.equals(type) ? "dns:" + name + ":" + port : "file:" + path;
    }
}
