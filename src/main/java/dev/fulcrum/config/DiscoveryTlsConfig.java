package dev.fulcrum.config;

/**
 * TLS to the etcd members of an etcd discovery source ({@code discovery[i].tls}, docs/REFERENCE.md §2.5). Paths are
 * resolved against the working directory.
 *
 * @param ca   PEM file of the CA that signed the members' certificates; null = the JDK's trust store
 * @param cert PEM client certificate (etcd's {@code --client-cert-auth}); given together with {@code key}
 * @param key  PEM private key of {@code cert}
 */
public record DiscoveryTlsConfig(String ca, String cert, String key) {
    /** No TLS settings: an {@code https://} endpoint is then checked against the JDK's trust store. */
    public static final DiscoveryTlsConfig NONE = new DiscoveryTlsConfig(null, null, null);

    public boolean anySet() {
        return ca != null || cert != null || key != null;
    }
}
