package dev.fulcrum.admin;

import dev.fulcrum.admin.ExportPlan.ExportPool;
import dev.fulcrum.admin.ExportPlan.ExportServer;
import dev.fulcrum.admin.ExportText.Key;
import dev.fulcrum.admin.ExportText.Lines;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.OutlierConfig;
import dev.fulcrum.config.RouteConfig;
import dev.fulcrum.engine.strategy.StrategySpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes an {@link ExportPlan} as open source nginx configuration: one {@code map} for WebSocket upgrades, one
 * {@code upstream} per pool and one {@code server} whose {@code location}s are the routes. The text goes inside the
 * {@code http {}} block of an nginx.conf.
 *
 * <p>Decisions worth knowing:
 * <ul>
 *   <li>DRAINING and DRAINED members, and members of weight 0, are written {@code down}. That is what draining means
 *       on an nginx reload: new workers send nothing to a {@code down} server while the old workers finish the
 *       requests they hold, exactly Fulcrum's "no new requests, let in-flight ones finish".</li>
 *   <li>Strategies that ignore weights in Fulcrum (round-robin, random) are written without {@code weight=}, because
 *       nginx would honour it.</li>
 *   <li>A hashing key other than the client IP goes through a {@code map} that falls back to {@code $remote_addr}
 *       when the key is empty, as Fulcrum does (docs/REFERENCE.md §2.2).</li>
 *   <li>nginx refuses {@code backup} with {@code hash}, {@code ip_hash} and {@code random}; for those strategies the
 *       backups are written as commented-out servers.</li>
 *   <li>Active health checks, slow start and cookie insertion are nginx Plus features: they are comments.</li>
 *   <li>Routes that match on more than a path prefix, split, mirror or carry a strategy or a class ceiling are
 *       written by {@link ExportNginxRoutes} (maps, {@code split_clients}, {@code mirror}); a config whose routes are
 *       all plain prefixes is written exactly as before such routes existed.</li>
 *   <li>The upstream {@code Connection} header is {@code ""} (keep-alive to the backends, with {@code keepalive 64})
 *       except on an upgrade request, where a {@code map} makes it {@code upgrade} so WebSocket passes through as it
 *       does in Fulcrum.</li>
 * </ul>
 */
final class ExportNginx {
    private ExportNginx() {
    }

    static String write(ExportPlan plan) {
        FulcrumConfig c = plan.config();
        Lines out = new Lines("    ");
        out.comment("nginx configuration exported by Fulcrum: each pool is an upstream, each route a location.");
        out.comment("Put it inside the http { } block of nginx.conf, then run: nginx -t && nginx -s reload");
        out.comment("Lines starting with \"no equivalent\" name Fulcrum features open source nginx does not have.");
        out.line("");
        policyComments(out, c);
        out.line("");
        out.comment("WebSocket and other HTTP/1.1 upgrades pass through; other requests keep upstream connections alive");
        out.line("map $http_upgrade $fulcrum_connection {");
        out.in().line("default upgrade;").line("\"\"      \"\";").out();
        out.line("}");
        for (ExportPool p : plan.pools()) {
            out.line("");
            upstream(out, c, p);
        }
        if (!plan.plainRoutes()) {
            ExportNginxRoutes.upstreamsAndMaps(out, plan);
        }
        out.line("");
        server(out, plan);
        return out.toString();
    }

