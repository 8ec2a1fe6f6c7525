package dev.fulcrum.config;

import java.util.List;

/**
 * A source of backends besides the static list (docs/REFERENCE.md §2.5), in a pool's {@code discovery} array.
 *
 * <pre>
 * { "type": "dns",     "name": "api.internal", "port": 3000, "refreshMs": 5000 }  every A/AAAA record, re-resolved
 * { "type": "dns-srv", "name": "_api._tcp.example.test", "server": "10.0.0.2:53" } every SRV record: target, port,
 *                                                                                   weight, priority (backup)
 * { "type": "file",    "path": "backends.json" }                                   a watched JSON list of backends
 * { "type": "etcd",    "endpoints": ["http://127.0.0.1:2379"], "prefix": "/services/api/" }
 *                                                                                   every key under the prefix, watched
 * </pre>
 *
 * New addresses join with slow start; vanished ones drain and are then removed.
 *
 * @param type      dns, dns-srv, file or etcd
 * @param name      the DNS name to resolve (dns, dns-srv)
 * @param port      the port the discovered addresses serve on (dns)
 * @param refreshMs how often to re-resolve or re-read; for etcd, how often the watched set is applied again (an entry
 *                  refused because its id was taken is tried again then)
 * @param path      the JSON file: an array of {@code {"id","url","weight"}} (file)
 * @param weight    the weight given to each discovered address (dns)
 * @param server    the DNS server to ask, {@code host:port}; null = the system's resolvers (dns, dns-srv)
 * @param endpoints the etcd members, {@code http://HOST:PORT} or {@code https://HOST:PORT} (etcd); never null
 * @param prefix    the etcd key prefix, starting and ending with {@code /}; each key under it is a backend (etcd)
 * @param tls       CA, client certificate and key for {@code https://} endpoints (etcd); never null
 * @param user      etcd user (etcd's auth); null = none (etcd)
 * @param password  that user's password (etcd)
 */
public record DiscoveryConfig(String type, String name, int port, long refreshMs, String path, int weight,
                              String server, List<String> endpoints, String prefix, DiscoveryTlsConfig tls,
                              String user, String password) {
    public static final String DNS = "dns";
    public static final String DNS_SRV = "dns-srv";
    public static final String FILE = "file";
    public static final String ETCD = "etcd";
    /** Every type, in the order errors list them. */
    public static final List<String> TYPES = List.of(DNS, DNS_SRV, ETCD, FILE);
    public static final long DEFAULT_REFRESH_MS = 5000;
    public static final DiscoveryConfig DEFAULTS = new DiscoveryConfig(null, null, 0, DEFAULT_REFRESH_MS, null, 1,
            null);

    public DiscoveryConfig {
        endpoints = endpoints == null ? List.of() : List.copyOf(endpoints);
        tls = tls == null ? DiscoveryTlsConfig.NONE : tls;
    }

    /** A source with no etcd settings (dns, dns-srv, file). */
    public DiscoveryConfig(String type, String name, int port, long refreshMs, String path, int weight, String server) {
        this(type, name, port, refreshMs, path, weight, server, List.of(), null, DiscoveryTlsConfig.NONE, null, null);
    }

    public static DiscoveryConfig dns(String name, int port, long refreshMs, String server) {
        return new DiscoveryConfig(DNS, name, port, refreshMs, null, 1, server);
    }

    public static DiscoveryConfig dnsSrv(String name, long refreshMs, String server) {
        return new DiscoveryConfig(DNS_SRV, name, 0, refreshMs, null, 1, server);
    }

    public static DiscoveryConfig file(String path, long refreshMs) {
        return new DiscoveryConfig(FILE, null, 0, refreshMs, path, 1, null);
    }

    /** An etcd source without TLS or auth. */
    public static DiscoveryConfig etcd(List<String> endpoints, String prefix) {
        return etcd(endpoints, prefix, DiscoveryTlsConfig.NONE, null, null);
    }

    public static DiscoveryConfig etcd(List<String> endpoints, String prefix, DiscoveryTlsConfig tls, String user,
                                       String password) {
        return new DiscoveryConfig(ETCD, null, 0, DEFAULT_REFRESH_MS, null, 1, null, endpoints, prefix, tls, user,
                password);
    }

    /**
     * A short label for logs and events, e.g. {@code dns:api.internal:3000}, {@code dns-srv:_api._tcp.example.test},
     * {@code file:backends.json}, {@code etcd:/services/api/}.
     */
    public String label() {
        if (type == null) {
            return "unknown";
        }
        return switch (type) {
            case DNS -> "dns:" + name + ":" + port;
            case DNS_SRV -> "dns-srv:" + name;
            case ETCD -> "etcd:" + prefix;
            default -> "file:" + path;
        };
    }

    /** Every field but the password, which a log or a dump must not show. */
    @Override
    public String toString() {
        return "DiscoveryConfig[type=" + type + ", name=" + name + ", port=" + port + ", refreshMs=" + refreshMs
                + ", path=" + path + ", weight=" + weight + ", server=" + server + ", endpoints=" + endpoints
                + ", prefix=" + prefix + ", tls=" + tls + ", user=" + user
                + ", password=" + (password == null ? "null" : "(set)") + "]";
    }
}
