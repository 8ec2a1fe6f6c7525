package dev.fulcrum.ui.requests;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.requests.RequestSample;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a request reads in the Requests tab: each column's text and the lines of its details. Plain functions of a
 * {@link RequestSample}, so the table, the details and the tests agree.
 *
 * <p>Examples: attempts {@code [a connect-failure, b success]} read {@code a ✗ → b}; a client that hung up while
 * {@code a} worked reads {@code a (client left)}; 1,234,567 bytes read {@code 1.2 MB}; 1,530 ms reads {@code 1.53 s};
 * an open WebSocket that sent 1,200 bytes and got 34,000 reads {@code ↑ 1.2 kB ↓ 34 kB}.
 */
public final class RequestText {
    static final String SUCCESS = "SUCCESS";
    static final String CLIENT_ABORT = "CLIENT_ABORT";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS")
            .withZone(ZoneId.systemDefault());
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .withZone(ZoneId.systemDefault());

    private RequestText() {
    }

    /** The time the request arrived, local: {@code 14:03:07.215}. */
    public static String time(RequestSample r) {
        return TIME.format(Instant.ofEpochMilli(r.startMillis()));
    }

    /** The path with its query, as the client sent it. */
    public static String target(RequestSample r) {
        return r.query() == null ? r.path() : r.path() + "?" + r.query();
    }

    /** The status; an open WebSocket's is {@code 101 open}. */
    public static String status(RequestSample r, boolean open) {
        // the status code first: the table colours the cell by it
        return open ? Texts.t("requests.text.status_open", Integer.toString(r.status())) : Integer.toString(r.status());
    }

    /** The backend whose answer the client got, or a dash. */
    public static String backend(RequestSample r) {
        return r.backend() == null ? "–" : r.backend();
    }

    /**
     * The retry path: each backend tried, in order, a failed one marked {@code ✗}, one the client left while it worked
     * marked {@code (client left)}: {@code a ✗ → b}. No attempt: {@code none (refused)} or a dash.
     */
    public static String attempts(RequestSample r) {
        if (r.attempts().isEmpty()) {
            return r.refused() ? Texts.t("requests.text.refused") : "–";
        }
        StringBuilder b = new StringBuilder();
        for (RequestSample.Attempt a : r.attempts()) {
            b.append(b.length() == 0 ? "" : " → ").append(a.backend());
            if (CLIENT_ABORT.equals(a.outcome())) {
                b.append(Texts.t("requests.text.client_left"));
            } else if (!SUCCESS.equals(a.outcome())) {
                b.append(" ✗");
            }
        }
        return b.toString();
    }

