package dev.fulcrum.proxy;

import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Header bytes from a backend's response, as Undertow names and values. The names backends send on nearly
 * every answer map to Undertow's own constants (no allocation, and Undertow's map finds them by identity); any
 * other name is copied, keeping the backend's spelling. For those same names, a backend tends to repeat the
 * value too ({@code Server}, {@code Content-Type}, the same {@code Date} for a second): {@link Values} hands
 * back the previous String when the bytes match it, so most answers allocate no header strings at all.
 */
final class Tokens {
    private static final boolean[] TOKEN = new boolean[128];
    private static final HttpString PROXY_CONNECTION = new HttpString("Proxy-Connection");
    /**
     * Hop-by-hop fields (RFC 9110 7.6.1), for one connection only and never passed on as they came; Upgrade apart (an
     * upgrade keeps it). Expect is among them: the proxy answers it itself.
     */
    static final HttpString[] HOP_BY_HOP = {
        Headers.CONNECTION, Headers.KEEP_ALIVE, PROXY_CONNECTION, Headers.TRANSFER_ENCODING, Headers.TE, Headers.TRAILER,
        Headers.PROXY_AUTHENTICATE, Headers.PROXY_AUTHORIZATION, Headers.EXPECT,
    };
    private static final HttpString[] KNOWN = {
        Headers.CONTENT_TYPE, Headers.CONTENT_LENGTH, Headers.DATE, Headers.SERVER, Headers.CONNECTION,
        Headers.KEEP_ALIVE, Headers.TRANSFER_ENCODING, Headers.CACHE_CONTROL, Headers.SET_COOKIE, Headers.LOCATION,
        Headers.ETAG, Headers.LAST_MODIFIED, Headers.VARY, Headers.CONTENT_ENCODING, Headers.EXPIRES,
        Headers.UPGRADE, Headers.ACCEPT_RANGES, Headers.AGE, Headers.PRAGMA, Headers.CONTENT_LANGUAGE,
        Headers.SEC_WEB_SOCKET_ACCEPT, Headers.CONTENT_DISPOSITION,
        // the rest of the hop-by-hop fields (RFC 9110 7.6.1), rare in answers: known so that they are recognised
        PROXY_CONNECTION, Headers.TE, Headers.TRAILER, Headers.PROXY_AUTHENTICATE, Headers.PROXY_AUTHORIZATION,
        Headers.EXPECT,
    };
    static final int CONNECTION = indexOf(Headers.CONNECTION);
    static final int TRANSFER_ENCODING = indexOf(Headers.TRANSFER_ENCODING);
    static final int UPGRADE = indexOf(Headers.UPGRADE);
    static final int CONTENT_LENGTH = indexOf(Headers.CONTENT_LENGTH);
    /** By index into KNOWN: hop-by-hop, Upgrade included. */
    private static final boolean[] KNOWN_HOP_BY_HOP = new boolean[KNOWN.length];
    /** KNOWN's names in lower case, as bytes. */
    private static final byte[][] LOWER = new byte[KNOWN.length][];
    /** Indexes into KNOWN by name length. */
    private static final int[][] BY_LENGTH = new int[64][];

    static {
        String extra = "!#$%&'*+-.^_`|~";
        for (char c = '0'; c <= '9'; c++) {
            TOKEN[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TOKEN[c] = true;
            TOKEN[c - 32] = true;
        }
        for (char c : extra.toCharArray()) {
            TOKEN[c] = true;
        }
        for (HttpString h : HOP_BY_HOP) {
            KNOWN_HOP_BY_HOP[indexOf(h)] = true;
        }
        KNOWN_HOP_BY_HOP[UPGRADE] = true;
        for (int i = 0; i < KNOWN.length; i++) {
            LOWER[i] = KNOWN[i].toString().toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.ISO_8859_1);
            int len = KNOWN[i].length();
            int[] row = BY_LENGTH[len];
            row = row == null ? new int[1] : Arrays.copyOf(row, row.length + 1);
            row[row.length - 1] = i;
            BY_LENGTH[len] = row;
        }
    }

    private Tokens() {
    }

