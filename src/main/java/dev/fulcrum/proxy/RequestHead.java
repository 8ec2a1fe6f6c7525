package dev.fulcrum.proxy;

import dev.fulcrum.threads.PerThread;
import io.undertow.util.HeaderMap;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * The request head a backend gets: the client's request line and end-to-end headers, its hop-by-hop ones (RFC 9110
 * 7.6.1) and those its Connection header names left behind, then the forwarded headers, the Host and the framing the
 * proxy adds. Written as HTTP/1.1 whatever the client spoke.
 *
 * <p>Example: {@code GET /a?b HTTP/1.1} over TLS from 10.0.0.7 with {@code Host: shop}, {@code Connection: x-trace}
 * and {@code X-Trace: 1} goes out as {@code GET /a?b HTTP/1.1} with {@code X-Forwarded-For: 10.0.0.7},
 * {@code X-Forwarded-Proto: https}, {@code X-Forwarded-Host: shop} and {@code Host: shop} (with {@code preserveHost}),
 * and without the Connection and X-Trace lines.
 *
 * <p>Composed per I/O thread in one scratch array, reused by every request of the thread, and copied to a direct
 * buffer once: put byte by byte, a direct buffer checks bounds and its memory session on every byte.
 */
final class RequestHead {
    private RequestHead() {
    }

    /** Per I/O thread: the request head is composed in {@code bytes}, then goes to the socket from {@code direct}. */
    private static final class Scratch {
        final ByteBuffer direct = ByteBuffer.allocateDirect(16 * 1024);
        byte[] bytes = new byte[16 * 1024];
        int n;

