package dev.fulcrum.etcd;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * How to reach an etcd cluster.
 *
 * @param endpoints {@code http://HOST:PORT} or {@code https://HOST:PORT}, tried in order (at least one)
 * @param ca        PEM file of the CA that signed the members' certificates (https); null = the JDK's trust store
 * @param cert      PEM client certificate (etcd's {@code --client-cert-auth}); null = none
 * @param key       PEM private key of {@code cert} (PKCS#8, PKCS#1 or SEC1); null = none
 * @param user      etcd user for {@code /v3/auth/authenticate}; null = no auth
 * @param password  that user's password
 */
public record EtcdOptions(List<URI> endpoints, Path ca, Path cert, Path key, String user, String password) {
    public EtcdOptions {
        endpoints = List.copyOf(endpoints);
    }

    public static EtcdOptions plain(List<URI> endpoints) {
        return new EtcdOptions(endpoints, null, null, null, null, null);
    }

    /** The endpoints, comma-separated, for messages. */
    public String describe() {
        return String.join(",", endpoints.stream().map(URI::toString).toList());
    }
}
