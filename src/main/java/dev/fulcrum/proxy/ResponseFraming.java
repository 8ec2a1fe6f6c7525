package dev.fulcrum.proxy;

import io.undertow.util.HeaderMap;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import java.io.IOException;

/**
 * How a backend's answer body ends (RFC 9112 6.3), from its parsed head: no body at all (an answer to HEAD, a 204,
 * a 304, a 101), chunked, a stated length, or the connection's close; and whether the connection may carry another
 * request afterwards. Framing a proxy cannot be sure of is refused (502), never guessed at, as the request side
 * refuses it ({@link BalancingHandler#framingProblem}).
 *
 * <p>Examples: {@code Transfer-Encoding: chunked} frames as {@link #CHUNKED}; with a {@code Content-Length: 3} beside it
 * still chunked, the length taken out of the headers (passed on, it would frame the client's copy) and the
 * connection not reused; {@code Content-Length: 5, 5} is 5; {@code Content-Length: 5, 6} and
 * {@code Transfer-Encoding: gzip, chunked} are refused; a 200 with neither runs until the backend closes.
 */
final class ResponseFraming {
    /** The body runs until the backend closes the connection. */
    static final long UNTIL_CLOSE = -1;
    /** The body is chunked. */
    static final long CHUNKED = -2;

    private ResponseFraming() {
    }

    /**
     * The body's length (0 for none), {@link #CHUNKED} or {@link #UNTIL_CLOSE}, for the answer {@code head} just
     * parsed into {@code headers}, to a HEAD request when {@code headRequest}. Takes Content-Length out of
     * {@code headers} when Transfer-Encoding overrides it.
     */
    static long of(ResponseHeadParser head, boolean headRequest, HeaderMap headers) throws IOException {
        int status = head.status();
        if (headRequest || status == 204 || status == 304 || status == 101) {
            return 0;
        }
        String te = head.transferEncoding();
        boolean cl = head.contentLengthLines() > 0;
        if (te != null) {
            if (head.transferEncodingLines() != 1 || !Tokens.onlyChunked(te)) {
                // another coding (gzip, chunked) would reach the client undeclared once chunked is taken off, and
                // without chunked last the body's end is unknowable: refused, as nginx does ("unknown Transfer-Encoding")
                throw new IOException("unsupported Transfer-Encoding from backend (got: " + te + ")");
            }
            if (cl) {
                // RFC 9112 6.3: Transfer-Encoding wins; passed on, the length would frame the client's copy
                headers.remove(Headers.CONTENT_LENGTH);
            }
            return CHUNKED;
        }
        if (cl) {
            // one plain number, read as the head was parsed; else every line and list member must agree
            HeaderValues all = head.contentLengthLines() == 1 && head.plainContentLength() >= 0
                    ? null : headers.get(Headers.CONTENT_LENGTH);
            long length = all == null ? head.plainContentLength() : Tokens.contentLength(all);
            if (length < 0) {
                throw new IOException("invalid Content-Length from backend (got: " + String.join(", ", all) + ")");
            }
            return length;
        }
        return UNTIL_CLOSE;
    }

    /**
     * Whether, as far as its head says, the connection may carry another request once this answer ({@code framing}
     * as {@link #of} gave it) is read: the backend keeps it open, the body's end is known, it is no 101 (the
     * connection becomes a tunnel), and its framing was not made ambiguous (Transfer-Encoding and Content-Length
     * together are not trusted again).
     */
    static boolean allowsReuse(ResponseHeadParser head, long framing) {
        return head.keepsAlive() && framing != UNTIL_CLOSE && head.status() != 101
                && !(framing == CHUNKED && head.contentLengthLines() > 0);
    }
}
