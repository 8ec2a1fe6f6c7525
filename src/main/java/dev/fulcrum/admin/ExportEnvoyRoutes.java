package dev.fulcrum.admin;

import dev.fulcrum.admin.ExportPlan.ExportPool;
import dev.fulcrum.admin.ExportText.Lines;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.MatchValue;
import dev.fulcrum.config.MirrorConfig;
import dev.fulcrum.config.RouteConfig;
import dev.fulcrum.config.RouteMatchConfig;
import dev.fulcrum.config.SplitArmConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.fulcrum.admin.ExportText.duration;
import static dev.fulcrum.admin.ExportText.regexLiteral;
import static dev.fulcrum.admin.ExportText.yamlString;

/**
 * The Envoy export of routes that match on more than a path prefix, split, mirror or carry a strategy
 * (docs/REFERENCE.md §2.1). Envoy tries routes in order, as Fulcrum does, so each route is one Envoy route (two for a
 * prefix without a trailing slash: the path itself and the path followed by /) with {@code headers} matchers (the
 * host as {@code :authority}, the method as {@code :method}, a cookie as a regular expression over {@code cookie})
 * and {@code query_parameters}; a split is {@code weighted_clusters}, a mirror {@code request_mirror_policies} with
 * its percentage as a {@code runtime_fraction}. Envoy's regular expressions (RE2) must match the whole value, so a
 * Fulcrum expression, found anywhere, is written {@code .*(?:EXPR).*}.
 */
final class ExportEnvoyRoutes {
    private ExportEnvoyRoutes() {
    }

    /** Writes the routes; true when one of them takes every request, so no fallback route is needed. */
    static boolean routes(Lines out, ExportPlan plan) {
        FulcrumConfig c = plan.config();
        boolean catchAll = false;
        List<RouteConfig> routes = plan.routes();
        for (int i = 0; i < routes.size(); i++) {
            RouteConfig r = routes.get(i);
            out.comment("route " + i + ": " + ExportText.describe(r));
            List<String> matchers = new ArrayList<>();
            List<String> query = new ArrayList<>();
            if (!conditions(out, r, matchers, query)) {
                continue;
            }
            String prefix = r.prefix() == null ? "/" : r.prefix();
            String rewrite = r.stripPrefix() && !prefix.equals("/") ? "/" : null;
            if (prefix.equals("/") || prefix.endsWith("/")) {
                route(out, c, plan, r, i, "prefix", prefix, rewrite, matchers, query);
                catchAll |= prefix.equals("/") && matchers.isEmpty() && query.isEmpty();
            } else {
                // Fulcrum matches a prefix at a segment boundary: /api and /api/..., not /apix
                route(out, c, plan, r, i, "path", prefix, rewrite, matchers, query);
                route(out, c, plan, r, i, "prefix", prefix + "/", rewrite, matchers, query);
            }
        }
        return catchAll;
    }

    private static void route(Lines out, FulcrumConfig c, ExportPlan plan, RouteConfig r, int i, String kind,
                              String path, String rewrite, List<String> matchers, List<String> query) {
        out.line("- match:");
        out.in().in().line(kind + ": " + yamlString(path));
        if (!matchers.isEmpty()) {
            out.line("headers:");
            matchers.forEach(out::line);
        }
        if (!query.isEmpty()) {
            out.line("query_parameters:");
            query.forEach(out::line);
        }
        out.out();
        out.line("route:");
        out.in();
        ExportPool hashed;
        if (r.split() == null) {
            hashed = plan.routePool(i, r.pool());
            out.line("cluster: " + yamlString(hashed.ident()));
        } else {
            hashed = null;
            long total = r.split().stream().mapToLong(SplitArmConfig::weight).sum();
            out.comment("Envoy draws the arm for each request: weights are shares of their sum (" + total
                    + "); an Envoy that still reads total_weight needs total_weight: " + total + " here");
            out.line("weighted_clusters:");
            out.in().line("clusters:");
            for (SplitArmConfig arm : r.split()) {
                out.line("- name: " + yamlString(plan.routePool(i, arm.pool()).ident()));
                out.in().line("weight: " + arm.weight()).out();
            }
            out.out();
        }
        if (rewrite != null) {
            out.line("prefix_rewrite: " + yamlString(rewrite));
        }
        out.comment("readMs " + c.timeouts().readMs() + " as the idle time between upstream reads; no total timeout "
                + "(streams stay open)");
        out.line("timeout: 0s");
        out.line("idle_timeout: " + duration(c.timeouts().readMs()));
        ExportEnvoy.retryPolicy(out, c.retries());
        if (hashed != null) {
            ExportEnvoy.hashPolicy(out, hashed);
        } else {
            stickiness(out, r);
        }
        MirrorConfig m = r.mirror();
        ExportPool to = m == null ? null : plan.pool(m.pool());
        if (to != null) {
            mirror(out, m, to);
        }
        if (r.guard() != null) {
            out.comment("no equivalent: the guard on " + r.guard().arm() + " (error rate or p99 against the first arm); "
                    + "Envoy does not watch an arm (Flagger or Argo Rollouts do, by rewriting these weights)");
        }
        if (r.maxInFlightPerBackend() != null) {
            out.comment("no equivalent: maxInFlightPerBackend " + r.maxInFlightPerBackend() + " (class "
                    + (r.routeClass() == null ? "none" : r.routeClass()) + "); Envoy's circuit_breakers cap a "
                    + "cluster's requests, not one route's on each endpoint");
        } else if (r.routeClass() != null) {
            out.comment("route class " + r.routeClass() + " (a label in Fulcrum)");
        }
        out.out();
        out.out();
    }

