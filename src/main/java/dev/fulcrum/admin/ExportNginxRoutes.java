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

/**
 * The nginx export of routes that match on more than a path prefix, split, mirror or carry a strategy or a class
 * ceiling (docs/REFERENCE.md §2.1). Plain prefix routes stay locations ({@link ExportNginx}); these cannot, because
 * Fulcrum tries them in order and a location is chosen by the longest prefix. So the choice is made by maps:
 * <ul>
 *   <li>each condition of route {@code i} (path prefix on {@code $uri}, {@code $host}, {@code $request_method},
 *       {@code $http_NAME}, {@code $cookie_NAME}, {@code $arg_NAME}) is a map to 1 or 0, {@code $fulcrum_rI_K};</li>
 *   <li>{@code $fulcrum_route} maps the string of every route's result to the index of the first route that holds
 *       (regular expressions in a map are tried in order), or "" for the default pool;</li>
 *   <li>{@code $fulcrum_upstream} maps the route to an upstream, or to a {@code split_clients} variable for a split;</li>
 *   <li>one {@code location /} proxies to {@code $fulcrum_upstream}, and a mirror is {@code mirror} to an internal
 *       location that proxies the copy, or answers 204 at once when this request is not to be copied.</li>
 * </ul>
 */
final class ExportNginxRoutes {
    private ExportNginxRoutes() {
    }