    private static void policyComments(Lines out, FulcrumConfig c) {
        if (c.healthCheck().enabled()) {
            out.comment("no equivalent: active health check GET " + c.healthCheck().path() + " every "
                    + c.healthCheck().intervalMs() + "ms (timeout " + c.healthCheck().timeoutMs() + "ms, expect "
                    + c.healthCheck().expectedStatus() + ", rise " + c.healthCheck().rise() + ", fall "
                    + c.healthCheck().fall() + ") is nginx Plus only (health_check);");
            out.comment("  open source nginx marks a server failed from real traffic: max_fails / fail_timeout below.");
        }
        OutlierConfig o = c.outlierDetection();
        if (o.enabled()) {
            out.comment("outlier detection: " + o.consecutiveFailures() + " failures -> max_fails="
                    + o.consecutiveFailures() + ", ejection " + o.baseEjectionMs() + "ms -> fail_timeout="
                    + ExportText.time(o.baseEjectionMs()) + " (nginx counts failures within fail_timeout, not in a row);");
            out.comment("  no equivalent: maxEjectionPercent " + o.maxEjectionPercent()
                    + " (nginx may mark every server failed) and the growing ejection time.");
        } else {
            out.comment("outlier detection is off: max_fails=0 turns off nginx's failure accounting.");
        }
        if (c.circuitBreaker().enabled()) {
            out.comment("no equivalent: circuit breaker (" + ExportText.number(c.circuitBreaker().failureRateThreshold())
                    + "% failures or " + ExportText.number(c.circuitBreaker().slowCallRateThreshold()) + "% calls over "
                    + c.circuitBreaker().slowCallMs() + "ms in the last " + c.circuitBreaker().window()
                    + " calls opens it for " + c.circuitBreaker().openMs() + "ms).");
        }
        if (c.slowStartMs() > 0) {
            out.comment("no equivalent: slow start over " + c.slowStartMs() + "ms; \"server ... slow_start="
                    + ExportText.time(c.slowStartMs()) + "\" is nginx Plus only.");
        }
        if (c.stickySession().enabled()) {
            String cookie = c.stickySession().cookie();
            out.comment("no equivalent: sticky session cookie " + cookie + " (ttl " + c.stickySession().ttlSeconds()
                    + "s): open source nginx cannot insert a cookie (\"sticky cookie\" is nginx Plus);");
            out.comment("  the nearest is \"hash $cookie_" + cookie + " consistent;\" when the application sets that cookie.");
        }
        if (c.proxy().tls().enabled()) {
            out.comment("TLS: add to the server block \"listen " + c.proxy().tls().port() + " ssl"
                    + (c.proxy().tls().http2() ? "; http2 on" : "") + ";\" with ssl_certificate "
                    + (c.proxy().tls().certificate() == null ? "(Fulcrum's self-signed one)" : c.proxy().tls().certificate())
                    + " and ssl_certificate_key "
                    + (c.proxy().tls().privateKey() == null ? "(its key)" : c.proxy().tls().privateKey()) + ".");
        }
        if (c.proxy().tls().http2()) {
            out.comment("h2c: Fulcrum's plain port takes HTTP/2 without TLS too (prior knowledge, Upgrade: h2c); nginx "
                    + "1.25.1 and later take it beside HTTP/1.1");
            out.comment("  with \"http2 on;\" in the server block (prior knowledge only); an older nginx's \"listen "
                    + "... http2\" takes HTTP/2 alone.");
        }
        out.comment("drainTimeoutMs " + c.proxy().drainTimeoutMs() + ": main context \"worker_shutdown_timeout "
                + ExportText.time(c.proxy().drainTimeoutMs()) + ";\" bounds how long old workers finish requests.");
        if (c.proxy().ioThreads() > 0) {
            out.comment("ioThreads " + c.proxy().ioThreads() + ": main context \"worker_processes " + c.proxy().ioThreads() + ";\"");
        }
    }

    // ---------------------------------------------------------------- upstream

