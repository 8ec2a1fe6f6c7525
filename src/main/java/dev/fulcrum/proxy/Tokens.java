package dev.fulcrum.proxy;

import io.undertow.util.Headers;
import io.undertow.util.HttpString;

/**
 * Header-name bytes from a backend's response, as Undertow names. The names backends send on nearly every
 * answer map to Undertow's own constants (no allocation, and Undertow's map finds them by identity); any
 * other name is copied once, keeping the backend's spelling.
 */
final class Tokens {
    private static final boolean[] TOKEN = new boolean[128];
    private static final HttpString[] KNOWN = {
        Headers.CONTENT_TYPE, Headers.CONTENT_LENGTH, Headers.DATE, Headers.SERVER, Headers.CONNECTION,
        Headers.KEEP_ALIVE, Headers.TRANSFER_ENCODING, Headers.CACHE_CONTROL, Headers.SET_COOKIE, Headers.LOCATION,
        Headers.ETAG, Headers.LAST_MODIFIED, Headers.VARY, Headers.CONTENT_ENCODING, Headers.EXPIRES,
        Headers.UPGRADE, Headers.ACCEPT_RANGES, Headers.AGE, Headers.PRAGMA, Headers.CONTENT_LANGUAGE,
        Headers.SEC_WEB_SOCKET_ACCEPT, Headers.CONTENT_DISPOSITION,
    };
    /** KNOWN by name length, then first letter (lower case): a tiny two-level index. */
    private static final HttpString[][] BY_LENGTH = new HttpString[64][];

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
        for (HttpString h : KNOWN) {
            HttpString[] row = BY_LENGTH[h.length()];
            row = row == null ? new HttpString[1] : java.util.Arrays.copyOf(row, row.length + 1);
            row[row.length - 1] = h;
            BY_LENGTH[h.length()] = row;
        }
    }

    private Tokens() {
    }

    /** A tchar of RFC 9110 5.6.2. */
    static boolean isTokenChar(byte b) {
        return b >= 0 && TOKEN[b];
    }

    static HttpString headerName(byte[] b, int off, int len) {
        HttpString[] row = len < BY_LENGTH.length ? BY_LENGTH[len] : null;
        if (row != null) {
            for (HttpString h : row) {
                if (sameIgnoringCase(h, b, off, len)) {
                    return h;
                }
            }
        }
        return new HttpString(b, off, len);
    }

    private static boolean sameIgnoringCase(HttpString h, byte[] b, int off, int len) {
        for (int i = 0; i < len; i++) {
            int x = h.byteAt(i);
            int y = b[off + i];
            if (x != y && (x | 0x20) != (y | 0x20)) {
                return false;
            }
        }
        return true;
    }
}
