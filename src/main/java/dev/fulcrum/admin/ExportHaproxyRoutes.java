package dev.fulcrum.admin;

import dev.fulcrum.admin.ExportPlan.ExportPool;
import dev.fulcrum.admin.ExportText.Lines;
import dev.fulcrum.config.MatchValue;
import dev.fulcrum.config.RouteConfig;
import dev.fulcrum.config.RouteMatchConfig;
import dev.fulcrum.config.SplitArmConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The HAProxy export of routes that match on more than a path prefix, split, mirror or carry a strategy or a class
 * ceiling (docs/REFERENCE.md §2.1), inside the frontend. Each route's conditions are ACLs ({@code path}/{@code
 * path_beg}, {@code req.hdr(host)}, {@code method}, {@code req.fhdr(NAME)}, {@code req.cook(NAME)}, {@code
 * urlp(NAME)}); the first route whose ACLs all hold sets {@code txn.fulcrum_route}, as in Fulcrum's order. A split
 * hashes its sticky key ({@code crc32}) into 10000 buckets, or draws {@code rand(10000)} without one, and each arm owns
 * consecutive buckets in order; {@code use_backend} reads both. HAProxy has no request mirror of its own (comment).
 */
final class ExportHaproxyRoutes {
    private static final String ROUTE_VAR = "txn.fulcrum_route";
    private static final String BUCKET_VAR = "txn.fulcrum_bucket";
    private static final int BUCKETS = 10_000;

    private ExportHaproxyRoutes() {
    }

    static void frontend(Lines out, ExportPlan plan) {
        List<RouteConfig> routes = plan.routes();
        out.comment("routes, in the order Fulcrum tries them; the first whose ACLs all hold sets " + ROUTE_VAR);
        for (int i = 0; i < routes.size(); i++) {
            RouteConfig r = routes.get(i);
            out.comment("route " + i + ": " + ExportText.describe(r));
            List<String> terms = conditions(out, r, i);
            if (terms == null) {
                continue;
            }
            if (i > 0) {
                terms.add("!{ var(" + ROUTE_VAR + ") -m found }");
            }
            out.line("http-request set-var(" + ROUTE_VAR + ") int(" + i + ")"
                    + (terms.isEmpty() ? "" : " if " + String.join(" ", terms)));
        }
        for (int i = 0; i < routes.size(); i++) {
            RouteConfig r = routes.get(i);
            if (r.split() != null) {
                bucket(out, r, i);
            }
            if (r.mirror() != null) {
                out.comment("no equivalent: route " + i + "'s mirror (" + ExportText.number(r.mirror().percent())
                        + "% to pool " + r.mirror().pool() + "): HAProxy has no request mirror of its own; the nearest "
                        + "is an SPOE agent (spoa-mirror) fed by \"filter spoe\" on a sampled ACL");
            }
            if (r.guard() != null) {
                out.comment("no equivalent: route " + i + "'s guard on " + r.guard().arm() + " (error rate or p99 "
                        + "against the first arm); roll back by setting that arm's buckets to none and reloading");
            }
            if (r.maxInFlightPerBackend() != null) {
                out.comment("route " + i + " (class " + (r.routeClass() == null ? "none" : r.routeClass())
                        + "): maxInFlightPerBackend " + r.maxInFlightPerBackend() + " is maxconn on each server of "
                        + "its own backend copy; over it HAProxy queues the request up to timeout queue, then "
                        + "answers 503 (Fulcrum sheds at once with Retry-After)");
            } else if (r.routeClass() != null) {
                out.comment("route " + i + ": class " + r.routeClass() + " (a label in Fulcrum)");
            }
        }
        for (int i = 0; i < routes.size(); i++) {
            RouteConfig r = routes.get(i);
            if (r.stripPrefix() && r.prefix() != null && !r.prefix().equals("/")) {
                String p = r.prefix();
                String regex = p.endsWith("/") ? "^" + ExportHaproxy.regexQuote(p) + "(.*)"
                        : "^" + ExportHaproxy.regexQuote(p) + "(/|$)(.*)";
                String repl = p.endsWith("/") ? "/\\1" : "/\\2";
                out.line("http-request replace-path " + ExportHaproxy.quote(regex) + " " + ExportHaproxy.quote(repl)
                        + " if { var(" + ROUTE_VAR + ") -m int " + i + " }");
            }
        }
        for (int i = 0; i < routes.size(); i++) {
            RouteConfig r = routes.get(i);
            String route = "{ var(" + ROUTE_VAR + ") -m int " + i + " }";
            if (r.split() == null) {
                out.line("use_backend " + plan.routePool(i, r.pool()).ident() + " if " + route);
                continue;
            }
            List<SplitArmConfig> arms = r.split();
            long total = arms.stream().mapToLong(SplitArmConfig::weight).sum();
            int last = -1;
            for (int a = 0; a < arms.size(); a++) {
                if (arms.get(a).weight() > 0) {
                    last = a;
                }
            }
            long cum = 0;
            for (int a = 0; a < arms.size(); a++) {
                SplitArmConfig arm = arms.get(a);
                long from = Math.round(cum * (double) BUCKETS / total);
                cum += arm.weight();
                long to = Math.round(cum * (double) BUCKETS / total);
                String backend = plan.routePool(i, arm.pool()).ident();
                if (arm.weight() == 0) {
                    out.comment(arm.pool() + ": weight 0, no requests");
                } else if (a == last) {
                    out.line("use_backend " + backend + " if " + route + "  # " + arm.pool() + " weight "
                            + arm.weight() + ": the buckets left");
                } else if (to > from) {
                    out.line("use_backend " + backend + " if " + route + " { var(" + BUCKET_VAR + ") -m int " + from
                            + ":" + (to - 1) + " }  # " + arm.pool() + " weight " + arm.weight());
                }
            }
        }
        ExportPool fallback = plan.fallbackPool();
        out.line("default_backend " + fallback.ident());
    }

