package dev.fulcrum.proxy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.Outcome;
import dev.fulcrum.requests.RequestSample;
import dev.fulcrum.requests.RequestStream;
import io.undertow.util.HeaderMap;
import io.undertow.util.HeaderValues;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes each finished exchange into the {@link RequestStream} (docs/ARCHITECTURE.md, design rule 8), on the I/O thread
 * that ran it: one slot of that thread's ring, filled with references the exchange already holds, so recording
 * allocates nothing. Also the attempts an exchange made before its last one, kept only when it made more than one.
 */
final class RequestRecords {
    /**
     * The stream's view of Undertow's header maps, converted on the reader's thread, with the values of credentials
     * masked ({@link #masked}): nothing that reads the stream (the window, {@code /api/requests}, a HAR file someone
     * attaches to a bug report) ever holds a password, a token or a session cookie.
     */
    static final RequestStream.Headers HEADERS = o -> {
        HeaderMap m = (HeaderMap) o;
        List<RequestSample.Header> out = new ArrayList<>(m.size());
        for (HeaderValues v : m) {
            String name = v.getHeaderName().toString();
            if (name.startsWith(":")) {
                continue; // HTTP/2's :status, which Undertow puts in the answer's map as it writes it
            }
            for (String value : v) {
                out.add(new RequestSample.Header(name, masked(name, value)));
            }
        }
        return out;
    };

    static final String MASK = "***";

    /**
     * A header's value as the stream keeps it: an {@code Authorization} or {@code Proxy-Authorization} keeps only its
     * scheme ({@code Bearer ***}), a {@code Cookie} or {@code Set-Cookie} only its cookie names and attributes
     * ({@code sid=***; theme=***}, {@code sid=***; Path=/; HttpOnly}); anything else is kept whole.
     */
    static String masked(String name, String value) {
        if (name.equalsIgnoreCase("Authorization") || name.equalsIgnoreCase("Proxy-Authorization")) {
            int sp = value.indexOf(' ');
            return sp > 0 ? value.substring(0, sp) + " " + MASK : MASK;
        }
        if (name.equalsIgnoreCase("Cookie")) {
            StringBuilder b = new StringBuilder();
            for (String pair : value.split(";")) {
                String p = pair.strip();
                int eq = p.indexOf('=');
                b.append(b.length() == 0 ? "" : "; ").append(eq > 0 ? p.substring(0, eq) : p).append('=').append(MASK);
            }
            return b.toString();
        }
        if (name.equalsIgnoreCase("Set-Cookie")) {
            int eq = value.indexOf('=');
            int semi = value.indexOf(';');
            String cookie = eq > 0 && (semi < 0 || eq < semi) ? value.substring(0, eq) : "";
            return cookie + "=" + MASK + (semi >= 0 ? value.substring(semi) : "");
        }
        return value;
    }

    private RequestRecords() {
    }

    /** Attempts that ended before the exchange's last one, oldest first; made at the first retry. */
    static final class Earlier {
        private Backend[] backends = new Backend[2];
        private Outcome[] outcomes = new Outcome[2];
        private long[] nanos = new long[2];
        private int n;

        void add(Backend b, Outcome o, long took) {
            if (n == backends.length) {
                backends = java.util.Arrays.copyOf(backends, n * 2);
                outcomes = java.util.Arrays.copyOf(outcomes, n * 2);
                nanos = java.util.Arrays.copyOf(nanos, n * 2);
            }
            backends[n] = b;
            outcomes[n] = o;
            nanos[n] = took;
            n++;
        }

        int size() {
            return n;
        }
    }

    /**
     * The exchange's record.
     *
     * @param answered the backend whose answer the client got, or null
     * @param status   the status the client got (499 when it hung up first)
     * @param last     the last attempt's backend, outcome and length, or null when no backend was picked
     */
    static void write(RequestStream stream, String pool, ExchangeRequest ex, Earlier earlier,
                      Backend last, Outcome lastOutcome, long lastNanos, String answered, int status, boolean sticky,
                      long endNanos) {
        write(stream, pool, ex, earlier, last, lastOutcome, lastNanos, answered, status, sticky, endNanos, null);
    }

