package dev.fulcrum.admin;

import dev.fulcrum.requests.RequestSample;
import io.undertow.util.StatusCodes;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Requests as a HAR 1.2 log (the HTTP Archive format of the W3C's Web Performance group, which Chrome DevTools,
 * Firefox and HAR viewers open): one entry per request, oldest first, with its headers (credentials masked by the
 * proxy as it recorded them), query string, status, sizes and timings. Fulcrum's own facts go in fields whose names
 * start with an underscore, as the format allows: {@code _backend}, {@code _pool}, {@code _attempts}, {@code _retried},
 * {@code _decision} when the request's decision was recorded (docs/REFERENCE.md §5.2), and how it was routed where
 * set: {@code _route}, {@code _arm}, {@code _class}, {@code _mirror} (a mirrored copy).
 *
 * <p>Bodies are not recorded, so each entry's {@code content} has its size and type but no text. The whole time of a
 * request is its {@code wait} (the proxy does not time sending and receiving apart); {@code blocked}, {@code dns} and
 * {@code connect} are -1, "not known", as the format says.
 */
public final class Har {
    static final String VERSION = "0.1.0";

    private Har() {
    }

    /** The HAR document of these requests, for {@code GET /api/requests/har}: entries oldest first. */
    public static Map<String, Object> of(List<RequestSample> newestFirst) {
        List<Map<String, Object>> entries = new ArrayList<>();
        for (int i = newestFirst.size() - 1; i >= 0; i--) {
            entries.add(entry(newestFirst.get(i)));
        }
        Map<String, Object> creator = new LinkedHashMap<>();
        creator.put("name", "Fulcrum");
        creator.put("version", VERSION);
        Map<String, Object> log = new LinkedHashMap<>();
        log.put("version", "1.2");
        log.put("creator", creator);
        log.put("pages", List.of());
        log.put("entries", entries);
        return Map.of("log", log);
    }

    /** {@link #of} as the JSON text of a {@code .har} file (the window's export). */
    public static String text(List<RequestSample> newestFirst) {
        return Json.write(of(newestFirst));
    }

    static Map<String, Object> entry(RequestSample r) {
        String httpVersion = r.protocol() == null ? "HTTP/1.1" : r.protocol();
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("method", r.method());
        request.put("url", url(r));
        request.put("httpVersion", httpVersion);
        request.put("cookies", List.of());
        request.put("headers", RequestJson.headers(r.requestHeaders()));
        request.put("queryString", query(r.query()));
        request.put("headersSize", -1);
        request.put("bodySize", r.bytesIn());

        Map<String, Object> content = new LinkedHashMap<>();
        content.put("size", r.bytesOut());
        content.put("mimeType", header(r.responseHeaders(), "Content-Type", "x-unknown"));
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("status", r.status());
        response.put("statusText", r.status() == 499 ? "Client Closed Request" : StatusCodes.getReason(r.status()));
        response.put("httpVersion", httpVersion);
        response.put("cookies", List.of());
        response.put("headers", RequestJson.headers(r.responseHeaders()));
        response.put("content", content);
        response.put("redirectURL", header(r.responseHeaders(), "Location", ""));
        response.put("headersSize", -1);
        response.put("bodySize", r.bytesOut());

        double ms = RequestJson.round(r.latencyMs());
        Map<String, Object> timings = new LinkedHashMap<>();
        timings.put("blocked", -1);
        timings.put("dns", -1);
        timings.put("connect", -1);
        timings.put("send", 0);
        timings.put("wait", ms);
        timings.put("receive", 0);
        timings.put("ssl", -1);

        Map<String, Object> e = new LinkedHashMap<>();
        e.put("startedDateTime", Instant.ofEpochMilli(r.startMillis()).toString());
        e.put("time", ms);
        e.put("request", request);
        e.put("response", response);
        e.put("cache", Map.of());
        e.put("timings", timings);
        e.put("_pool", r.pool());
        e.put("_backend", r.backend());
        e.put("_attempts", RequestJson.of(r).get("attempts"));
        e.put("_retried", r.retried());
        if (r.decision() != null) {
            e.put("_decision", RequestJson.decision(r.decision()));
        }
        RequestSample.Routing g = r.routing();
        if (g != null) {
            if (g.route() != null) {
                e.put("_route", g.route());
            }
            if (g.arm() != null) {
                e.put("_arm", g.arm());
            }
            if (g.routeClass() != null) {
                e.put("_class", g.routeClass());
            }
            if (g.mirror()) {
                e.put("_mirror", true);
            }
        }
        return e;
    }

    private static String url(RequestSample r) {
        String host = header(r.requestHeaders(), "Host", "localhost");
        String scheme = r.scheme() == null ? "http" : r.scheme();
        String path = r.path() == null ? "/" : r.path();
        String base = path.startsWith("http://") || path.startsWith("https://") ? path : scheme + "://" + host + path;
        return r.query() == null ? base : base + "?" + r.query();
    }

    private static List<Map<String, String>> query(String q) {
        List<Map<String, String>> out = new ArrayList<>();
        if (q == null || q.isEmpty()) {
            return out;
        }
        for (String pair : q.split("&")) {
            int eq = pair.indexOf('=');
            Map<String, String> p = new LinkedHashMap<>();
            p.put("name", decode(eq < 0 ? pair : pair.substring(0, eq)));
            p.put("value", eq < 0 ? "" : decode(pair.substring(eq + 1)));
            out.add(p);
        }
        return out;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException bad) {
            return s; // a malformed escape is shown as sent
        }
    }

    private static String header(List<RequestSample.Header> hs, String name, String otherwise) {
        for (RequestSample.Header h : hs) {
            if (h.name().equalsIgnoreCase(name)) {
                return h.value();
            }
        }
        return otherwise;
    }
}
