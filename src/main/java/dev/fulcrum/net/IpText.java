package dev.fulcrum.net;

import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * A client address as text in one form (RFC 5952 for IPv6: lower case, no leading zeros, the longest run of two or
 * more zero groups as {@code ::}, no scope), so the key the proxy hashes for {@code ip} is the one a user types into
 * the ring lookup, as nginx's {@code $remote_addr} prints it. Java's own form ({@code 2001:db8:0:0:0:0:0:1})
 * would send most IPv6 clients to another backend than the lookup names.
 */
public final class IpText {
    private IpText() {
    }

    public static String of(InetAddress a) {
        return a instanceof Inet6Address v6 ? v6(v6.getAddress()) : a.getHostAddress();
    }

    /** {@code s} in the canonical form when it is an IPv6 literal, else {@code s} unchanged. */
    public static String canonical(String s) {
        if (s == null || s.indexOf(':') < 0 || !s.chars().allMatch(ch -> Character.digit(ch, 16) >= 0 || ch == ':' || ch == '.')) {
            return s;
        }
        try {
            return of(InetAddress.getByName(s)); // a literal: parsed, never looked up
        } catch (java.net.UnknownHostException e) {
            return s;
        }
    }

    private static String v6(byte[] b) {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLen = 1; // a single zero group is not compressed
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
        return sb.toString();
    }
}
