package io.undertow.server.handlers;

import io.undertow.server.HandlerWrapper;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.NetworkUtils;
import io.undertow.util.Protocols;
import io.undertow.util.StatusCodes;

import java.util.regex.Pattern;

/**
 * Fulcrum's copy of the class of this name in undertow-core 2.3.27, which it replaces on the class path (the project's
 * classes come first in the shaded jar and in every test run): Undertow's HTTP/1.1 read listener wraps its root handler
 * in {@link #WRAPPER} for every request, whatever the options say (REQUIRE_HOST_HTTP11 is no longer read), and its own
 * handler matched two regular expressions against every Host, a new handler and a Matcher with its arrays per request,
 * about 3% of the proxy's CPU and a fifth of what it allocated per request.
 *
 * <p>The rules and every answer are Undertow's (HostHeaderHandlerTest holds them to the original, loaded from the
 * undertow-core jar on a class loader of its own, over a thousand Host values): on an HTTP/1.x request exactly one
 * Host on HTTP/1.1 (HTTP/1.0 may leave it out), {@code uri-host [":" port]} with a port of 1-65535 in
 * Integer.parseInt's grammar, a reg-name of unreserved, sub-delims and %XX only (which takes in every IPv4 address,
 * so the IPv4 expression only ever accepted early what this accepts anyway), an IP-literal in brackets, and on an
 * absolute-form request a Host the target contains. A refusal is a 400 whose reason phrase names the rule, and the
 * connection closes. A valid name or address is a walk over its characters that allocates nothing; only a
 * bracketed IPv6 literal meets a regular expression. On an Undertow upgrade, the test's comparison says whether the
 * original's rules moved.
 */
public class HostHeaderHandler implements HttpHandler {
    public static final String STATUS_NO_HOST_HEADER = "No Host Header";
    public static final String STATUS_TOO_MANY_HOST_HEADERS = "Only One Host Header Allowed";
    public static final String STATUS_MALFORMED_PORT = "Host Header Malformed Port";
    public static final String STATUS_MALFORMED_IP_LITERAL = "Host Header Malformed IP-Literal";
    public static final String STATUS_MALFORMED_IP_LITERAL_BAD_CHARS = "Host Header Bad Characters";
    public static final String STATUS_HOST_NO_MATCH = "URI Host Header NO MATCH";

    /** Undertow asks for a wrapped root handler per request: the one made for the same root is handed out again. */
    public static final HandlerWrapper WRAPPER = new HandlerWrapper() {
        private volatile HostHeaderHandler last;

        @Override
        public HttpHandler wrap(HttpHandler handler) {
            HostHeaderHandler h = last;
            if (h == null || h.next != handler) {
                h = new HostHeaderHandler(handler);
                last = h;
            }
            return h;
        }
    };

    private static final Pattern IP6 = Pattern.compile(NetworkUtils.IP6_EXACT);
    /** reg-name = *( unreserved / pct-encoded / sub-delims ); IPvFuture's tail adds ":" */
    private static final boolean[] REG_NAME = new boolean[256];
    private static final boolean[] HEX = new boolean[256];
    static {
        for (int c = 0; c < 256; c++) {
            boolean alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
            REG_NAME[c] = alnum || "-._~!$&'()*+,;=".indexOf(c) >= 0;
            HEX[c] = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        }
    }

    private final HttpHandler next;

    public HostHeaderHandler(HttpHandler next) {
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange ex) throws Exception {
        String refusal = refusal(ex);
        if (refusal == null) {
            next.handleRequest(ex);
            return;
        }
        ex.setStatusCode(StatusCodes.BAD_REQUEST);
        ex.setResponseContentLength(0);
        ex.getResponseHeaders().add(Headers.CONNECTION, Headers.CLOSE.toString());
        ex.setReasonPhrase(refusal);
        ex.endExchange();
    }

