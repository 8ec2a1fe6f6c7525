package dev.fulcrum.admin;

import dev.fulcrum.requests.Decision;
import dev.fulcrum.requests.RequestSample;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A {@link RequestSample} as the admin API sends it (docs/REFERENCE.md §5): {@code time}, {@code pool}, {@code method},
 * {@code path}, {@code client}, {@code key} and {@code keyHash} (an unsigned 64-bit decimal string, as JSON numbers
 * lose precision past 2^53), {@code attempts} {@code [{"backend","outcome","ms"}]}, {@code backend}, {@code status},
 * {@code bytes}, {@code latencyMs} and the flags, then what the Requests view and HAR files need besides, and
 * {@code decision} when it was recorded ({@code proxy.logDecisions}): the very JSON the access log writes
 * ({@link Decision#toJson}); then how it was routed: {@code route}, {@code arm}, {@code class} when set, {@code mirror}
 * (a mirrored copy) and {@code shed} (refused at its class ceiling) only when true.
 */
final class RequestJson {
    private RequestJson() {
    }

    static Map<String, Object> of(RequestSample r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", r.id());
        m.put("time", Instant.ofEpochMilli(r.startMillis()).toString());
        m.put("pool", r.pool());
        m.put("method", r.method());
        m.put("path", r.path());
        m.put("query", r.query());
        m.put("client", r.client());
        m.put("key", r.key());
        m.put("keyHash", r.keyHashText());
        List<Map<String, Object>> attempts = new ArrayList<>();
        for (RequestSample.Attempt a : r.attempts()) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("backend", a.backend());
            t.put("outcome", outcome(a.outcome()));
            t.put("ms", round(a.ms()));
            attempts.add(t);
        }
        m.put("attempts", attempts);
        m.put("backend", r.backend());
        m.put("status", r.status());
        m.put("bytes", r.bytesOut());
        m.put("bytesIn", r.bytesIn());
        m.put("latencyMs", round(r.latencyMs()));
        m.put("retried", r.retried());
        m.put("sticky", r.sticky());
        m.put("spilled", r.spilled());
        m.put("refused", r.refused());
        m.put("upgraded", r.upgraded());
        m.put("scheme", r.scheme());
        m.put("protocol", r.protocol());
        m.put("requestHeaders", headers(r.requestHeaders()));
        m.put("responseHeaders", headers(r.responseHeaders()));
        if (r.decision() != null) {
            m.put("decision", decision(r.decision()));
        }
        routing(m, r.routing(), "");
        return m;
    }

    /**
     * How the request was routed, into {@code m} under {@code prefix}: {@code route}, {@code arm} and {@code class}
     * when set, {@code mirror} and {@code shed} only when true, so a request of the default pool reads as before.
     */
    static void routing(Map<String, Object> m, RequestSample.Routing g, String prefix) {
        if (g == null) {
            return;
        }
        if (g.route() != null) {
            m.put(prefix + "route", g.route());
        }
        if (g.arm() != null) {
            m.put(prefix + "arm", g.arm());
        }
        if (g.routeClass() != null) {
            m.put(prefix + "class", g.routeClass());
        }
        if (g.mirror()) {
            m.put(prefix + "mirror", true);
        }
        if (g.shed()) {
            m.put(prefix + "shed", true);
        }
    }

    /** The inverse of {@link #routing}. */
    static RequestSample.Routing parseRouting(com.fasterxml.jackson.databind.JsonNode n) {
        var route = n.get("route");
        String arm = text(n, "arm");
        String cls = text(n, "class");
        boolean mirror = n.path("mirror").asBoolean();
        boolean shed = n.path("shed").asBoolean();
        if ((route == null || route.isNull()) && arm == null && cls == null && !mirror && !shed) {
            return RequestSample.Routing.NONE;
        }
        return new RequestSample.Routing(route == null || route.isNull() ? null : route.asInt(), arm, cls, mirror,
                shed);
    }

    /** The decision as a JSON tree of the access log's text, so the two can never differ. */
    static com.fasterxml.jackson.databind.JsonNode decision(Decision d) {
        try {
            return Json.LENIENT.readTree(d.toJson());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The inverse of {@link #decision}; null for a missing or null field. */
    static Decision parseDecision(com.fasterxml.jackson.databind.JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return null;
        }
        List<Decision.Pick> picks = new ArrayList<>();
        for (var p : n.path("picks")) {
            List<Decision.Candidate> cs = new ArrayList<>();
            for (var c : p.path("candidates")) {
                var score = c.get("score");
                cs.add(new Decision.Candidate(text(c, "id"), c.path("weight").asDouble(), c.path("inflight").asInt(),
                        c.path("backup").asBoolean(), text(c, "skipped"),
                        score == null || score.isNull() ? null : score.asDouble(), text(c, "fallback")));
            }
            List<Double> draws = new ArrayList<>();
            for (var d : p.path("draws")) {
                draws.add(d.asDouble());
            }
            String hash = text(p, "keyHash");
            picks.add(new Decision.Pick(p.path("attempt").asInt(), text(p, "strategy"), cs, draws, text(p, "fallback"),
                    text(p, "picked"), text(p, "key"), hash == null ? 0 : Long.parseUnsignedLong(hash)));
        }
        return new Decision(picks);
    }

    /** A request the admin API sent, and the {@code dropped} count that came with it (0 when there was none). */
    record Parsed(RequestSample sample, long dropped) {
    }

    /** The inverse of {@link #of}: one object of {@code /api/requests} or {@code /api/requests/recent}. */
    static Parsed parse(String json) {
        try {
            return parse(Json.LENIENT.readTree(json));
        } catch (java.io.IOException | RuntimeException e) {
            throw new java.io.UncheckedIOException(new java.io.IOException("requests: not a request object (got: "
                    + Json.abbreviate(json) + ")", e));
        }
    }

    static Parsed parse(com.fasterxml.jackson.databind.JsonNode n) {
        List<RequestSample.Attempt> attempts = new ArrayList<>();
        for (var a : n.path("attempts")) {
            attempts.add(new RequestSample.Attempt(text(a, "backend"),
                    text(a, "outcome") == null ? null : text(a, "outcome").toUpperCase(Locale.ROOT).replace('-', '_'),
                    a.path("ms").asDouble()));
        }
        String hash = text(n, "keyHash");
        RequestSample r = new RequestSample(text(n, "id"), Instant.parse(n.path("time").asText()).toEpochMilli(),
                text(n, "pool"), text(n, "method"), text(n, "path"), text(n, "query"), text(n, "scheme"),
                text(n, "protocol"), text(n, "client"), text(n, "key"), hash == null ? 0 : Long.parseUnsignedLong(hash),
                List.copyOf(attempts), text(n, "backend"), n.path("status").asInt(), n.path("bytesIn").asLong(),
                n.path("bytes").asLong(), n.path("latencyMs").asDouble(), n.path("retried").asBoolean(),
                n.path("sticky").asBoolean(), n.path("spilled").asBoolean(), n.path("refused").asBoolean(),
                n.path("upgraded").asBoolean(), parseHeaders(n.path("requestHeaders")),
                parseHeaders(n.path("responseHeaders")), parseDecision(n.get("decision")), parseRouting(n));
        return new Parsed(r, n.path("dropped").asLong());
    }

    private static List<RequestSample.Header> parseHeaders(com.fasterxml.jackson.databind.JsonNode hs) {
        List<RequestSample.Header> out = new ArrayList<>();
        for (var h : hs) {
            out.add(new RequestSample.Header(text(h, "name"), text(h, "value")));
        }
        return List.copyOf(out);
    }

    private static String text(com.fasterxml.jackson.databind.JsonNode n, String field) {
        var v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** {@code CONNECT_FAILURE} as {@code connect-failure}. */
    static String outcome(String enumName) {
        return enumName.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static List<Map<String, String>> headers(List<RequestSample.Header> hs) {
        List<Map<String, String>> out = new ArrayList<>(hs.size());
        for (RequestSample.Header h : hs) {
            Map<String, String> e = new LinkedHashMap<>();
            e.put("name", h.name());
            e.put("value", h.value());
            out.add(e);
        }
        return out;
    }

    static double round(double ms) {
        return Math.round(ms * 1000) / 1000.0;
    }
}