    private static void upstream(Lines out, FulcrumConfig c, ExportPool p) {
        StrategySpec s = p.strategy();
        String type = s.type();
        List<String> notes = new ArrayList<>();
        String method = null;
        boolean backupAllowed = true;
        String hashVar = null;
        switch (type) {
            case StrategySpec.ROUND_ROBIN -> notes.add("round-robin: nginx's default; Fulcrum's round-robin ignores "
                    + "weights, so every server keeps nginx's default weight 1");
            case StrategySpec.SMOOTH_WRR -> notes.add("smooth-weighted-round-robin: nginx's default method IS smooth "
                    + "weighted round robin");
            case StrategySpec.RANDOM -> {
                method = "random;";
                backupAllowed = false;
                notes.add("random: uniform like Fulcrum's, so every server keeps nginx's default weight 1");
            }
            case StrategySpec.WEIGHTED_RANDOM -> {
                method = "random;";
                backupAllowed = false;
                notes.add("weighted-random: nginx's random honours weight=");
            }
            case StrategySpec.LEAST_REQUESTS -> {
                method = "least_conn;";
                notes.add("least-requests: least_conn picks the fewest active connections per unit of weight");
            }
            case StrategySpec.POWER_OF_TWO -> {
                method = "random two least_conn;";
                backupAllowed = false;
                if (s.integer("choices") != null && s.integer("choices") != 2) {
                    notes.add("no equivalent: choices=" + s.integer("choices") + "; nginx's random draws exactly two");
                }
            }
            case StrategySpec.CONSISTENT_HASH, StrategySpec.MAGLEV -> {
                hashVar = hashVariable(out, p, Key.parse(s.key()), notes);
                method = "hash " + hashVar + " consistent;";
                backupAllowed = false;
                if (StrategySpec.MAGLEV.equals(type)) {
                    notes.add("no equivalent: Maglev lookup table (tableSize " + s.integer("tableSize") + "); nginx's ketama "
                            + "consistent hash is the nearest (also minimal disruption, less even)");
                } else {
                    notes.add("consistent-hash: nginx's ketama ring has a fixed 160 points per unit of weight (Fulcrum: "
                            + s.integer("virtualNodes") + " virtual nodes per backend)");
                    if (s.number("balanceFactor") != null) {
                        notes.add("no equivalent: bounded loads (balanceFactor " + s.number("balanceFactor") + ")");
                    }
                }
            }
            case StrategySpec.IP_HASH -> {
                method = "ip_hash;";
                backupAllowed = false;
                notes.add("ip-hash: nginx's ip_hash hashes the first three octets of an IPv4 address");
            }
            case StrategySpec.FASTEST_RESPONSE -> {
                method = "least_conn;";
                notes.add("no equivalent: fastest-response (peak-EWMA latency x in-flight); least_time is nginx Plus "
                        + "only, least_conn is the nearest");
            }
            case StrategySpec.ADAPTIVE -> {
                method = "least_conn;";
                notes.add("no equivalent: adaptive (score from backend cpu/latency/in-flight metrics); least_conn "
                        + "is the nearest");
            }
            case StrategySpec.SCORE -> {
                method = "least_conn;";
                notes.add("no equivalent: score (a formula over each backend's figures: " + s.option("score")
                        + "); least_conn is the nearest");
            }
            default -> notes.add("no equivalent: strategy " + type + "; nginx's default weighted round robin is used");
        }
        out.comment("pool " + p.name() + ": strategy " + type);
        out.line("upstream " + p.ident() + " {");
        out.in();
        for (String n : notes) {
            out.comment(n);
        }
        if (method != null) {
            out.line(method);
        }
        // the balancing method must come before keepalive (nginx docs)
        out.line("keepalive 64;");
        if (p.servers().isEmpty()) {
            out.comment("the pool has no backends; nginx needs one server, so this one is down (nginx answers 502)");
            out.line("server 127.0.0.1:1 down;");
        }
        // a pool of backups only: Fulcrum serves from them while no primary exists; nginx, refusing backup with this
        // method, would be left with no server at all ("no servers are inside upstream"), so they go in as servers
        boolean promote = !backupAllowed && !p.servers().isEmpty() && p.servers().stream().allMatch(ExportServer::backup);
        if (promote) {
            out.comment("every backend is a backup, which nginx refuses with " + method.split(" ")[0].replace(";", "")
                    + "; Fulcrum serves from them while no primary exists, so here they are plain servers");
        }
        for (ExportServer m : p.servers()) {
            String line = "server " + m.address() + params(c, p, m, m.backup() && !promote) + ";";
            String note = "backend " + m.id() + stateNote(m);
            if (m.backup() && !backupAllowed && !promote) {
                out.comment("no equivalent: nginx refuses backup with " + method.split(" ")[0].replace(";", "")
                        + "; backup " + m.id() + " left out:");
                out.comment(line);
            } else {
                out.line(line + "  # " + ExportText.oneLine(note));
            }
        }
        out.out();
        out.line("}");
    }