    private static int indexOf(HttpString h) {
        for (int i = 0; i < KNOWN.length; i++) {
            if (KNOWN[i] == h) {
                return i;
            }
        }
        throw new IllegalArgumentException(h.toString());
    }

    /** Whether the well-known header {@code known} is hop-by-hop (Upgrade included). */
    static boolean isHopByHop(int known) {
        return KNOWN_HOP_BY_HOP[known];
    }

    /** A tchar of RFC 9110 5.6.2. */
    static boolean isTokenChar(byte b) {
        return b >= 0 && TOKEN[b];
    }

    /** Where the member of a comma-separated header list that starts at {@code from} ends: its comma, or the end. */
    static int memberEnd(String v, int from) {
        int e = v.indexOf(',', from);
        return e < 0 ? v.length() : e;
    }

    /** {@code from} moved past leading blanks of {@code v[from, to)}. */
    static int trimStart(String v, int from, int to) {
        while (from < to && v.charAt(from) <= ' ') {
            from++;
        }
        return from;
    }

    /** {@code to} moved back over trailing blanks of {@code v[from, to)}. */
    static int trimEnd(String v, int from, int to) {
        while (to > from && v.charAt(to - 1) <= ' ') {
            to--;
        }
        return to;
    }

    /**
     * Adds the header names a Connection value lists to {@code named}. The usual tokens ({@code keep-alive},
     * {@code close}, {@code upgrade}) name nothing to remove beyond the hop-by-hop headers, so the common
     * answer costs no allocation.
     */
    static List<String> namedHeaders(String value, List<String> named) {
        for (int i = 0; i < value.length(); ) {
            int end = memberEnd(value, i);
            int a = trimStart(value, i, end);
            int b = trimEnd(value, a, end);
            // a Connection header never takes away a message's framing or its Host: with "Connection:
            // Content-Length" the body went out unframed and the backend read it as a second request (smuggling)
            if (a < b && !isPlainToken(value, a, b) && !isEndToEndForGood(value, a, b)) {
                if (named == null) {
                    named = new ArrayList<>(2);
                }
                named.add(value.substring(a, b));
            }
            i = end + 1;
        }
        return named;
    }

    private static boolean isEndToEndForGood(String v, int from, int to) {
        int len = to - from;
        return (len == 14 && v.regionMatches(true, from, "content-length", 0, 14))
                || (len == 4 && v.regionMatches(true, from, "host", 0, 4));
    }

    private static boolean isPlainToken(String v, int from, int to) {
        int len = to - from;
        return (len == 10 && v.regionMatches(true, from, "keep-alive", 0, 10))
                || (len == 5 && v.regionMatches(true, from, "close", 0, 5))
                || (len == 7 && v.regionMatches(true, from, "upgrade", 0, 7));
    }

    /**
     * Whether Transfer-Encoding lists chunked and nothing else: the only framing the proxy accepts, from a client
     * (anything else is refused, not guessed at) and from a backend (anything else is a bad answer).
     */
    static boolean onlyChunked(HeaderValues transferEncoding) {
        return transferEncoding.size() == 1 && onlyChunked(transferEncoding.getFirst());
    }

    /**
     * {@link #onlyChunked(HeaderValues)} for the one Transfer-Encoding line {@code v}. Empty list members are no
     * members (RFC 9110 5.6.1): {@code , chunked} is chunked alone.
     */
    static boolean onlyChunked(String v) {
        int from = trimStart(v, 0, v.length());
        int to = trimEnd(v, from, v.length());
        if (to - from == 7) {
            return v.regionMatches(true, from, "chunked", 0, 7);
        }
        int members = 0;
        for (int i = 0; i <= v.length(); ) {
            int end = memberEnd(v, i);
            int a = trimStart(v, i, end);
            int b = trimEnd(v, a, end);
            if (a < b) {
                if (++members > 1 || b - a != 7 || !v.regionMatches(true, a, "chunked", 0, 7)) {
                    return false;
                }
            }
            i = end + 1;
        }
        return members == 1;
    }

