package dev.fulcrum.admin.haproxy;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;

/**
 * The {@code haproxy://HOST:PORT[,HOST:PORT...]} form of {@code --attach}: the stats sockets of a fleet, in the
 * order commands reach them. IPv6 addresses go in brackets.
 *
 * <p>Example: {@code haproxy://10.0.0.5:9999,[::1]:9999/} is the two sockets 10.0.0.5:9999 and ::1 port 9999 (a
 * trailing slash is allowed). {@link #format} joins the instances' names, so
 * {@code haproxy://10.0.0.5:9999,10.0.0.6:9999} reads back as it was written; an IPv6 name comes out without
 * brackets, as {@link HaproxyRuntime#name} gives it.
 *
 * <p>Every refusal names the field ({@code attach}) and the value given, and a bad part also the part:
 * {@code attach: expected haproxy://HOST:PORT[,HOST:PORT...] (got: haproxy://h:0): 'h:0' is not HOST:PORT}.
 */
final class FleetAddresses {
    static final String SCHEME = "haproxy://";
    private static final String FORM = "haproxy://HOST:PORT[,HOST:PORT...]";

    private FleetAddresses() {
    }

    /** The addresses in {@code uri}, in order; a port must be 1-65535, and nothing may follow it but one {@code /}. */
    static List<InetSocketAddress> parse(String uri) {
        String usage = "attach: expected " + FORM + " (got: " + uri + ")";
        if (uri == null || !uri.toLowerCase(Locale.ROOT).startsWith(SCHEME)) {
            throw new IllegalArgumentException(usage);
        }
        String rest = uri.substring(SCHEME.length());
        if (rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        List<InetSocketAddress> out = new ArrayList<>();
        for (String part : rest.split(",", -1)) {
            out.add(parsePart(part.trim(), usage));
        }
        return out;
    }

    private static InetSocketAddress parsePart(String part, String usage) {
        String refusal = usage + ": '" + part + "' is not HOST:PORT";
        URI u;
        try {
            u = new URI("tcp://" + part);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(refusal);
        }
        if (u.getHost() == null || u.getPort() < 1 || u.getPort() > 65535 || u.getRawPath() != null
                && !u.getRawPath().isEmpty() || u.getUserInfo() != null || u.getQuery() != null) {
            throw new IllegalArgumentException(refusal);
        }
        String host = u.getHost();
        if (host.startsWith("[")) {
            host = host.substring(1, host.length() - 1);
        }
        return new InetSocketAddress(host, u.getPort());
    }

    /** At least one instance, each once: one listed twice would get every command twice, its sessions counted twice. */
    static void checkFleet(List<InetSocketAddress> addresses) {
        if (addresses == null || addresses.isEmpty()) {
            throw new IllegalArgumentException("attach: at least one HAProxy HOST:PORT is needed (got: none)");
        }
        if (new HashSet<>(addresses).size() != addresses.size()) {
            throw new IllegalArgumentException("attach: an instance is listed twice (got: " + addresses + ")");
        }
    }

    /** {@code haproxy://} and the instances' {@code host:port} names, comma-separated. */
    static String format(List<String> names) {
        return SCHEME + String.join(",", names);
    }
}
