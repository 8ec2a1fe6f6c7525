package dev.fulcrum.etcd;

import java.net.URI;
import java.util.List;

/**
 * The {@code etcd://HOST:PORT[,HOST:PORT...]/PREFIX} form of {@code --config} and {@code --attach}
 * ({@code etcds://} for TLS): the members' client endpoints and the prefix, which starts with {@code /} and has no
 * trailing one. A bad form is an {@link IllegalArgumentException} naming the part, e.g.
 * {@code expected etcd://HOST:PORT[,HOST:PORT...]/PREFIX (got: etcd://h:x/p): 'h:x' is not HOST:PORT}.
 *
 * <p>Example: {@code etcd://127.0.0.1:2379,127.0.0.1:22379/fulcrum/prod/} is endpoints
 * {@code http://127.0.0.1:2379} and {@code http://127.0.0.1:22379}, prefix {@code /fulcrum/prod}; the config is the key
 * {@code /fulcrum/prod/config}.
 */
public record EtcdAddress(List<URI> endpoints, String prefix) {
    public static final String FORM = "etcd://HOST:PORT[,HOST:PORT...]/PREFIX";

    /** Whether {@code text} is meant as an etcd address ({@code etcd://} or {@code etcds://}, any case). */
    public static boolean is(String text) {
        return text != null && (text.regionMatches(true, 0, "etcd://", 0, 7)
                || text.regionMatches(true, 0, "etcds://", 0, 8));
    }

    public static EtcdAddress parse(String text) {
        throw new UnsupportedOperationException("not yet");
    }

    /** The key of the shared config: {@code PREFIX/config}. */
    public String configKey() {
        return prefix + "/config";
    }

    /** Where instances register: {@code PREFIX/instances/}. */
    public String instancesPrefix() {
        return prefix + "/instances/";
    }

    /** Where a drained backend is marked: {@code PREFIX/drained/}. */
    public String drainedPrefix() {
        return prefix + "/drained/";
    }

    /** The address as written back, {@code etcd://127.0.0.1:2379,127.0.0.1:22379/fulcrum/prod}. */
    @Override
    public String toString() {
        throw new UnsupportedOperationException("not yet");
    }
}
