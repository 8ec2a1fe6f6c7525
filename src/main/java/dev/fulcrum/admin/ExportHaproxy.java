package dev.fulcrum.admin;

import dev.fulcrum.admin.ExportPlan.ExportPool;
import dev.fulcrum.admin.ExportPlan.ExportServer;
import dev.fulcrum.admin.ExportText.Key;
import dev.fulcrum.admin.ExportText.Lines;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.HealthCheckConfig;
import dev.fulcrum.config.OutlierConfig;
import dev.fulcrum.config.RouteConfig;
import dev.fulcrum.engine.BackendState;
import dev.fulcrum.engine.strategy.StrategySpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes an {@link ExportPlan} as a complete HAProxy configuration: a minimal {@code global} and {@code defaults}, one
 * {@code frontend} whose {@code use_backend} rules are the routes, and one {@code backend} per pool.
 *
 * <p>Decisions worth knowing:
 * <ul>
 *   <li>HAProxy weights run 0..256, Fulcrum's 0..1000: when a pool's largest weight is over 256 every weight is
 *       scaled by 256 / largest (at least 1), and a comment says so.</li>
 *   <li>DRAINING members get {@code weight 0} (HAProxy's own drain: no new requests, sticky users too), DRAINED
 *       members {@code disabled} (maintenance).</li>
 *   <li>Routes are decided before any prefix is stripped: each matching route sets {@code txn.fulcrum_route} (longest
 *       prefix first, first match wins), then the path is rewritten and {@code use_backend} reads the variable, so a
 *       rewrite cannot change which route matched.</li>
 *   <li>Routes that match on more than a path prefix, split or carry a strategy or a class ceiling are written by
 *       {@link ExportHaproxyRoutes}; HAProxy has no request mirror (a comment says so).</li>
 *   <li>Plain random is {@code balance random(1)}: HAProxy's bare {@code random} already draws two.</li>
 *   <li>Outlier detection becomes {@code observe layer7 error-limit N on-error mark-down}: N errors in a row take the
 *       server down until its health check passes {@code rise} times.</li>
 * </ul>
 */
final class ExportHaproxy {
    /** HAProxy's largest server weight. */
    static final int MAX_WEIGHT = 256;
    private static final String ROUTE_VAR = "txn.fulcrum_route";

    private ExportHaproxy() {
    }

    static String write(ExportPlan plan) {
        FulcrumConfig c = plan.config();
        Lines out = new Lines("    ");
        out.comment("HAProxy configuration exported by Fulcrum: each pool is a backend, each route a use_backend rule.");
        out.comment("Check it with: haproxy -c -f haproxy.cfg");
        out.comment("Lines starting with \"no equivalent\" name Fulcrum features HAProxy does not have.");
        out.line("");
        out.line("global");
        out.in();
        out.comment("the runtime API Fulcrum's fleet view talks to (fulcrum --attach haproxy://127.0.0.1:9999):");
        out.comment("stats socket ipv4@127.0.0.1:9999 level admin");
        out.comment("maxHeaderBytes " + c.proxy().maxHeaderBytes() + ": HAProxy bounds a request's headers by "
                + "tune.bufsize (default 16384) and answers 400, not 431");
        out.comment("drainTimeoutMs " + c.proxy().drainTimeoutMs() + ": \"hard-stop-after "
                + ExportText.time(c.proxy().drainTimeoutMs()) + "\" bounds a soft stop");
        if (c.proxy().ioThreads() > 0) {
            out.comment("ioThreads " + c.proxy().ioThreads());
            out.line("nbthread " + c.proxy().ioThreads());
        }
        out.out();
        out.line("");
        defaults(out, c);
        out.line("");
        frontend(out, plan);
        for (ExportPool p : plan.pools()) {
            out.line("");
            backend(out, c, p);
        }
        if (!plan.plainRoutes()) {
            for (ExportPool p : plan.routePools()) {
                out.line("");
                out.comment("a route's own copy of pool " + p.name() + " (its strategy or class ceiling counts apart "
                        + "from the pool's other traffic)");
                backend(out, c, p);
            }
        }
        return out.toString();
    }

    private static void defaults(Lines out, FulcrumConfig c) {
        out.line("defaults");
        out.in();
        out.line("mode http");
        out.line("option http-keep-alive");
        out.line("option forwardfor");
        out.line("timeout connect " + ExportText.time(c.timeouts().connectMs()));
        out.line("timeout server " + ExportText.time(c.timeouts().readMs()));
        out.line("timeout client " + ExportText.time(c.timeouts().idleMs()));
        out.line("timeout http-keep-alive " + ExportText.time(c.timeouts().idleMs()));
        out.line("timeout http-request " + ExportText.time(c.timeouts().requestHeaderMs()));
        out.comment("upgraded connections (WebSocket) stay open while idle up to this");
        out.line("timeout tunnel " + ExportText.time(Math.max(c.timeouts().idleMs(), c.timeouts().readMs())));
        out.comment("a request waiting for a server under maxconn gives up after this (Fulcrum answers 503 at once)");
        out.line("timeout queue " + ExportText.time(c.timeouts().connectMs()));
        int retries = c.retries().maxRetries();
        if (retries > 0) {
            out.comment("retries: at most " + retries + " more tries; \"redispatch 1\" sends every retry to another "
                    + "server. HAProxy retries only failed connections by default (retry-on conn-failure), which is "
                    + "safe for any method" + (c.retries().retryNonIdempotent() ? "" : " (Fulcrum retries only GET, "
                    + "HEAD, OPTIONS)"));
            out.line("retries " + retries);
            out.line("option redispatch 1");
        } else {
            out.comment("retries are off");
            out.line("retries 0");
        }
        if (c.circuitBreaker().enabled()) {
            out.comment("no equivalent: circuit breaker (" + ExportText.number(c.circuitBreaker().failureRateThreshold())
                    + "% failures or slow calls over " + c.circuitBreaker().slowCallMs() + "ms in the last "
                    + c.circuitBreaker().window() + " calls opens it for " + c.circuitBreaker().openMs()
                    + "ms); observe/on-error on the servers is the nearest");
        }
        out.out();
    }

    private static void frontend(Lines out, ExportPlan plan) {
        FulcrumConfig c = plan.config();
        out.line("frontend fulcrum_in");
        out.in();
        int port = c.proxy().port();
        if (port == 0) {
            out.comment("Fulcrum listens on an OS-chosen port (port 0); 8080 is written instead");
            port = 8080;
        }
        String host = c.proxy().host();
        out.line("bind " + (host.indexOf(':') >= 0 ? "ipv6@" + host : host) + ":" + port);
        if (c.proxy().tls().enabled()) {
            out.comment("TLS: bind " + (host.indexOf(':') >= 0 ? "ipv6@" + host : host) + ":" + c.proxy().tls().port()
                    + " ssl crt <certificate and key in one PEM>" + (c.proxy().tls().http2() ? " alpn h2,http/1.1" : ""));
        }
        out.line("http-request set-header X-Forwarded-Proto http");
        out.line("http-request set-header X-Forwarded-Host %[req.hdr(host)]");
        if (!c.proxy().preserveHost()) {
            out.comment("no equivalent: preserveHost off (HAProxy forwards the client's Host header as it is)");
        }
        if (!plan.plainRoutes()) {
            ExportHaproxyRoutes.frontend(out, plan);
            out.out();
            return;
        }
        List<RouteConfig> routes = new ArrayList<>();
        for (RouteConfig r : plan.routes()) {
            if (plan.pool(r.pool()) != null) {
                routes.add(r);
            }
        }
        if (!routes.isEmpty()) {
            out.comment("routes, longest prefix first; the first match wins, as in Fulcrum");
        }
        for (int i = 0; i < routes.size(); i++) {
            String prefix = routes.get(i).prefix();
            if (prefix.endsWith("/")) {
                out.line("acl route_" + i + " path_beg " + quote(prefix));
            } else {
                // a prefix matches at a segment boundary: /api and /api/..., not /apix
                out.line("acl route_" + i + " path " + quote(prefix));
                out.line("acl route_" + i + " path_beg " + quote(prefix + "/"));
            }
        }
        for (int i = 0; i < routes.size(); i++) {
            out.line("http-request set-var(" + ROUTE_VAR + ") int(" + i + ") if route_" + i
                    + (i == 0 ? "" : " !{ var(" + ROUTE_VAR + ") -m found }"));
        }
        for (int i = 0; i < routes.size(); i++) {
            RouteConfig r = routes.get(i);
            if (r.stripPrefix() && !r.prefix().equals("/")) {
                String p = r.prefix();
                String regex = p.endsWith("/") ? "^" + regexQuote(p) + "(.*)" : "^" + regexQuote(p) + "(/|$)(.*)";
                String repl = p.endsWith("/") ? "/\\1" : "/\\2";
                out.line("http-request replace-path " + quote(regex) + " " + quote(repl) + " if { var("
                        + ROUTE_VAR + ") -m int " + i + " }");
            }
        }
        for (int i = 0; i < routes.size(); i++) {
            out.line("use_backend " + plan.pool(routes.get(i).pool()).ident() + " if { var(" + ROUTE_VAR + ") -m int "
                    + i + " }");
        }
        ExportPool fallback = plan.fallbackPool();
        if (fallback != null) {
            out.line("default_backend " + fallback.ident());
        } else {
            out.comment("no pool: every request gets 503");
            out.line("http-request return status 503");
        }
        out.out();
    }

    static void backend(Lines out, FulcrumConfig c, ExportPool p) {
        StrategySpec s = p.strategy();
        List<String> notes = new ArrayList<>();
        List<String> balance = new ArrayList<>();
        switch (s.type()) {
            case StrategySpec.ROUND_ROBIN -> {
                balance.add("balance roundrobin");
                notes.add("round-robin: Fulcrum's ignores weights, so every server keeps HAProxy's weight 1");
            }
            case StrategySpec.SMOOTH_WRR -> {
                balance.add("balance roundrobin");
                notes.add("smooth-weighted-round-robin: HAProxy's weighted roundrobin spreads picks smoothly too");
            }
            case StrategySpec.RANDOM -> {
                balance.add("balance random(1)");
                notes.add("random: one uniform draw, so every server keeps weight 1");
            }
            case StrategySpec.WEIGHTED_RANDOM -> balance.add("balance random(1)");
            case StrategySpec.LEAST_REQUESTS -> balance.add("balance leastconn");
            case StrategySpec.POWER_OF_TWO -> balance.add("balance random(" + (s.integer("choices") == null ? 2 : s.integer("choices"))
                    + ")");
            case StrategySpec.CONSISTENT_HASH, StrategySpec.MAGLEV -> {
                balance.add(hashBalance(Key.parse(s.key()), notes));
                balance.add("hash-type consistent");
                if (StrategySpec.MAGLEV.equals(s.type())) {
                    notes.add("no equivalent: Maglev lookup table (tableSize " + s.integer("tableSize") + "); HAProxy's "
                            + "consistent hash is the nearest");
                } else {
                    notes.add("consistent-hash: HAProxy places weight x 16 points per server on its ring (Fulcrum: "
                            + s.integer("virtualNodes") + " virtual nodes per backend)");
                    if (s.number("balanceFactor") != null) {
                        balance.add("hash-balance-factor " + Math.round(s.number("balanceFactor") * 100));
                    }
                }
            }
            case StrategySpec.IP_HASH -> balance.add("balance source");
            case StrategySpec.FASTEST_RESPONSE -> {
                balance.add("balance leastconn");
                notes.add("no equivalent: fastest-response (peak-EWMA latency x in-flight); leastconn is the nearest");
            }
            case StrategySpec.ADAPTIVE -> {
                balance.add("balance leastconn");
                notes.add("no equivalent: adaptive (score from backend metrics); the nearest is \"agent-check\", "
                        + "where each server reports its own weight");
            }
            case StrategySpec.SCORE -> {
                balance.add("balance leastconn");
                notes.add("no equivalent: score (a formula over each backend's figures: " + s.option("score")
                        + "); leastconn is the nearest, \"agent-check\" lets each server report its own weight");
            }
            default -> {
                balance.add("balance roundrobin");
                notes.add("no equivalent: strategy " + s.type() + "; roundrobin is used");
            }
        }
        int max = 0;
        for (ExportServer m : p.servers()) {
            max = Math.max(max, m.weight());
        }
        boolean scale = !p.ignoresWeights() && max > MAX_WEIGHT;
        if (scale) {
            notes.add("weights scaled by " + MAX_WEIGHT + "/" + max + " (HAProxy weights are 0..256; Fulcrum's 0..1000)");
        }
        out.comment("pool " + p.name() + ": strategy " + s.type());
        out.line("backend " + p.ident());
        out.in();
        for (String n : notes) {
            out.comment(n);
        }
        balance.forEach(out::line);
        HealthCheckConfig h = c.healthCheck();
        if (h.enabled()) {
            out.line("option httpchk GET " + quote(h.path()));
            out.line("http-check expect status " + h.expectedStatus());
            out.line("timeout check " + ExportText.time(h.timeoutMs()));
        }
        OutlierConfig o = c.outlierDetection();
        if (o.enabled()) {
            if (h.enabled()) {
                out.comment("outlier detection: " + o.consecutiveFailures() + " errors in a row mark a server down "
                        + "until its health check passes; no equivalent: ejection time " + o.baseEjectionMs()
                        + "ms, maxEjectionPercent " + o.maxEjectionPercent());
            } else {
                out.comment("no equivalent: outlier detection without health checks (HAProxy needs \"check\" to bring "
                        + "a server back)");
            }
        }
        if (c.stickySession().enabled()) {
            out.line("cookie " + c.stickySession().cookie() + " insert indirect nocache maxlife "
                    + c.stickySession().ttlSeconds() + "s");
        }
        if (c.slowStartMs() > 0) {
            out.comment("slow start: weight ramps up over " + c.slowStartMs() + "ms after a server comes back");
        }
        if (p.servers().stream().anyMatch(m -> m.maxInFlight() != null)) {
            out.comment("maxconn: HAProxy queues a request over a server's maxconn (up to timeout queue) where Fulcrum "
                    + "skips the backend");
        }
        out.line("http-response set-header X-Fulcrum-Backend %s");
        for (ExportServer m : p.servers()) {
            if (m.state() == BackendState.DRAINING) {
                out.comment(m.id() + " is DRAINING in Fulcrum: weight 0 is HAProxy's drain (no new requests)");
            } else if (m.state() == BackendState.DRAINED) {
                out.comment(m.id() + " is DRAINED in Fulcrum: disabled (maintenance)");
            } else if (m.state() == BackendState.DOWN || m.state() == BackendState.EJECTED) {
                out.comment(m.id() + " was " + m.state() + " in Fulcrum at export time; HAProxy's own checks decide");
            }
            out.line(serverLine(c, p, m, scale, max));
        }
        out.out();
    }

    private static String serverLine(FulcrumConfig c, ExportPool p, ExportServer m, boolean scale, int max) {
        StringBuilder b = new StringBuilder("server ").append(m.id()).append(' ')
                .append(m.host().indexOf(':') >= 0 ? "ipv6@" + m.host() : m.host()).append(':').append(m.port());
        int w;
        if (m.state() == BackendState.DRAINING || m.weight() == 0) {
            w = 0;
        } else if (p.ignoresWeights()) {
            w = 1;
        } else if (scale) {
            w = Math.max(1, (int) Math.round(m.weight() * (double) MAX_WEIGHT / max));
        } else {
            w = m.weight();
        }
        b.append(" weight ").append(w);
        HealthCheckConfig h = c.healthCheck();
        if (h.enabled()) {
            b.append(" check inter ").append(ExportText.time(h.intervalMs())).append(" rise ").append(h.rise())
                    .append(" fall ").append(h.fall());
            if (c.outlierDetection().enabled()) {
                b.append(" observe layer7 error-limit ").append(c.outlierDetection().consecutiveFailures())
                        .append(" on-error mark-down");
            }
        }
        if (c.slowStartMs() > 0) {
            b.append(" slowstart ").append(ExportText.time(c.slowStartMs()));
        }
        if (m.maxInFlight() != null) {
            b.append(" maxconn ").append(m.maxInFlight());
        }
        if (c.stickySession().enabled()) {
            b.append(" cookie ").append(m.id());
        }
        if (m.backup()) {
            b.append(" backup");
        }
        if (m.state() == BackendState.DRAINED) {
            b.append(" disabled");
        }
        return b.toString();
    }

    private static String hashBalance(Key key, List<String> notes) {
        if (!"path".equals(key.kind()) && key.name() != null && !key.name().matches("[A-Za-z0-9_.-]+")) {
            // a quote, '#' (a comment: "url_param user#id" would hash on "user"), '(' or ')' cannot stand unquoted in
            // a fetch's argument or balance's parameter; rather than a config that fails or means something else
            notes.add("no equivalent: the key's name " + key.name() + " cannot be written in HAProxy's balance line; "
                    + "balanced by client address");
            return "balance source";
        }
        switch (key.kind()) {
            case "path" -> {
                return "balance uri path-only";
            }
            case "header" -> {
                notes.add("a request without header " + key.name() + " is balanced round robin, not by client address");
                return "balance hdr(" + key.name() + ")";
            }
            case "query" -> {
                notes.add("a request without parameter " + key.name() + " is balanced round robin, not by client address");
                return "balance url_param " + key.name();
            }
            case "cookie" -> {
                notes.add("a request without cookie " + key.name() + " is balanced round robin, not by client address");
                return "balance hash req.cook(" + key.name() + ")";
            }
            default -> {
                return "balance source";
            }
        }
    }

    /** An argument, single-quoted (no escapes, no variables inside) when it holds anything unusual. */
    static String quote(String arg) {
        if (arg.matches("[A-Za-z0-9/_.~%@:+!,=-]+")) {
            return arg;
        }
        if (arg.indexOf('\'') < 0) {
            return "'" + arg + "'";
        }
        return "\"" + arg.replace("\\", "\\\\").replace("\"", "\\\"").replace("$", "\\$") + "\"";
    }

    static String regexQuote(String s) {
        return s.replaceAll("([\\\\.^$|?*+()\\[\\]{}])", "\\\\$1");
    }
}