    private static void stickiness(Lines out, RouteConfig r) {
        String sticky = r.stickyBy() == null ? "none" : r.stickyBy();
        if (sticky.equals("none")) {
            return;
        }
        out.comment("sticky by " + sticky + ": no equivalent for the arm; Envoy draws the arm per request. This hash "
                + "keeps a user on one endpoint of an arm's cluster where it hashes (RING_HASH, MAGLEV); "
                + "in newer Envoy weighted_clusters.header_name takes the draw from a header a filter could derive from the key");
        out.line("hash_policy:");
        if (sticky.startsWith("cookie:")) {
            ExportEnvoy.hashItem(out, "cookie", "name: " + yamlString(sticky.substring(7)));
        } else if (sticky.startsWith("header:")) {
            ExportEnvoy.hashItem(out, "header", "header_name: " + yamlString(sticky.substring(7)));
        }
        out.line("- connection_properties:");
        out.in().in().line("source_ip: true").out().out();
    }

    private static void mirror(Lines out, MirrorConfig m, ExportPool to) {
        out.comment("mirror " + ExportText.number(m.percent()) + "% to pool " + m.pool() + ": Envoy appends -shadow to "
                + "the copy's Host and never waits for its answer");
        out.comment("no equivalent here: X-Fulcrum-Mirror on the copy only (request_headers_to_add would mark the "
                + "original too), and maxBodyBytes " + m.maxBodyBytes() + " (Envoy mirrors every body)");
        boolean whole = m.percent() == Math.rint(m.percent());
        out.line("request_mirror_policies:");
        out.line("- cluster: " + yamlString(to.ident()));
        out.in();
        out.line("runtime_fraction:");
        out.in().line("default_value:").in();
        if (whole) {
            out.line("numerator: " + (long) m.percent()).line("denominator: HUNDRED");
        } else {
            out.line("numerator: " + Math.round(m.percent() * 10_000)).line("denominator: MILLION");
        }
        out.out().out();
        out.out();
    }

    /** Fills the route's header and query matchers; false when Envoy cannot test one of its conditions. */
    private static boolean conditions(Lines out, RouteConfig r, List<String> headers, List<String> query) {
        RouteMatchConfig m = r.match();
        if (m == null) {
            return true;
        }
        if (m.host() != null) {
            MatchValue h = m.host();
            Boolean presence = ExportText.presence(h);
            if (presence != null) {
                header(headers, ":authority", null, presence, false);
            } else {
                String re = h.exact() != null ? regexLiteral(h.exact()) : h.prefix() != null
                        ? regexLiteral(h.prefix()) + "[^:]*" : "[^:]*(?:" + h.regex() + ")[^:]*";
                header(headers, ":authority", "safe_regex: {regex: " + yamlString("(?i)" + re + "(?::[0-9]+)?") + "}",
                        null, false);
            }
        }
        if (m.method() != null && !m.method().isEmpty()) {
            List<String> methods = m.method().stream().map(x -> regexLiteral(x.toUpperCase(Locale.ROOT))).toList();
            header(headers, ":method", "safe_regex: {regex: " + yamlString(String.join("|", methods)) + "}", null,
                    false);
        }
        if (m.headers() != null) {
            for (Map.Entry<String, MatchValue> e : m.headers().entrySet()) {
                MatchValue v = e.getValue();
                header(headers, e.getKey().toLowerCase(Locale.ROOT), stringMatch(v), ExportText.presence(v), false);
            }
        }
        if (m.cookies() != null) {
            for (Map.Entry<String, MatchValue> e : m.cookies().entrySet()) {
                MatchValue v = e.getValue();
                Boolean presence = ExportText.presence(v);
                String value = presence != null ? "[^;]*" : v.exact() != null ? regexLiteral(v.exact())
                        : v.prefix() != null ? regexLiteral(v.prefix()) + "[^;]*" : "[^;]*(?:" + v.regex() + ")[^;]*";
                String re = "(?:.*;\\s*)?" + regexLiteral(e.getKey()) + "=" + value + "(?:;.*)?";
                header(headers, "cookie", "safe_regex: {regex: " + yamlString(re) + "}", null,
                        Boolean.FALSE.equals(presence));
            }
        }
        if (m.query() != null) {
            for (Map.Entry<String, MatchValue> e : m.query().entrySet()) {
                MatchValue v = e.getValue();
                Boolean presence = ExportText.presence(v);
                if (Boolean.FALSE.equals(presence)) {
                    // query_parameters cannot say absent: the path must not hold the parameter
                    String re = ".*[?&]" + regexLiteral(e.getKey()) + "(?:[=&].*)?";
                    header(headers, ":path", "safe_regex: {regex: " + yamlString(re) + "}", null, true);
                } else {
                    query.add("- name: " + yamlString(e.getKey()));
                    query.add(presence != null ? "  present_match: true" : "  string_match: " + stringMatch(v));
                }
            }
        }
        return true;
    }

    private static String stringMatch(MatchValue v) {
        if (v.exact() != null) {
            return "{exact: " + yamlString(v.exact()) + "}";
        }
        if (v.prefix() != null) {
            return "{prefix: " + yamlString(v.prefix()) + "}";
        }
        if (v.regex() != null) {
            return "{safe_regex: {regex: " + yamlString(".*(?:" + v.regex() + ").*") + "}}";
        }
        return null;
    }

    private static void header(List<String> out, String name, String match, Boolean presence, boolean invert) {
        out.add("- name: " + yamlString(name));
        if (presence != null) {
            out.add("  present_match: true");
            if (!presence) {
                out.add("  invert_match: true");
            }
        } else {
            out.add("  string_match: " + (match.startsWith("{") ? match : "{" + match + "}"));
            if (invert) {
                out.add("  invert_match: true");
            }
        }
    }
}