    /** Whether a Connection header lists {@code close}, alone or among other options (RFC 9112 9.6). */
    static boolean listsClose(HeaderValues connection) {
        for (int k = 0; k < connection.size(); k++) {
            String v = connection.get(k);
            if (v.length() == 10 && v.equalsIgnoreCase("keep-alive")) {
                continue; // the usual value: no list to look through
            }
            for (int i = 0; i <= v.length(); ) {
                int end = memberEnd(v, i);
                int a = trimStart(v, i, end);
                int b = trimEnd(v, a, end);
                if (b - a == 5 && v.regionMatches(true, a, "close", 0, 5)) {
                    return true;
                }
                i = end + 1;
            }
        }
        return false;
    }

    /**
     * The one length that every Content-Length line and list member states, or -1 when one is not a decimal number
     * (at most 18 significant digits) or two differ (RFC 9112 6.3: such framing is refused, never guessed at).
     */
    static long contentLength(HeaderValues values) {
        long length = -1;
        for (String v : values) {
            for (int i = 0; i <= v.length(); ) {
                int end = memberEnd(v, i);
                long part = digits(v, trimStart(v, i, end), trimEnd(v, i, end));
                if (part < 0 || (length >= 0 && part != length)) {
                    return -1;
                }
                length = part;
                i = end + 1;
            }
        }
        return length;
    }

    /**
     * Whether a Content-Length that {@link #contentLength} accepts is written as the number alone: one line, no list,
     * no leading zero.
     */
    static boolean plainLength(HeaderValues values) {
        String v = values.getFirst();
        return values.size() == 1 && v.indexOf(',') < 0 && (v.length() == 1 || v.charAt(0) != '0');
    }

    /** The decimal number {@code b[from, to)} (at most 18 digits), or -1. */
    static long digits(byte[] b, int from, int to) {
        if (from == to || to - from > 18) {
            return -1;
        }
        long n = 0;
        for (int i = from; i < to; i++) {
            int c = b[i] - '0';
            if (c < 0 || c > 9) {
                return -1;
            }
            n = n * 10 + c;
        }
        return n;
    }

    /**
     * The decimal number {@code s[from, to)}, or -1. Leading zeros are no digits of the number: 18 significant
     * digits at most, however many zeros come before them (RFC 9110 8.6 lets a length have any).
     */
    private static long digits(String s, int from, int to) {
        while (to - from > 1 && s.charAt(from) == '0') {
            from++;
        }
        if (from == to || to - from > 18) {
            return -1;
        }
        long n = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    /** The index of a well-known header name in {@code b[off, off+len)}, or -1. */
    static int known(byte[] b, int off, int len) {
        int[] row = len < BY_LENGTH.length ? BY_LENGTH[len] : null;
        if (row != null) {
            for (int i : row) {
                if (sameIgnoringCase(LOWER[i], b, off, len)) {
                    return i;
                }
            }
        }
        return -1;
    }

    static HttpString name(int known) {
        return KNOWN[known];
    }

    /** {@link Values}' slot for the status line's reason phrase ("OK" nearly always). */
    static final int REASON = KNOWN.length;

    /**
     * The last value seen for each well-known header, and the last reason phrase ({@link #REASON}); one per I/O thread,
     * touched by that thread only.
     */
    static final class Values {
        private final String[] last = new String[KNOWN.length + 1];
        private final byte[][] lastBytes = new byte[KNOWN.length + 1][];

        String value(int known, byte[] b, int off, int len) {
            byte[] seen = lastBytes[known];
            if (seen != null && Arrays.equals(seen, 0, seen.length, b, off, off + len)) {
                return last[known];
            }
            lastBytes[known] = Arrays.copyOfRange(b, off, off + len);
            String s = new String(b, off, len, StandardCharsets.ISO_8859_1);
            last[known] = s;
            return s;
        }
    }

    /**
     * Whether {@code b[off, off+len)} is the name {@code lower} spells in lower case. A known name has only letters and
     * hyphens; with bit 0x20 set, only a letter's upper case becomes that letter, so one OR makes the comparison
     * case-blind, and a hyphen must be itself (a CR would pass the OR).
     */
    private static boolean sameIgnoringCase(byte[] lower, byte[] b, int off, int len) {
        for (int i = 0; i < len; i++) {
            int x = b[off + i];
            int l = lower[i];
            if ((x | 0x20) != l || (l == '-' && x != '-')) {
                return false;
            }
        }
        return true;
    }
}