    /** Null when the Host header is acceptable (or the request is HTTP/2, whose :authority Undertow checks), else why not. */
    public static String refusal(HttpServerExchange ex) {
        HttpString protocol = ex.getProtocol();
        boolean old = protocol.equals(Protocols.HTTP_1_0) || protocol.equals(Protocols.HTTP_0_9);
        if (!old && !protocol.equals(Protocols.HTTP_1_1)) {
            return null;
        }
        HeaderValues hosts = ex.getRequestHeaders().get(Headers.HOST);
        if (hosts == null && old) {
            return null;
        }
        if (hosts == null || hosts.isEmpty()) {
            return STATUS_NO_HOST_HEADER;
        }
        if (hosts.size() > 1) {
            return STATUS_TOO_MANY_HOST_HEADERS;
        }
        return refusal(hosts.getFirst(), ex.isHostIncludedInRequestURI() ? ex.getRequestURI() : null);
    }

    /** Why {@code value} is not an acceptable Host, or null; {@code absoluteTarget} is the request's absolute-form URI. */
    public static String refusal(String value, String absoluteTarget) {
        int bracket = value.lastIndexOf(']');
        int colon = value.lastIndexOf(':');
        int end = value.length();
        if (bracket < colon) {
            if (bracket == -1 && value.charAt(0) == '[') {
                return STATUS_MALFORMED_IP_LITERAL;
            }
            if (!validPort(value, colon + 1)) {
                return STATUS_MALFORMED_PORT;
            }
            end = colon;
        }
        if (bracket > 0) {
            if (value.charAt(0) != '[') {
                return STATUS_MALFORMED_IP_LITERAL;
            }
            String literal = value.substring(1, end - 1);
            if (literal.startsWith("v")) {
                String future = futureRefusal(literal);
                if (future != null) {
                    return future;
                }
            } else if (!IP6.matcher(literal).matches()) {
                return STATUS_MALFORMED_IP_LITERAL;
            }
        } else {
            for (int i = 0; i < end; i++) {
                char c = value.charAt(i);
                if (c == '%') {
                    if (i + 2 >= end) {
                        return STATUS_MALFORMED_IP_LITERAL;
                    }
                    if (!hex(value.charAt(++i)) || !hex(value.charAt(++i))) {
                        return STATUS_MALFORMED_IP_LITERAL_BAD_CHARS;
                    }
                } else if (c > 255 || !REG_NAME[c]) {
                    return STATUS_MALFORMED_IP_LITERAL_BAD_CHARS;
                }
            }
        }
        if (absoluteTarget != null && (end == 0 || !absoluteTarget.contains(value.substring(0, end)))) {
            return STATUS_HOST_NO_MATCH;
        }
        return null;
    }

    /** IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ) */
    private static String futureRefusal(String literal) {
        int dot = literal.indexOf('.');
        if (dot < 2) {
            return STATUS_MALFORMED_IP_LITERAL;
        }
        for (int i = 1; i < dot; i++) {
            if (!hex(literal.charAt(i))) {
                return STATUS_MALFORMED_IP_LITERAL_BAD_CHARS;
            }
        }
        if (dot + 1 >= literal.length()) {
            return STATUS_MALFORMED_IP_LITERAL;
        }
        for (int i = dot + 1; i < literal.length(); i++) {
            char c = literal.charAt(i);
            if (c != ':' && (c > 255 || !REG_NAME[c])) {
                return STATUS_MALFORMED_IP_LITERAL_BAD_CHARS;
            }
        }
        return null;
    }

    /** Integer.parseInt's grammar (an optional sign, then at least one digit) with a value of 1 to 65535. */
    private static boolean validPort(String value, int from) {
        int i = from;
        int end = value.length();
        if (i < end && (value.charAt(i) == '+' || value.charAt(i) == '-')) {
            if (value.charAt(i) == '-') {
                return false; // a number, but never above zero
            }
            i++;
        }
        if (i == end) {
            return false;
        }
        long port = 0;
        for (; i < end; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
            port = Math.min(port * 10 + (c - '0'), 1 << 20);
        }
        return port >= 1 && port <= 65535;
    }

    private static boolean hex(char c) {
        return c < 256 && HEX[c];
    }
}