    /** {@code CONNECT_FAILURE} as {@code connect-failure}, as the admin API names outcomes. */
    public static String outcome(String outcome) {
        return outcome == null ? "–" : outcome.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The request's time from arrival to end; an open WebSocket's so far, as {@code open 12.0 s}. */
    public static String latency(RequestSample r, boolean open) {
        return open ? Texts.t("requests.text.open_for", duration(r.latencyMs())) : duration(r.latencyMs());
    }

    /** {@code 0.42 ms}, {@code 12.3 ms}, {@code 412 ms}, {@code 1.53 s}, {@code 2 min 05 s}. */
    public static String duration(double ms) {
        if (ms < 10) {
            return String.format(Locale.ROOT, "%.2f ms", ms);
        }
        if (ms < 100) {
            return String.format(Locale.ROOT, "%.1f ms", ms);
        }
        if (ms < 1000) {
            return String.format(Locale.ROOT, "%.0f ms", ms);
        }
        if (ms < 60_000) {
            return String.format(Locale.ROOT, "%.2f s", ms / 1000);
        }
        long s = (long) (ms / 1000);
        return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
    }

    /**
     * The bytes: the answer's size, or both ways ({@code ↑} from the client, {@code ↓} to it) when the client sent a
     * body or the connection is a tunnel.
     */
    public static String bytes(RequestSample r) {
        if (r.upgraded() || r.bytesIn() > 0) {
            return "↑ " + size(r.bytesIn()) + "  ↓ " + size(r.bytesOut());
        }
        return size(r.bytesOut());
    }

    /** Decimal units, as browsers' network panels: {@code 512 B}, {@code 1.2 kB}, {@code 34 kB}, {@code 1.2 MB}. */
    public static String size(long bytes) {
        if (bytes < 1000) {
            return bytes + " B";
        }
        String[] units = {"kB", "MB", "GB", "TB"};
        double v = bytes;
        int u = -1;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return String.format(Locale.ROOT, v < 10 ? "%.1f %s" : "%.0f %s", v, units[u]);
    }

    /** Header lines as sent, {@code Name: value} each (credentials already masked by the proxy). */
    public static String headers(List<RequestSample.Header> headers) {
        if (headers.isEmpty()) {
            return Texts.t("requests.text.no_headers");
        }
        StringBuilder b = new StringBuilder();
        for (RequestSample.Header h : headers) {
            b.append(h.name()).append(": ").append(h.value()).append('\n');
        }
        return b.substring(0, b.length() - 1);
    }

    /** The flags that are set, in words: {@code retried, sticky}; {@code none}. */
    public static String flags(RequestSample r, boolean open) {
        List<String> f = new ArrayList<>();
        if (r.retried()) {
            f.add(Texts.t("requests.flag.retried"));
        }
        if (r.sticky()) {
            f.add(Texts.t("requests.flag.sticky"));
        }
        if (r.spilled()) {
            f.add(Texts.t("requests.flag.spilled"));
        }
        if (r.refused()) {
            f.add(Texts.t("requests.flag.refused"));
        }
        if (r.upgraded()) {
            f.add(Texts.t(open ? "requests.flag.upgraded_open" : "requests.flag.upgraded"));
        }
        return f.isEmpty() ? Texts.t("requests.flag.none") : String.join(", ", f);
    }

    /** The hashed key and its hash, or why there is none. */
    public static String key(RequestSample r) {
        return r.key() == null ? Texts.t("requests.text.not_hashed") : "\"" + r.key() + "\"";
    }

    /** The 64-bit hash as hex and as the admin API's unsigned decimal, or a dash. */
    public static String hash(RequestSample r) {
        return r.key() == null ? "–" : String.format("0x%016x (%s)", r.keyHash(), r.keyHashText());
    }

    /**
     * How the request was routed, or null for one that took no route: {@code route 0 · arm canary · class vip}, and
     * {@code · a mirrored copy (its answer went to no client)} or {@code · shed at its class's ceiling}.
     */
    public static String routing(RequestSample r) {
        RequestSample.Routing g = r.routing();
        if (g == null || (g.route() == null && !g.mirror() && !g.shed())) {
            return null;
        }
        java.util.List<String> parts = new java.util.ArrayList<>();
        parts.add(g.route() == null ? Texts.t("requests.routing.default_pool")
                : Texts.t("requests.routing.route", Integer.toString(g.route())));
        if (g.arm() != null) {
            parts.add(Texts.t("requests.routing.arm", g.arm()));
        }
        if (g.routeClass() != null) {
            parts.add(Texts.t("requests.routing.class", g.routeClass()));
        }
        if (g.mirror()) {
            parts.add(Texts.t("requests.routing.mirrored"));
        }
        if (g.shed()) {
            parts.add(Texts.t("requests.routing.shed"));
        }
        return String.join(" · ", parts);
    }

    /** The details' "Timing" lines: label → value, in the order shown. */
    public static Map<String, String> details(RequestSample r, boolean open) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(Texts.t("requests.detail.request"), r.method() + " " + target(r));
        m.put(Texts.t("requests.detail.started"), DATE_TIME.format(Instant.ofEpochMilli(r.startMillis())));
        m.put(open ? Texts.t("requests.detail.open_for") : Texts.t("requests.detail.took"),
                open ? Texts.t("requests.detail.so_far", duration(r.latencyMs())) : duration(r.latencyMs()));
        m.put(Texts.t("requests.detail.status"), status(r, open));
        m.put(Texts.t("requests.detail.answered_by"), backend(r));
        m.put(Texts.t("requests.detail.pool"), r.pool());
        if (routing(r) != null) {
            m.put(Texts.t("requests.detail.route"), routing(r));
        }
        m.put(Texts.t("requests.detail.client"), r.client());
        m.put(Texts.t("requests.detail.protocol"), (r.scheme() == null ? "" : r.scheme() + ", ")
                + (r.protocol() == null ? "–" : r.protocol()));
        m.put(Texts.t(r.upgraded() ? "requests.detail.bytes_from_client" : "requests.detail.request_body"),
                size(r.bytesIn()));
        m.put(Texts.t(r.upgraded() ? "requests.detail.bytes_to_client" : "requests.detail.response"),
                size(r.bytesOut()));
        m.put(Texts.t("requests.detail.key"), key(r));
        m.put(Texts.t("requests.detail.hash"), hash(r));
        m.put(Texts.t("requests.detail.flags"), flags(r, open));
        return m;
    }
}