    private static String params(FulcrumConfig c, ExportPool p, ExportServer m, boolean backup) {
        StringBuilder b = new StringBuilder();
        if (!m.takesNoTraffic() && !p.ignoresWeights() && m.weight() != 1) {
            b.append(" weight=").append(m.weight());
        }
        OutlierConfig o = c.outlierDetection();
        if (o.enabled()) {
            b.append(" max_fails=").append(o.consecutiveFailures()).append(" fail_timeout=")
                    .append(ExportText.time(o.baseEjectionMs()));
        } else {
            b.append(" max_fails=0");
        }
        if (m.maxInFlight() != null) {
            b.append(" max_conns=").append(m.maxInFlight());
        }
        if (backup) {
            b.append(" backup");
        }
        if (m.takesNoTraffic()) {
            b.append(" down");
        }
        return b.toString();
    }

    private static String stateNote(ExportServer m) {
        return switch (m.state()) {
            case DRAINING -> ": DRAINING in Fulcrum (no new requests; nginx finishes in-flight ones on reload)";
            case DRAINED -> ": DRAINED in Fulcrum";
            case DOWN -> ": DOWN in Fulcrum's health check at export time (nginx decides for itself)";
            case EJECTED -> ": EJECTED by Fulcrum's outlier detection at export time (nginx decides for itself)";
            case UP -> m.weight() == 0 ? ": weight 0 in Fulcrum (no new requests)" : "";
        };
    }

    /**
     * The nginx variable a hashing key reads, declaring a {@code map} first when the key can be empty so that an
     * absent key hashes the client address instead (docs/REFERENCE.md §2.2).
     */
    private static String hashVariable(Lines out, ExportPool p, Key key, List<String> notes) {
        String source;
        switch (key.kind()) {
            case "path" -> {
                return "$uri";
            }
            case "header" -> source = "$http_" + key.name().toLowerCase(Locale.ROOT).replace('-', '_');
            case "cookie" -> source = "$cookie_" + key.name();
            case "query" -> source = "$arg_" + key.name();
            default -> {
                return "$remote_addr";
            }
        }
        if (!source.matches("\\$[A-Za-z0-9_]+")) {
            notes.add("no equivalent: key " + key + " is not a valid nginx variable name; hashing the client address");
            return "$remote_addr";
        }
        // the ident may hold '-' and '.', which a variable name cannot; its hex code keeps names apart (a-b, a_b)
        StringBuilder name = new StringBuilder("$fulcrum_hash_");
        for (char ch : p.ident().toCharArray()) {
            if (ch < 128 && (Character.isLetterOrDigit(ch) || ch == '_')) {
                name.append(ch);
            } else {
                name.append("_").append(Integer.toHexString(ch)).append('_');
            }
        }
        String var = name.toString();
        out.comment("pool " + p.name() + ": hash on " + key + ", or the client address when the request has none");
        out.line("map " + source + " " + var + " {");
        out.in().line("\"\"      $remote_addr;").line("default " + source + ";").out();
        out.line("}");
        return var;
    }

    // ---------------------------------------------------------------- server

