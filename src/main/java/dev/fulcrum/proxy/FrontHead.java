package dev.fulcrum.proxy;

import io.undertow.server.handlers.HostHeaderHandler;
import io.undertow.util.HeaderMap;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Reads the request heads {@link Http1Front} serves itself: the plainest HTTP/1.1 (or 1.0) request, which is nearly
 * every request a proxy sees, and nothing else. A head is taken only when every byte of it is inside a grammar narrower
 * than Undertow's parser accepts, so that Undertow would read the same method, target, query and fields from it and
 * Fulcrum's checks would find the same; anything else (a body, another version or method, a percent-encoded or dot
 * segment target, an upgrade, an Expect, a folded or odd field, a Host Undertow refuses, a head not yet whole) is
 * {@link #NOT_MINE}, and the connection goes to Undertow with the bytes read, as if it had read them itself.
 *
 * <p>The grammar: {@code GET} or {@code HEAD}, one space, an origin-form target of unreserved characters, sub-delims
 * other than {@code ;} and {@code +}, {@code :}, {@code @} and {@code /} (no {@code //}, no {@code .} or {@code ..}
 * segment), an optional query of the same and {@code ?}, one space, {@code HTTP/1.1} or {@code HTTP/1.0}, CRLF; then
 * at most {@link #MAX_FIELDS} fields of a token name, a colon, optional spaces or tabs, a value of visible ASCII,
 * spaces and tabs that does not end with one, CRLF; then CRLF. Exactly one Host. No Content-Length but one of
 * {@code 0}, no Transfer-Encoding, Upgrade, Expect, HTTP2-Settings or second Cookie; a Connection only as
 * {@code keep-alive} or {@code close}. An HTTP/1.0 request keeps its connection only with
 * {@code Connection: keep-alive}, as Undertow reads it.
 *
 * <p>One per I/O thread (its scratch array is reused); the strings it makes are the request's own.
 */
final class FrontHead {
    /** The head is incomplete or outside the grammar: Undertow's. */
    static final int NOT_MINE = -1;
    static final int MAX_FIELDS = 64;
    /** Heads longer than this are Undertow's (and its limits' and Fulcrum's 414 and 431). */
    static final int MAX_HEAD = 8192;

    private static final boolean[] TCHAR = new boolean[128];
    private static final boolean[] TARGET = new boolean[128];
    private static final byte[] HTTP_1_1 = "HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII);

    static {
        String t = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        for (int i = 0; i < t.length(); i++) {
            TCHAR[t.charAt(i)] = true;
        }
        String p = "-._~!$&'()*,=:@/0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        for (int i = 0; i < p.length(); i++) {
            TARGET[p.charAt(i)] = true;
        }
    }

    private final byte[] scratch = new byte[MAX_HEAD];

    // what the last head read held, valid until the next read
    HttpString method;
    String path;
    String query;
    HeaderMap headers;
    /** The connection ends after this request: Connection: close, or HTTP/1.0 without Connection: keep-alive. */
    boolean close;
    /** HTTP/1.0 rather than HTTP/1.1. */
    boolean http10;
    /** {@code Content-Length: 0}: a body of nothing, as some clients send with every GET. */
    boolean lengthZero;

    /**
     * Reads one head from {@code in}'s remaining bytes (not moving its position): the head's length, or
     * {@link #NOT_MINE}. {@code recent} (or null) holds the connection's last path and Host, taken again when repeated.
     */
    int read(ByteBuffer in, Http1Front.Recent recent) {
        int n = Math.min(in.remaining(), MAX_HEAD);
        byte[] b = scratch;
        in.get(in.position(), b, 0, n);
        int i;
        if (n > 4 && b[0] == 'G' && b[1] == 'E' && b[2] == 'T' && b[3] == ' ') {
            method = Methods.GET;
            i = 4;
        } else if (n > 5 && b[0] == 'H' && b[1] == 'E' && b[2] == 'A' && b[3] == 'D' && b[4] == ' ') {
            method = Methods.HEAD;
            i = 5;
        } else {
            return NOT_MINE;
        }
        if (i >= n || b[i] != '/') {
            return NOT_MINE;
        }
        int pathStart = i;
        int queryStart = -1;
        for (; i < n; i++) {
            int c = b[i];
            if (c == ' ') {
                break;
            }
            if (c == '?' && queryStart < 0) {
                queryStart = i + 1;
                continue;
            }
            if (c < 0 || !(TARGET[c] || (c == '?' && queryStart >= 0))) {
                return NOT_MINE;
            }
            if (queryStart < 0 && c == '/' && (b[i - 1] == '/' && i > pathStart)) {
                return NOT_MINE; // "//"
            }
            if (queryStart < 0 && c == '.' && b[i - 1] == '/' && dotSegment(b, i, n)) {
                return NOT_MINE;
            }
        }
        int targetEnd = i;
        if (i + 1 + HTTP_1_1.length > n) {
            return NOT_MINE;
        }
        // HTTP/1.1, or HTTP/1.0: the last digit is the one byte that may differ
        int minor = HTTP_1_1.length - 3;
        for (int k = 0; k < HTTP_1_1.length; k++) {
            if (b[i + 1 + k] != HTTP_1_1[k] && !(k == minor && b[i + 1 + k] == '0')) {
                return NOT_MINE;
            }
        }
        boolean oneZero = b[i + 1 + minor] == '0';
        i += 1 + HTTP_1_1.length;
        int pathEnd = queryStart < 0 ? targetEnd : queryStart - 1;
        String host = null;
        boolean cookie = false;
        boolean closing = false;
        boolean keepAlive = false;
        boolean zero = false;
        HeaderMap h = new HeaderMap();
        int fields = 0;
        while (true) {
            if (i + 1 >= n) {
                return NOT_MINE;
            }
            if (b[i] == '\r') {
                if (b[i + 1] != '\n') {
                    return NOT_MINE;
                }
                i += 2;
                break;
            }
            if (++fields > MAX_FIELDS) {
                return NOT_MINE;
            }
            int nameStart = i;
            while (i < n && b[i] >= 0 && TCHAR[b[i]]) {
                i++;
            }
            if (i == nameStart || i >= n || b[i] != ':') {
                return NOT_MINE;
            }
            int nameEnd = i++;
            while (i < n && (b[i] == ' ' || b[i] == '\t')) {
                i++;
            }
            int valueStart = i;
            while (i < n && (b[i] >= 0x20 && b[i] < 0x7f || b[i] == '\t')) {
                i++;
            }
            if (i + 1 >= n || b[i] != '\r' || b[i + 1] != '\n' || i == valueStart
                    || b[i - 1] == ' ' || b[i - 1] == '\t') {
                return NOT_MINE; // an empty value, trailing whitespace, a control or non-ASCII byte, a bare CR or LF
            }
            int valueEnd = i;
            i += 2;
            HttpString name = name(b, nameStart, nameEnd);
            if (name == null) {
                return NOT_MINE;
            }
            String value;
            if (name.equals(Headers.HOST)) {
                if (host != null) {
                    return NOT_MINE;
                }
                value = recent == null ? null : same(recent.host, b, valueStart, valueEnd);
                if (value == null) {
                    value = new String(b, valueStart, valueEnd - valueStart, StandardCharsets.ISO_8859_1);
                }
                host = value;
            } else {
                value = new String(b, valueStart, valueEnd - valueStart, StandardCharsets.ISO_8859_1);
            }
            if (name.equals(Headers.COOKIE)) {
                if (cookie) {
                    return NOT_MINE;
                }
                cookie = true;
            } else if (name.equals(Headers.CONTENT_LENGTH)) {
                if (zero || !value.equals("0")) {
                    return NOT_MINE; // a body, or a length Undertow and the framing checks read
                }
                zero = true;
            } else if (name.equals(Headers.CONNECTION)) {
                if (value.equalsIgnoreCase("close")) {
                    closing = true;
                } else if (value.equalsIgnoreCase("keep-alive")) {
                    keepAlive = true;
                } else {
                    return NOT_MINE;
                }
            }
            h.add(name, value);
        }
        if (host == null || HostHeaderHandler.refusal(host, null) != null) {
            return NOT_MINE;
        }
        path = recent == null ? null : same(recent.path, b, pathStart, pathEnd);
        if (path == null) {
            path = new String(b, pathStart, pathEnd - pathStart, StandardCharsets.ISO_8859_1);
        }
        if (recent != null) {
            recent.path = path;
            recent.host = host;
        }
        query = queryStart < 0 ? "" : new String(b, queryStart, targetEnd - queryStart, StandardCharsets.ISO_8859_1);
        headers = h;
        http10 = oneZero;
        // HTTP/1.0 keeps the connection only when asked to; HTTP/1.1 unless asked not to
        close = oneZero ? closing || !keepAlive : closing;
        lengthZero = zero;
        return i;
    }

    /** {@code s} when it is the ASCII bytes {@code b[from, to)}, else null. */
    private static String same(String s, byte[] b, int from, int to) {
        if (s == null || s.length() != to - from) {
            return null;
        }
        for (int k = 0; k < s.length(); k++) {
            if (s.charAt(k) != b[from + k]) {
                return null;
            }
        }
        return s;
    }

    /** A "." or ".." segment starts at {@code i} (after a "/"). */
    private static boolean dotSegment(byte[] b, int i, int n) {
        int end = i + 1 < n && b[i + 1] == '.' ? i + 2 : i + 1;
        return end >= n || b[end] == '/' || b[end] == '?' || b[end] == ' ';
    }

    /** The field's name, the header's constant when spelt as Undertow spells it; null for a name the front leaves. */
    private static HttpString name(byte[] b, int from, int to) {
        int len = to - from;
        for (HttpString known : KNOWN) {
            if (known.length() == len && same(known, b, from)) {
                return known;
            }
        }
        HttpString name = new HttpString(b, from, len);
        for (HttpString refused : REFUSED) {
            if (name.equals(refused)) {
                return null;
            }
        }
        return name;
    }

    private static boolean same(HttpString s, byte[] b, int from) {
        for (int k = 0; k < s.length(); k++) {
            if (s.byteAt(k) != b[from + k]) {
                return false;
            }
        }
        return true;
    }

    /** Names as clients usually spell them: one object each, shared by every request that spells them so. */
    private static final HttpString[] KNOWN = {Headers.HOST, Headers.USER_AGENT, Headers.ACCEPT,
        Headers.ACCEPT_ENCODING, Headers.ACCEPT_LANGUAGE, Headers.CONNECTION, Headers.COOKIE, Headers.REFERER,
        Headers.CACHE_CONTROL, Headers.AUTHORIZATION, Headers.IF_NONE_MATCH, Headers.IF_MODIFIED_SINCE, Headers.ORIGIN};

    /** Fields whose request is Undertow's: a body's framing (but a Content-Length of 0), an upgrade, an expectation. */
    private static final HttpString[] REFUSED = {Headers.TRANSFER_ENCODING, Headers.UPGRADE,
        Headers.EXPECT, new HttpString("HTTP2-Settings"), Headers.TE, Headers.TRAILER};
}