    /** The route copies' upstreams, then the maps and split_clients, all at http level. */
    static void upstreamsAndMaps(Lines out, ExportPlan plan) {
        FulcrumConfig c = plan.config();
        for (ExportPool p : plan.routePools()) {
            out.line("");
            out.comment("a route's own copy of pool " + p.name() + " (its strategy or class ceiling counts apart "
                    + "from the pool's other traffic)");
            ExportNginx.upstreamOf(out, c, p);
        }
        List<RouteConfig> routes = plan.routes();
        out.line("");
        out.comment("routes, in the order Fulcrum tries them; the first that matches wins. Each condition is a map to 1 "
                + "or 0,");
        out.comment("and $fulcrum_route is the index of the first route whose conditions are all 1 (\"\": none, the "
                + "default pool).");
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < routes.size(); i++) {
            RouteConfig r = routes.get(i);
            out.line("");
            out.comment("route " + i + ": " + ExportText.describe(r));
            List<String> conds = conditions(out, r, i);
            String flag;
            if (conds == null) {
                flag = "0";
            } else if (conds.isEmpty()) {
                flag = "1";
            } else if (conds.size() == 1) {
                flag = conds.get(0);
            } else {
                flag = "${fulcrum_r" + i + "}";
                out.line("map \"" + String.join("", conds) + "\" $fulcrum_r" + i + " {");
                out.in().line("\"" + "1".repeat(conds.size()) + "\" 1;").line("default 0;").out();
                out.line("}");
            }
            key.append(flag);
        }
        out.line("");
        out.line("map \"" + key + "\" $fulcrum_route {");
        out.in();
        for (int i = 0; i < routes.size(); i++) {
            out.line("\"~^" + ".".repeat(i) + "1\" " + i + ";");
        }
        out.line("default \"\";");
        out.out().line("}");
        for (int i = 0; i < routes.size(); i++) {
            RouteConfig r = routes.get(i);
            if (r.split() != null) {
                split(out, plan, r, i);
            }
            if (r.mirror() != null) {
                mirrorMaps(out, r.mirror(), i);
            }
        }
        out.line("");
        ExportPool fallback = plan.fallbackPool();
        out.comment("the upstream each route sends to; a split's arm comes from its split_clients");
        out.line("map $fulcrum_route $fulcrum_upstream {");
        out.in();
        for (int i = 0; i < routes.size(); i++) {
            RouteConfig r = routes.get(i);
            out.line(i + " " + (r.split() != null ? "$fulcrum_split_" + i : plan.routePool(i, r.pool()).ident()) + ";");
        }
        out.line("default " + fallback.ident() + ";");
        out.out().line("}");
    }

    /** The condition maps of route {@code i}; their variables, or null when nginx cannot test one of them. */
    private static List<String> conditions(Lines out, RouteConfig r, int i) {
        List<String> vars = new ArrayList<>();
        String prefix = r.prefix();
        if (prefix != null && !prefix.equals("/")) {
            // a prefix matches at a segment boundary: /api and /api/..., not /apix
            String re = "^" + ExportText.regexLiteral(prefix) + (prefix.endsWith("/") ? "" : "(/|$)");
            vars.add(map(out, i, vars.size(), "$uri", "~" + re));
        }
        RouteMatchConfig m = r.match();
        if (m == null) {
            return vars;
        }
        if (m.host() != null) {
            vars.add(map(out, i, vars.size(), "$host", m.host(), true));
        }
        if (m.method() != null && !m.method().isEmpty()) {
            List<String> methods = m.method().stream().map(x -> ExportText.regexLiteral(x.toUpperCase(Locale.ROOT)))
                    .toList();
            vars.add(map(out, i, vars.size(), "$request_method", "~^(" + String.join("|", methods) + ")$"));
        }
        String[][] kinds = {{"header", "$http_"}, {"cookie", "$cookie_"}, {"query", "$arg_"}};
        List<Map<String, MatchValue>> named = new ArrayList<>();
        named.add(m.headers());
        named.add(m.cookies());
        named.add(m.query());
        for (int k = 0; k < 3; k++) {
            if (named.get(k) == null) {
                continue;
            }
            for (Map.Entry<String, MatchValue> e : named.get(k).entrySet()) {
                String name = k == 0 ? e.getKey().toLowerCase(Locale.ROOT).replace('-', '_') : e.getKey();
                if (!name.matches("[A-Za-z0-9_]+")) {
                    out.comment("no equivalent: " + kinds[k][0] + " " + e.getKey() + " is no nginx variable name ("
                            + kinds[k][1] + "NAME takes letters, digits and _); this route never matches here");
                    return null;
                }
                vars.add(map(out, i, vars.size(), kinds[k][1] + name, e.getValue(), false));
            }
        }
        return vars;
    }

    private static String map(Lines out, int route, int k, String source, MatchValue v, boolean ignoreCase) {
        Boolean presence = ExportText.presence(v);
        String var = "$fulcrum_r" + route + "_" + k;
        out.line("map " + source + " " + var + " {");
        out.in();
        if (presence != null) {
            out.comment("nginx cannot tell a missing value from an empty one: both are \"\"");
            out.line("\"\" " + (presence ? 0 : 1) + ";").line("default " + (presence ? 1 : 0) + ";");
        } else {
            String re;
            if (v.exact() != null) {
                re = "^" + ExportText.regexLiteral(v.exact()) + "$";
            } else if (v.prefix() != null) {
                re = "^" + ExportText.regexLiteral(v.prefix());
            } else {
                out.comment("PCRE, found anywhere in the value as in Fulcrum (Java regular expressions; most read alike)");
                re = v.regex();
            }
            // a regular expression even for an exact value: nginx compares plain map strings without case
            out.line(quote((ignoreCase ? "~*" : "~") + re) + " 1;").line("default 0;");
        }
        out.out().line("}");
        return "${" + var.substring(1) + "}";
    }

    private static String map(Lines out, int route, int k, String source, String pattern) {
        String var = "$fulcrum_r" + route + "_" + k;
        out.line("map " + source + " " + var + " {");
        out.in().line(quote(pattern) + " 1;").line("default 0;").out();
        out.line("}");
        return "${" + var.substring(1) + "}";
    }

    private static void split(Lines out, ExportPlan plan, RouteConfig r, int i) {
        out.line("");
        String source = switch (r.stickyBy() == null ? "none" : r.stickyBy().replaceAll(":.*", "")) {
            case "cookie" -> "$cookie_" + r.stickyBy().substring("cookie:".length());
            case "header" -> "$http_" + r.stickyBy().substring("header:".length()).toLowerCase(Locale.ROOT)
                    .replace('-', '_');
            case "ip" -> "$remote_addr";
            default -> "$request_id";
        };
        out.comment("route " + i + "'s split, sticky by " + (r.stickyBy() == null ? "none" : r.stickyBy())
                + ": split_clients hashes the key into consecutive shares in order, as Fulcrum does (MurmurHash2, "
                + "so not the same users per arm as Fulcrum)");
        if (!source.matches("\\$[A-Za-z0-9_]+")) {
            out.comment("no equivalent: " + r.stickyBy() + " is no nginx variable name; every request is assigned at "
                    + "random ($request_id)");
            source = "$request_id";
        }
        String key = source;
        if (!source.equals("$request_id") && !source.equals("$remote_addr")) {
            key = "$fulcrum_split_key_" + i;
            out.comment("a request without the key is assigned at random, as in Fulcrum");
            out.line("map " + source + " " + key + " {");
            out.in().line("\"\"      $request_id;").line("default " + source + ";").out();
            out.line("}");
        }
        if (r.guard() != null) {
            out.comment("no equivalent: the guard on " + r.guard().arm() + " (error rate or p99 against the first arm); "
                    + "nginx cannot watch an arm: roll back by setting its share to 0% here and reloading");
        }
        List<SplitArmConfig> arms = r.split();
        long total = arms.stream().mapToLong(SplitArmConfig::weight).sum();
        int last = -1;
        for (int a = 0; a < arms.size(); a++) {
            if (arms.get(a).weight() > 0) {
                last = a;
            }
        }
        out.line("split_clients \"${" + key.substring(1) + "}\" $fulcrum_split_" + i + " {");
        out.in();
        long cum = 0;
        for (int a = 0; a < arms.size(); a++) {
            SplitArmConfig arm = arms.get(a);
            String ident = plan.routePool(i, arm.pool()).ident();
            long from = Math.round(cum * 10_000.0 / total);
            cum += arm.weight();
            long to = Math.round(cum * 10_000.0 / total);
            if (arm.weight() == 0) {
                out.comment(arm.pool() + ": weight 0, no requests");
            } else if (a == last) {
                out.line("* " + ident + ";  # " + arm.pool() + " weight " + arm.weight());
            } else if (to == from) {
                out.comment(arm.pool() + ": weight " + arm.weight() + " is under 0.01%, nginx's smallest share");
            } else {
                out.line(String.format(Locale.ROOT, "%d.%02d%% %s;  # %s weight %d", (to - from) / 100,
                        (to - from) % 100, ident, arm.pool(), arm.weight()));
            }
        }
        out.out().line("}");
    }

    private static void mirrorMaps(Lines out, MirrorConfig m, int i) {
        out.line("");
        out.comment("route " + i + "'s mirror: " + ExportText.number(m.percent()) + "% of its requests copied to pool "
                + m.pool() + "; $fulcrum_mirror_" + i + " is 1 for a request to copy");
        long bp = Math.round(m.percent() * 100);
        if (bp >= 10_000) {
            out.line("map $fulcrum_route $fulcrum_mirror_" + i + " {");
            out.in().line(i + " 1;").line("default 0;").out().line("}");
            return;
        }
        out.comment("nginx's mirror copies every request: split_clients on $request_id draws the share (to 0.01%)");
        out.line("split_clients \"${request_id}\" $fulcrum_mirror_sample_" + i + " {");
        out.in();
        if (bp > 0) {
            out.line(String.format(Locale.ROOT, "%d.%02d%% 1;", bp / 100, bp % 100));
        }
        out.line("* 0;").out().line("}");
        out.line("map \"${fulcrum_route}:${fulcrum_mirror_sample_" + i + "}\" $fulcrum_mirror_" + i + " {");
        out.in().line("\"" + i + ":1\" 1;").line("default 0;").out().line("}");
    }

    /** Inside the server block: the route pinned, prefixes stripped, one location and the mirrors' locations. */
    static void locations(Lines out, ExportPlan plan, List<String> proxyHeaders) {
        List<RouteConfig> routes = plan.routes();
        out.line("");
        out.comment("read $fulcrum_route once, before a rewrite below changes $uri: nginx keeps a map's value for the "
                + "request, and a mirror's subrequest shares it");
        out.line("set $fulcrum_chosen $fulcrum_route;");
        for (int i = 0; i < routes.size(); i++) {
            RouteConfig r = routes.get(i);
            if (r.stripPrefix() && r.prefix() != null && !r.prefix().equals("/")) {
                String p = r.prefix();
                String re = "^" + ExportText.regexLiteral(p) + (p.endsWith("/") ? "(.*)$" : "/?(.*)$");
                out.line("if ($fulcrum_route = " + i + ") {");
                out.in().line("rewrite " + quote(re) + " /$1 break;").out();
                out.line("}");
            }
        }
        for (int i = 0; i < routes.size(); i++) {
            RouteConfig r = routes.get(i);
            if (r.maxInFlightPerBackend() != null) {
                out.comment("route " + i + " (class " + (r.routeClass() == null ? "none" : r.routeClass())
                        + "): maxInFlightPerBackend " + r.maxInFlightPerBackend() + " is max_conns on each server of "
                        + "its own upstream copy; no equivalent of the shed: open source nginx counts max_conns per "
                        + "worker (unless the upstream has a zone) and answers 502, not 503 with Retry-After; "
                        + "limit_conn is the nearest per-route limit, counted per client key rather than per backend");
            } else if (r.routeClass() != null) {
                out.comment("route " + i + ": class " + r.routeClass() + " (a label in Fulcrum; nginx has no "
                        + "per-route per-backend ceiling in open source)");
            }
        }
        out.line("");
        out.line("location / {");
        out.in();
        for (int i = 0; i < routes.size(); i++) {
            MirrorConfig m = routes.get(i).mirror();
            if (m != null && plan.pool(m.pool()) != null) {
                out.line("mirror /_fulcrum_mirror_" + i + ";");
            }
        }
        if (routes.stream().anyMatch(r -> r.mirror() != null)) {
            out.comment("no equivalent: maxBodyBytes; nginx mirrors every body (mirror_request_body on) and reads it "
                    + "whole first, and holds the client connection's next request until the copies are answered");
        }
        out.line("proxy_pass http://$fulcrum_upstream;");
        out.out().line("}");
        for (int i = 0; i < routes.size(); i++) {
            MirrorConfig m = routes.get(i).mirror();
            ExportPool to = m == null ? null : plan.pool(m.pool());
            if (to == null) {
                continue;
            }
            out.line("");
            out.comment("route " + i + "'s copies to pool " + m.pool() + ": answered 204 at once unless this request "
                    + "is one to copy; the copy's answer is discarded");
            out.line("location = /_fulcrum_mirror_" + i + " {");
            out.in();
            out.line("internal;");
            out.line("if ($fulcrum_mirror_" + i + " = 0) {");
            out.in().line("return 204;").out().line("}");
            out.comment("a location setting a header inherits none of the server's, so they are repeated");
            proxyHeaders.forEach(out::line);
            out.line("proxy_set_header X-Fulcrum-Mirror 1;");
            out.comment("the path as the client sent it (a stripped prefix is not stripped from the copy)");
            out.line("proxy_pass http://" + to.ident() + "$request_uri;");
            out.out().line("}");
        }
    }

    /** A double-quoted nginx string: backslashes and quotes escaped, as nginx's parser reads them back. */
    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