    private static void server(Lines out, ExportPlan plan) {
        FulcrumConfig c = plan.config();
        out.line("server {");
        out.in();
        int port = c.proxy().port();
        if (port == 0) {
            out.comment("Fulcrum listens on an OS-chosen port (port 0); 8080 is written instead");
            port = 8080;
        }
        String host = c.proxy().host();
        out.line("listen " + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port + ";");
        out.line("client_header_timeout " + ExportText.time(c.timeouts().requestHeaderMs()) + ";");
        out.line("keepalive_timeout " + ExportText.time(c.timeouts().idleMs()) + ";");
        int kb = (int) Math.max(1, (c.proxy().maxHeaderBytes() + 1023) / 1024);
        out.comment("maxHeaderBytes " + c.proxy().maxHeaderBytes() + ": nginx limits each header line to this buffer "
                + "and answers 400/414, not 431");
        out.line("large_client_header_buffers 4 " + kb + "k;");
        out.line("");
        out.comment("inherited by every location below");
        out.line("proxy_http_version 1.1;");
        out.line("proxy_set_header Upgrade $http_upgrade;");
        out.line("proxy_set_header Connection $fulcrum_connection;");
        if (c.proxy().preserveHost()) {
            out.line("proxy_set_header Host $host;");
        } else {
            out.comment("preserveHost is off: nginx sends the upstream name as Host (Fulcrum sends the backend address)");
            out.line("proxy_set_header Host $proxy_host;");
        }
        out.line("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;");
        out.line("proxy_set_header X-Forwarded-Proto $scheme;");
        out.line("proxy_set_header X-Forwarded-Host $host;");
        out.comment("Fulcrum answers X-Fulcrum-Backend: <id>; nginx knows only the address");
        out.line("add_header X-Fulcrum-Backend $upstream_addr always;");
        out.comment("bodies are streamed both ways, as Fulcrum does (server-sent events reach the client at once)");
        out.line("proxy_buffering off;");
        out.line("proxy_request_buffering off;");
        out.line("proxy_connect_timeout " + ExportText.time(c.timeouts().connectMs()) + ";");
        out.line("proxy_read_timeout " + ExportText.time(c.timeouts().readMs()) + ";");
        out.line("proxy_send_timeout " + ExportText.time(c.timeouts().readMs()) + ";");
        int retries = c.retries().maxRetries();
        if (retries > 0) {
            out.comment("retries: at most " + retries + " more tries, each on another server"
                    + (c.retries().retryNonIdempotent() ? ", any method" : "; nginx never retries POST, PATCH or LOCK"));
            out.line("proxy_next_upstream error timeout" + (c.retries().retryNonIdempotent() ? " non_idempotent" : "")
                    + ";");
            out.line("proxy_next_upstream_tries " + (retries + 1) + ";");
        } else {
            out.line("proxy_next_upstream off;");
        }
        if (!plan.plainRoutes()) {
            ExportNginxRoutes.locations(out, plan, proxyHeaders(c));
            out.out();
            out.line("}");
            return;
        }
        boolean rootRouted = false;
        for (RouteConfig r : plan.routes()) {
            ExportPool p = plan.pool(r.pool());
            if (p == null) {
                continue;
            }
            out.line("");
            out.comment("route " + r.prefix() + " -> pool " + r.pool() + (r.stripPrefix() ? ", prefix stripped" : ""));
            String pass = "proxy_pass http://" + p.ident() + (r.stripPrefix() ? "/" : "") + ";";
            String prefix = r.prefix();
            if (prefix.equals("/")) {
                rootRouted = true;
                location(out, "/", pass);
            } else if (prefix.endsWith("/")) {
                location(out, quote(prefix), pass);
            } else {
                // Fulcrum matches a prefix at a segment boundary: /api and /api/..., not /apix
                location(out, "= " + quote(prefix), pass);
                location(out, quote(prefix + "/"), pass);
            }
        }
        if (!rootRouted) {
            out.line("");
            ExportPool fallback = plan.fallbackPool();
            if (fallback == null) {
                out.comment("no pool: every request gets 503");
                location(out, "/", "return 503;");
            } else {
                out.comment("everything else -> pool " + fallback.name());
                location(out, "/", "proxy_pass http://" + fallback.ident() + ";");
            }
        }
        out.out();
        out.line("}");
    }

    /** The proxy_set_header lines of the server block, for a location that sets one more and so inherits none. */
    static List<String> proxyHeaders(FulcrumConfig c) {
        return List.of("proxy_set_header Upgrade $http_upgrade;", "proxy_set_header Connection $fulcrum_connection;",
                c.proxy().preserveHost() ? "proxy_set_header Host $host;" : "proxy_set_header Host $proxy_host;",
                "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
                "proxy_set_header X-Forwarded-Proto $scheme;", "proxy_set_header X-Forwarded-Host $host;");
    }

    /** Writes an upstream block for a pool (also a route's own copy of one). */
    static void upstreamOf(Lines out, FulcrumConfig c, ExportPool p) {
        upstream(out, c, p);
    }

    private static void location(Lines out, String match, String body) {
        out.line("location " + match + " {");
        out.in().line(body).out();
        out.line("}");
    }

    /** A location argument, quoted when it holds anything but the usual path characters. */
    static String quote(String path) {
        if (path.matches("[A-Za-z0-9/_.~%@:+!,=-]+")) {
            return path;
        }
        return "\"" + path.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