        void room(int more) {
            if (n + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, n + more));
            }
        }

        void put(byte b) {
            room(1);
            bytes[n++] = b;
        }

        /** Chars as the bytes they were read from (Undertow reads header bytes as ISO-8859-1). */
        @SuppressWarnings("deprecation") // the low eight bits of each char are exactly what is wanted here
        void ascii(String s) {
            int len = s.length();
            room(len);
            s.getBytes(0, len, bytes, n);
            n += len;
        }

        void name(HttpString h) {
            int len = h.length();
            room(len);
            h.copyTo(bytes, n);
            n += len;
        }

        void header(HttpString name, String value) {
            name(name);
            put((byte) ':');
            put((byte) ' ');
            ascii(value);
            put((byte) '\r');
            put((byte) '\n');
        }

        /** What was written, flipped: the direct buffer, or for a head larger than it (rare) a heap one. */
        ByteBuffer flip() {
            if (n > direct.capacity()) {
                return ByteBuffer.wrap(Arrays.copyOf(bytes, n));
            }
            return direct.clear().put(bytes, 0, n).flip();
        }
    }

    private static final PerThread<Scratch> SCRATCH = PerThread.withInitial(Scratch::new);

    /**
     * The head for {@code request}, flipped, in a buffer of this thread that the next call reuses: write it
     * out (or copy it) before composing another.
     *
     * @param targetPath the path to send (the route's prefix already stripped), without the query
     * @param authority  the backend's host:port, the Host unless {@code preserveHost} keeps the client's
     * @param upgrade    the client asks for an upgrade the proxy passes on: Upgrade stays and Connection says so
     * @param bodyless   the request has no body; otherwise one without a Content-Length goes out chunked
     */
    static ByteBuffer compose(ExchangeRequest request, String targetPath, String authority,
                              boolean preserveHost, boolean upgrade, boolean bodyless) {
        Scratch out = SCRATCH.get();
        out.n = 0;
        write(out, request, targetPath, authority, preserveHost, upgrade, bodyless, false);
        return out.flip();
    }

    /** Marks a mirrored copy ({@code routes[i].mirror}) for its backend. */
    static final HttpString X_FULCRUM_MIRROR = new HttpString("X-Fulcrum-Mirror");

    /**
     * A mirrored copy of {@code request} with its whole body, in a buffer of its own: the head as
     * {@link #compose} writes it (no upgrade), framed by {@code Content-Length} (none for a request without a body,
     * {@code body} null) whatever the client's framing was, and marked {@code X-Fulcrum-Mirror: 1}; the body follows.
     */
    static ByteBuffer composeMirror(ExchangeRequest request, String targetPath,
                                    String authority, boolean preserveHost, byte[] body, int bodyLength) {
        Scratch out = SCRATCH.get();
        out.n = 0;
        write(out, request, targetPath, authority, preserveHost, false, true, true);
        out.n -= 2; // the blank line goes after the copy's own fields
        if (body != null) {
            out.header(Headers.CONTENT_LENGTH, Integer.toString(bodyLength));
        }
        out.header(X_FULCRUM_MIRROR, "1");
        out.put((byte) '\r');
        out.put((byte) '\n');
        ByteBuffer all = ByteBuffer.allocate(out.n + (body == null ? 0 : bodyLength));
        all.put(out.bytes, 0, out.n);
        if (body != null) {
            all.put(body, 0, bodyLength);
        }
        return all.flip();
    }

    /** {@code mirror}: a copy's head, whose framing {@link #composeMirror} writes (the client's is left out). */
    private static void write(Scratch out, ExchangeRequest request, String targetPath,
                              String authority, boolean preserveHost, boolean upgrade, boolean bodyless,
                              boolean mirror) {
        out.name(request.getRequestMethod());
        out.put((byte) ' ');
        out.ascii(targetPath);
        String qs = request.getQueryString();
        if (qs != null && !qs.isEmpty()) {
            out.put((byte) '?');
            out.ascii(qs);
        }
        out.ascii(" HTTP/1.1\r\n");
        HeaderMap in = request.getRequestHeaders();
        List<String> named = connectionNamed(in);
        String host = in.getFirst(Headers.HOST);
        boolean replaceHost = !preserveHost || host == null;
        HeaderValues length = bodyless ? null : in.get(Headers.CONTENT_LENGTH);
        for (long f = in.fastIterateNonEmpty(); f != -1L; f = in.fiNextNonEmpty(f)) {
            HeaderValues v = in.fiCurrent(f);
            HttpString name = v.getHeaderName();
            if (dropped(name, upgrade, named) || name.equals(Headers.X_FORWARDED_FOR)
                    || name.equals(Headers.X_FORWARDED_PROTO) || (host != null && name.equals(Headers.X_FORWARDED_HOST))
                    || (replaceHost && name.equals(Headers.HOST))
                    || (mirror && (name.equals(Headers.CONTENT_LENGTH) || name.equals(X_FULCRUM_MIRROR)))) {
                continue;
            }
            if (v == length && !Tokens.plainLength(v)) {
                // "0005": the number alone, so that a backend that limits a length's digits reads the same body
                out.header(name, Long.toString(Tokens.contentLength(v)));
                continue;
            }
            if (v.size() > 1 && name.equals(Headers.COOKIE)) {
                // RFC 9113 8.2.3: HTTP/2 may split the cookies into several fields; HTTP/1.1 wants one, joined by "; "
                out.header(name, String.join("; ", v));
                continue;
            }
            for (int i = 0; i < v.size(); i++) {
                out.header(name, v.get(i));
            }
        }
        String clientIp = request.clientIp();
        // every line the client sent, in order, then the client (nginx's $proxy_add_x_forwarded_for)
        HeaderValues xffs = in.get(Headers.X_FORWARDED_FOR);
        String xff = xffs == null ? null : xffs.size() == 1 ? xffs.getFirst() : String.join(", ", xffs);
        out.header(Headers.X_FORWARDED_FOR, xff == null || xff.isEmpty() ? clientIp : xff + ", " + clientIp);
        // what the connection is, not what an HTTP/2 client wrote in :scheme (h2c with "https" on the plain port)
        out.header(Headers.X_FORWARDED_PROTO, request.secure() ? "https" : "http");
        if (host != null) {
            out.header(Headers.X_FORWARDED_HOST, host);
        }
        if (replaceHost) {
            out.header(Headers.HOST, authority);
        }
        if (upgrade) {
            out.header(Headers.CONNECTION, "Upgrade");
        } // else none: an HTTP/1.1 connection stays open unless it says close (nginx sends none either)
        if (!bodyless && length == null) {
            out.header(Headers.TRANSFER_ENCODING, "chunked");
        }
        out.put((byte) '\r');
        out.put((byte) '\n');
    }

    /** The header names a Connection header lists beyond its usual tokens, or null when it lists none. */
    private static List<String> connectionNamed(HeaderMap h) {
        List<String> named = null;
        HeaderValues conn = h.get(Headers.CONNECTION);
        if (conn != null) {
            for (String v : conn) {
                named = Tokens.namedHeaders(v, named);
            }
        }
        return named;
    }

    /** Whether a request header stays behind: hop-by-hop, or named by the Connection header. */
    private static boolean dropped(HttpString n, boolean keepUpgrade, List<String> named) {
        for (HttpString h : Tokens.HOP_BY_HOP) {
            if (n.equals(h)) {
                return true;
            }
        }
        if (!keepUpgrade && n.equals(Headers.UPGRADE)) {
            return true;
        }
        if (named != null) {
            for (String x : named) {
                if (n.equalToString(x)) {
                    return true;
                }
            }
        }
        return false;
    }
}
