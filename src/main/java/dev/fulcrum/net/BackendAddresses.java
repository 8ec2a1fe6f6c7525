package dev.fulcrum.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The addresses a backend URL's host stands for, in the order to try them: the one place that turns a backend's name
 * into addresses, for the proxy's connections and the health checks alike, so both reach the same server.
 *
 * <p>{@code localhost} (and any name under {@code .localhost}) is both loopback addresses, {@code 127.0.0.1} then
 * {@code ::1}, without a lookup and whatever the hosts file says (RFC 6761 6.3; browsers treat it the same way).
 * A dev server started on {@code localhost} listens on whichever of the two its platform resolved first (Node 17 and
 * Vite often take {@code ::1} alone) while Java's lookup may give the other, so a caller tries the next address when
 * a connection is refused. An IP literal is itself; any other name is the first address the JDK's lookup gives
 * (hosts file, then DNS), as Java's own clients connect to.
 *
 * <p>Example: {@code of("localhost")} is {@code [127.0.0.1, ::1]}; {@code of("[::1]")} is {@code [::1]};
 * {@code of("api.internal")} is {@code [10.0.0.7]} when DNS says so, and empty when the name does not resolve.
 */
public final class BackendAddresses {
    private static final List<InetAddress> LOOPBACK = List.of(loopback(new byte[] {127, 0, 0, 1}),
            loopback(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}));

    private BackendAddresses() {
    }

    /** The name means both loopback addresses: {@code localhost} or a name under it, with or without a final dot. */
    public static boolean isLocalhost(String host) {
        if (host == null) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        return h.equals("localhost") || h.endsWith(".localhost");
    }

    /**
     * The addresses to try for {@code host} (a URI's host: an IPv6 literal may come in brackets), in order; empty
     * when the name does not resolve. May block on a DNS lookup, so never on an I/O thread.
     */
    public static List<InetAddress> of(String host) {
        if (isLocalhost(host)) {
            return LOOPBACK;
        }
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        try {
            return List.of(InetAddress.getByName(h));
        } catch (UnknownHostException e) {
            return List.of();
        }
    }

    /**
     * {@code all} with {@code first} moved to the front, the others in their order: the address that connected last
     * is tried first. {@code all} itself when {@code first} is null or not in it.
     */
    public static <T> List<T> preferring(T first, List<T> all) {
        if (first == null || all.isEmpty() || all.get(0).equals(first) || !all.contains(first)) {
            return all;
        }
        List<T> order = new ArrayList<>(all.size());
        order.add(first);
        all.stream().filter(a -> !a.equals(first)).forEach(order::add);
        return List.copyOf(order);
    }

    private static InetAddress loopback(byte[] address) {
        try {
            return InetAddress.getByAddress("localhost", address);
        } catch (UnknownHostException e) {
            throw new AssertionError(e); // only a wrong length throws
        }
    }
}