    /** The exchange's record with how its backend was chosen ({@code decision}: null when not recorded). */
    static void write(RequestStream stream, String pool, ExchangeRequest ex, Earlier earlier,
                      Backend last, Outcome lastOutcome, long lastNanos, String answered, int status, boolean sticky,
                      long endNanos, dev.fulcrum.requests.Decision decision) {
        RequestStream.Slot s = stream.claim();
        fill(s, pool, ex, ex.getRequestStartTime(), endNanos);
        if (earlier != null) {
            for (int i = 0; i < earlier.n; i++) {
                s.attempt(earlier.backends[i].id(), earlier.outcomes[i], earlier.nanos[i]);
            }
        }
        if (last != null) {
            s.attempt(last.id(), lastOutcome, lastNanos);
        }
        s.backend = answered;
        s.status = status;
        s.bytesIn = Math.max(0, ex.getRequestContentLength());
        s.bytesOut = ex.getResponseBytesSent();
        s.sticky = sticky;
        s.spilled = ex.wasSpilled();
        s.refused = status == 503 && last == null;
        s.responseHeaders = ex.getResponseHeaders();
        s.decision = decision;
        stream.publish(s);
    }

    /** An upgraded connection's record, at its close: the whole tunnel's life and the bytes each way. */
    static void writeTunnel(RequestStream stream, String pool, ExchangeRequest ex,
                            Backend backend, long startNanos, long endNanos, long clientBytes, long backendBytes) {
        RequestStream.Slot s = stream.claim();
        fill(s, pool, ex, startNanos, endNanos);
        s.attempt(backend.id(), Outcome.SUCCESS, endNanos - startNanos);
        s.backend = backend.id();
        s.status = 101;
        s.bytesIn = clientBytes;
        s.bytesOut = backendBytes;
        s.upgraded = true;
        s.responseHeaders = ex.getResponseHeaders();
        s.decision = ex.decision();
        stream.publish(s);
    }

    private static void fill(RequestStream.Slot s, String pool, ExchangeRequest ex,
                             long startNanos, long endNanos) {
        s.startNanos = startNanos > 0 ? startNanos : endNanos;
        s.endNanos = endNanos;
        s.pool = pool;
        s.method = ex.getRequestMethod();
        s.path = ex.getRequestURI();
        s.query = ex.getQueryString().isEmpty() ? null : ex.getQueryString();
        s.scheme = ex.getRequestScheme();
        s.protocol = ex.getProtocol();
        s.client = ex.clientIp();
        if (ex.hashedKey() != null) {
            s.key = ex.hashedKey();
            s.keyHash = ex.hash();
        }
        if (ex.route != null) {
            s.route = ex.route.index();
            s.arm = ex.armPool();
            s.routeClass = ex.route.routeClass();
            s.shed = ex.shed;
        }
        s.requestHeaders = ex.getRequestHeaders();
    }

    /**
     * A mirrored copy's record ({@code routes[i].mirror}): its own sample, marked {@code mirror}, with the mirror pool,
     * the backend it went to and how that ended. {@code status} is the copy's answer, or what a client would have
     * got without one (502, or 504 after {@code readMs}); {@code answered} is false then.
     */
    static void writeMirror(RequestStream stream, String pool, ExchangeRequest ex,
                            Backend backend, Outcome outcome, boolean answered, int status, long startNanos,
                            long endNanos, long bytesIn, long bytesOut, HeaderMap responseHeaders) {
        RequestStream.Slot s = stream.claim();
        s.startNanos = startNanos;
        s.endNanos = endNanos;
        s.pool = pool;
        s.method = ex.getRequestMethod();
        s.path = ex.getRequestURI();
        s.query = ex.getQueryString().isEmpty() ? null : ex.getQueryString();
        s.scheme = ex.getRequestScheme();
        s.protocol = ex.getProtocol();
        s.client = ex.clientIp();
        s.requestHeaders = ex.getRequestHeaders();
        s.attempt(backend.id(), outcome, endNanos - startNanos);
        s.backend = answered ? backend.id() : null;
        s.status = status;
        s.bytesIn = bytesIn;
        s.bytesOut = bytesOut;
        s.responseHeaders = responseHeaders;
        s.route = ex.route.index();
        s.routeClass = ex.route.routeClass();
        s.mirror = true;
        stream.publish(s);
    }
}
