package dev.fulcrum.proxy;

import io.undertow.util.HeaderMap;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Parses a backend's HTTP/1.x response head (RFC 9112 4, 5) in one pass over its bytes: the status line, the
 * end-to-end headers straight into the client exchange's response header map, and the hop-by-hop fields (RFC 9110
 * 7.6.1) into fields of its own, for the framing ({@link ResponseFraming}) and the connection's reuse. Those never
 * enter the map (taken out after, each of nine absent names would cost a hash lookup per answer), nor do the headers
 * the Connection header names; a 101 keeps its Upgrade. Lines end in CR LF or a bare LF.
 *
 * <p>Refused, as an {@link IOException} (the exchange answers 502, as nginx does for an invalid upstream header):
 * a status line that is not {@code HTTP/1.0} or {@code HTTP/1.1}, a space and three digits (then a space and the
 * reason, or the end); a status outside 100-599; obsolete line folding; a header name that is empty or not a token;
 * a CR, NUL or other control character in a value (RFC 9110 5.5; a tab is fine).
 *
 * <p>Example: {@code HTTP/1.1 200 OK}, {@code Content-Length: 2}, {@code Connection: keep-alive, X-Debug},
 * {@code X-Debug: 1}, {@code Server: a}, blank line: status 200, reason {@code OK}, the map holds Content-Length and
 * Server, {@link #connectionField()} is {@code keep-alive, X-Debug}, and the index just past the blank line is
 * returned.
 *
 * <p>One per backend connection, used on its I/O thread; the results are those of the last head parsed.
 */
final class ResponseHeadParser {
    private int status;
    private String reason;
    private boolean http10;
    /**
     * The answer's hop-by-hop fields: every Connection line, joined; Transfer-Encoding and how many lines it came in;
     * the first Upgrade. Null when absent.
     */
    private String connectionField;
    private String transferEncoding;
    private int transferEncodingLines;
    private String upgradeField;
    /** Content-Length lines, and the length the one line states when it is a plain number (else -1). */
    private int contentLengthLines;
    private long plainContentLength;

    int status() {
        return status;
    }

    /** The reason phrase, or "" when the status line has none. */
    String reason() {
        return reason;
    }

    /** Every Connection line of the head, joined by ", ", or null. */
    String connectionField() {
        return connectionField;
    }

    /** Every Transfer-Encoding line of the head, joined by ", ", or null. */
    String transferEncoding() {
        return transferEncoding;
    }

    int transferEncodingLines() {
        return transferEncodingLines;
    }

    int contentLengthLines() {
        return contentLengthLines;
    }

    /** The length the first Content-Length line states, when it is a plain decimal number; else -1. */
    long plainContentLength() {
        return plainContentLength;
    }

    /** An interim answer (1xx but 101, such as 103 Early Hints): the real one follows it. */
    boolean interim() {
        return status >= 100 && status < 200 && status != 101;
    }

    /** Whether the backend keeps the connection open after this answer: HTTP/1.0 only if it says keep-alive. */
    boolean keepsAlive() {
        return http10 ? connectionSays(connectionField, "keep-alive") : !connectionSays(connectionField, "close");
    }

    /** Index just past the blank line that ends the head starting at {@code from}, or -1. Bare LF is accepted. */
    static int headEnd(byte[] b, int from, int len) {
        for (int i = from; i < len; i++) {
            if (b[i] == '\n') {
                if (i + 1 < len && b[i + 1] == '\n') {
                    return i + 2;
                }
                if (i + 2 < len && b[i + 1] == '\r' && b[i + 2] == '\n') {
                    return i + 3;
                }
            }
        }
        return -1;
    }

    /**
     * Parses the head starting at {@code b[from]}, the bytes up to {@code len} being what arrived. Returns the index
     * just past the blank line that ends it, or -1 when it is not all here yet (what it put in {@code headers} is
     * cleared at the next try). {@code values} hands back the Strings of repeated values ({@link Tokens.Values}).
     */
    int parse(byte[] b, int from, int len, HeaderMap headers, Tokens.Values values) throws IOException {
        int eol = from;
        while (eol < len && b[eol] != '\n') {
            eol++;
        }
        if (eol == len) {
            return -1;
        }
        int lineLen = (eol > from && b[eol - 1] == '\r' ? eol - 1 : eol) - from;
        if (lineLen < 12 || b[from] != 'H' || b[from + 1] != 'T' || b[from + 2] != 'T' || b[from + 3] != 'P'
                || b[from + 4] != '/' || b[from + 5] != '1' || b[from + 6] != '.' || (b[from + 7] != '0' && b[from + 7] != '1')
                || b[from + 8] != ' ' || !digit(b[from + 9]) || !digit(b[from + 10]) || !digit(b[from + 11])
                || (lineLen > 12 && b[from + 12] != ' ')) {
            throw new IOException("invalid status line from backend: "
                    + new String(b, from, Math.min(lineLen, 80), StandardCharsets.ISO_8859_1));
        }
        http10 = b[from + 7] == '0';
        status = (b[from + 9] - '0') * 100 + (b[from + 10] - '0') * 10 + (b[from + 11] - '0');
        if (status < 100 || status > 599) { // RFC 9110 15: 000, 099, 600 and 999 are no answers (nginx: 502)
            throw new IOException("invalid status code from backend (got: "
                    + new String(b, from + 9, 3, StandardCharsets.ISO_8859_1) + ")");
        }
        reason = lineLen > 13 ? values.value(Tokens.REASON, b, from + 13, lineLen - 13) : "";
        if (headers.size() != 0) {
            headers.clear(); // a try on a head that was not all here, or an interim answer's
        }
        connectionField = null;
        transferEncoding = null;
        transferEncodingLines = 0;
        upgradeField = null;
        contentLengthLines = 0;
        int pos = eol + 1;
        for (;;) {
            if (pos >= len) {
                return -1;
            }
            byte c = b[pos];
            if (c == '\n' || (c == '\r' && pos + 1 < len && b[pos + 1] == '\n')) {
                return endOfHead(c == '\n' ? pos + 1 : pos + 2, headers);
            }
            if (c == ' ' || c == '\t') {
                throw new IOException("obsolete line folding in a backend response header");
            }
            int colon = pos;
            while (colon < len && b[colon] != ':') {
                if (!Tokens.isTokenChar(b[colon])) {
                    boolean eolFirst = b[colon] == '\r' || b[colon] == '\n';
                    if (eolFirst && colon + 1 >= len) {
                        return -1;
                    }
                    throw new IOException((eolFirst ? "invalid header line from backend: " : "invalid header name from backend: ")
                            + line(b, pos, len));
                }
                colon++;
            }
            if (colon >= len) {
                return -1;
            }
            if (colon == pos) {
                throw new IOException("invalid header line from backend: " + line(b, pos, len));
            }
            // the value runs to the line's end: a CR only right before its LF, no other control character (RFC 9110 5.5)
            int e = colon + 1;
            for (;; e++) {
                if (e >= len) {
                    return -1;
                }
                byte v = b[e];
                if ((v & 0xff) >= 0x20 && v != 0x7f || v == '\t') {
                    continue;
                }
                if (v == '\n' || (v == '\r' && e + 1 < len && b[e + 1] == '\n')) {
                    break;
                }
                if (v == '\r' && e + 1 >= len) {
                    return -1;
                }
                throw new IOException("control character in a backend response header value: "
                        + new String(b, pos, colon - pos, StandardCharsets.ISO_8859_1));
            }
            int next = b[e] == '\r' ? e + 2 : e + 1;
            int vs = colon + 1;
            while (vs < e && (b[vs] == ' ' || b[vs] == '\t')) {
                vs++;
            }
            while (e > vs && (b[e - 1] == ' ' || b[e - 1] == '\t')) {
                e--;
            }
            int k = Tokens.known(b, pos, colon - pos);
            if (k < 0) {
                headers.add(new HttpString(b, pos, colon - pos), new String(b, vs, e - vs, StandardCharsets.ISO_8859_1));
            } else if (!Tokens.isHopByHop(k)) {
                headers.add(Tokens.name(k), values.value(k, b, vs, e - vs));
                if (k == Tokens.CONTENT_LENGTH && contentLengthLines++ == 0) {
                    plainContentLength = Tokens.digits(b, vs, e);
                }
            } else {
                hopByHop(k, values.value(k, b, vs, e - vs));
            }
            pos = next;
        }
    }

    private void hopByHop(int known, String value) {
        if (known == Tokens.CONNECTION) {
            connectionField = connectionField == null ? value : connectionField + ", " + value;
        } else if (known == Tokens.TRANSFER_ENCODING) {
            transferEncoding = transferEncoding == null ? value : transferEncoding + ", " + value;
            transferEncodingLines++;
        } else if (known == Tokens.UPGRADE && upgradeField == null) {
            upgradeField = value;
        }
    }

    /** The head is all parsed: a 101 keeps its Upgrade, and the headers the Connection header names go. */
    private int endOfHead(int end, HeaderMap headers) {
        if (status == 101 && upgradeField != null) {
            headers.put(Headers.UPGRADE, upgradeField);
        }
        if (connectionField != null) {
            List<String> named = Tokens.namedHeaders(connectionField, null);
            if (named != null) {
                for (String n : named) {
                    headers.remove(n);
                }
            }
        }
        return end;
    }

    /** The line starting at {@code from}, for an error message: at most 80 chars, without its end. */
    private static String line(byte[] b, int from, int len) {
        int e = from;
        while (e < len && e - from < 80 && b[e] != '\r' && b[e] != '\n') {
            e++;
        }
        return new String(b, from, e - from, StandardCharsets.ISO_8859_1);
    }

    private static boolean digit(byte c) {
        return c >= '0' && c <= '9';
    }

    /** Whether the Connection header's lines {@code v} (joined, or null for none) list {@code token}. */
    private static boolean connectionSays(String v, String token) {
        if (v == null) {
            return false;
        }
        int len = token.length();
        for (int i = 0; i < v.length(); ) {
            int end = Tokens.memberEnd(v, i);
            int a = Tokens.trimStart(v, i, end);
            if (Tokens.trimEnd(v, a, end) - a == len && v.regionMatches(true, a, token, 0, len)) {
                return true;
            }
            i = end + 1;
        }
        return false;
    }
}