    /** Route {@code i}'s split bucket: the sticky key hashed, or a draw when the request has none. */
    private static void bucket(Lines out, RouteConfig r, int i) {
        String route = "{ var(" + ROUTE_VAR + ") -m int " + i + " }";
        String sticky = r.stickyBy() == null ? "none" : r.stickyBy();
        String fetch = null;
        if (sticky.startsWith("cookie:")) {
            fetch = "req.cook(" + sticky.substring(7) + ")";
        } else if (sticky.startsWith("header:")) {
            fetch = "req.fhdr(" + sticky.substring(7) + ")";
        } else if (sticky.equals("ip")) {
            fetch = "src";
        }
        if (fetch != null && !sticky.matches("(cookie:|header:)?[A-Za-z0-9_.-]+")) {
            out.comment("no equivalent: the sticky key " + sticky + " cannot be written in a fetch; assigned at random");
            fetch = null;
        }
        out.comment("route " + i + "'s split, sticky by " + sticky + ": the key's crc32 picks one of " + BUCKETS
                + " buckets (Fulcrum hashes otherwise: the same share, other users per arm); without it, a draw");
        if (fetch != null) {
            out.line("http-request set-var(" + BUCKET_VAR + ") " + fetch + ",crc32(1),mod(" + BUCKETS + ") if " + route
                    + (fetch.equals("src") ? "" : " { " + fetch + " -m found }"));
        }
        out.line("http-request set-var(" + BUCKET_VAR + ") rand(" + BUCKETS + ") if " + route + " !{ var("
                + BUCKET_VAR + ") -m found }");
    }

    /** Route {@code i}'s ACLs and the terms of its condition, or null when HAProxy cannot test one of them. */
    private static List<String> conditions(Lines out, RouteConfig r, int i) {
        List<String> terms = new ArrayList<>();
        String prefix = r.prefix();
        if (prefix != null && !prefix.equals("/")) {
            String acl = "r" + i + "_path";
            if (prefix.endsWith("/")) {
                out.line("acl " + acl + " path_beg " + ExportHaproxy.quote(prefix));
            } else {
                // a prefix matches at a segment boundary: /api and /api/..., not /apix
                out.line("acl " + acl + " path " + ExportHaproxy.quote(prefix));
                out.line("acl " + acl + " path_beg " + ExportHaproxy.quote(prefix + "/"));
            }
            terms.add(acl);
        }
        RouteMatchConfig m = r.match();
        if (m == null) {
            return terms;
        }
        if (m.host() != null) {
            terms.add(acl(out, "r" + i + "_host", "req.hdr(host),field(1,:)", "req.hdr(host)", m.host(), true));
        }
        if (m.method() != null && !m.method().isEmpty()) {
            List<String> methods = m.method().stream().map(x -> x.toUpperCase(java.util.Locale.ROOT)).toList();
            out.line("acl r" + i + "_method method " + String.join(" ", methods));
            terms.add("r" + i + "_method");
        }
        String[][] kinds = {{"header", "req.fhdr", "req.hdr"}, {"cookie", "req.cook", "req.cook"},
                {"query", "urlp", "urlp"}};
        List<Map<String, MatchValue>> named = new ArrayList<>();
        named.add(m.headers());
        named.add(m.cookies());
        named.add(m.query());
        int n = 0;
        for (int k = 0; k < 3; k++) {
            if (named.get(k) == null) {
                continue;
            }
            for (Map.Entry<String, MatchValue> e : named.get(k).entrySet()) {
                if (!e.getKey().matches("[A-Za-z0-9_.-]+")) {
                    out.comment("no equivalent: " + kinds[k][0] + " " + e.getKey() + " cannot be written in a fetch's "
                            + "argument; this route never matches here");
                    return null;
                }
                String name = "r" + i + "_" + kinds[k][0] + n++;
                terms.add(acl(out, name, kinds[k][1] + "(" + e.getKey() + ")", kinds[k][2] + "(" + e.getKey() + ")",
                        e.getValue(), false));
            }
        }
        return terms;
    }

    /** One ACL; the term that tests it ({@code !name} for absent). */
    private static String acl(Lines out, String name, String fetch, String presenceFetch, MatchValue v,
                              boolean ignoreCase) {
        Boolean presence = ExportText.presence(v);
        if (presence != null) {
            out.line("acl " + name + " " + presenceFetch + " -m found");
            return presence ? name : "!" + name;
        }
        String how;
        String value;
        if (v.exact() != null) {
            how = "-m str";
            value = v.exact();
        } else if (v.prefix() != null) {
            how = "-m beg";
            value = v.prefix();
        } else {
            out.comment("a regular expression found anywhere in the value, as in Fulcrum (PCRE; Java's read alike)");
            how = "-m reg";
            value = v.regex();
        }
        out.line("acl " + name + " " + fetch + (ignoreCase ? " -i " : " ") + how + (value.startsWith("-") ? " -- " : " ")
                + quoteValue(value));
        return name;
    }

    /** A pattern: single-quoted (nothing inside is special), double-quoted with escapes when it holds a quote. */
    private static String quoteValue(String v) {
        if (v.matches("[A-Za-z0-9/_.~%@:+!,=-]+")) {
            return v;
        }
        return ExportHaproxy.quote(v);
    }
}
