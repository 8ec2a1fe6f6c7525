package dev.fulcrum.etcd;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
    public EtcdAddress {
        endpoints = List.copyOf(endpoints);
    }

    public static final String FORM = "etcd://HOST:PORT[,HOST:PORT...]/PREFIX";

    /** Whether {@code text} is meant as an etcd address ({@code etcd://} or {@code etcds://}, any case). */
    public static boolean is(String text) {
        return text != null && (text.regionMatches(true, 0, "etcd://", 0, 7)
                || text.regionMatches(true, 0, "etcds://", 0, 8));
    }

    /**
     * Reads the form; {@code etcds://} gives {@code https://} endpoints. HOST is a name, an IPv4 address or a
     * bracketed IPv6 address; PORT 1..65535; PREFIX at least one character besides slashes.
     */
    public static EtcdAddress parse(String text) {
        if (!is(text)) {
            throw bad(text, "it must start with etcd:// or etcds://");
        }
        boolean tls = text.regionMatches(true, 0, "etcds://", 0, 8);
        String rest = text.substring(tls ? 8 : 7);
        int slash = rest.indexOf('/');
        if (slash < 0) {
            throw bad(text, "no /PREFIX after the members");
        }
        String hosts = rest.substring(0, slash);
        String prefix = rest.substring(slash);
        while (prefix.length() > 1 && prefix.endsWith("/")) {
            prefix = prefix.substring(0, prefix.length() - 1);
        }
        if (prefix.equals("/") || prefix.startsWith("//")) {
            throw bad(text, "the PREFIX '" + rest.substring(slash) + "' is empty or starts with //");
        }
        if (prefix.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
            throw bad(text, "the PREFIX has a space or a control character");
        }
        if (hosts.isEmpty()) {
            throw bad(text, "no HOST:PORT before the PREFIX");
        }
        List<URI> endpoints = new ArrayList<>();
        for (String member : hosts.split(",", -1)) {
            endpoints.add(endpoint(text, member, tls ? "https" : "http"));
        }
        return new EtcdAddress(endpoints, prefix);
    }

    private static URI endpoint(String text, String member, String scheme) {
        Matcher m = HOST_PORT.matcher(member);
        if (!m.matches()) {
            throw bad(text, "'" + member + "' is not HOST:PORT");
        }
        int port;
        try {
            port = Integer.parseInt(m.group(2));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535) {
            throw bad(text, "'" + member + "': the port must be 1..65535");
        }
        return URI.create(scheme + "://" + m.group(1) + ":" + port);
    }

    private static final Pattern HOST_PORT =
            Pattern.compile("((?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)|\\[[0-9A-Fa-f:.]+\\]):([0-9]{1,5})");

    private static IllegalArgumentException bad(String text, String why) {
        return new IllegalArgumentException("expected " + FORM + " (got: " + text + "): " + why);
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
        boolean tls = !endpoints.isEmpty() && "https".equalsIgnoreCase(endpoints.get(0).getScheme());
        StringBuilder b = new StringBuilder(tls ? "etcds://" : "etcd://");
        for (int i = 0; i < endpoints.size(); i++) {
            URI u = endpoints.get(i);
            b.append(i == 0 ? "" : ",").append(u.getHost()).append(':').append(u.getPort());
        }
        return b.append(prefix).toString();
    }
}
