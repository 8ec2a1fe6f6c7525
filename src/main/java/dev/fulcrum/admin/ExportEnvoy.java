package dev.fulcrum.admin;

import dev.fulcrum.admin.ExportPlan.ExportPool;
import dev.fulcrum.admin.ExportPlan.ExportServer;
import dev.fulcrum.admin.ExportText.Key;
import dev.fulcrum.admin.ExportText.Lines;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.HealthCheckConfig;
import dev.fulcrum.config.OutlierConfig;
import dev.fulcrum.config.RetryConfig;
import dev.fulcrum.config.RouteConfig;
import dev.fulcrum.engine.BackendState;
import dev.fulcrum.engine.strategy.StrategySpec;

import java.util.List;

import static dev.fulcrum.admin.ExportText.duration;
import static dev.fulcrum.admin.ExportText.yamlString;

/**
 * Writes an {@link ExportPlan} as an Envoy v3 bootstrap with {@code static_resources}: one listener whose HTTP
 * connection manager routes by path prefix, and one cluster per pool.
 *
 * <p>Decisions worth knowing:
 * <ul>
 *   <li>DRAINING, DRAINED and weight-0 members keep their place with {@code health_status: DRAINING} (Envoy sends
 *       them no new requests) and weight 1, because {@code load_balancing_weight} must be at least 1.</li>
 *   <li>Backups go to priority 1, primaries to priority 0: Envoy fails over to priority 1 as priority 0 loses healthy
 *       members (gradually, through its overprovisioning factor 1.4, where Fulcrum switches at once).</li>
 *   <li>A hashing key becomes a route {@code hash_policy} marked {@code terminal}, followed by the client address:
 *       Envoy uses the first policy that yields a hash, so a request without the key hashes its source IP, as Fulcrum
 *       does (docs/REFERENCE.md §2.2).</li>
 *   <li>Routes that match on more than a path prefix, split, mirror or carry a strategy are written by
 *       {@link ExportEnvoyRoutes} (header and query matchers, {@code weighted_clusters},
 *       {@code request_mirror_policies}).</li>
 *   <li>Read timeout: Envoy's route {@code timeout} bounds the whole response, which would cut server-sent events,
 *       so it is off ({@code 0s}) and {@code idle_timeout} carries Fulcrum's readMs.</li>
 * </ul>
 */
final class ExportEnvoy {
    /** Envoy's largest ring (its default maximum_ring_size). */
    static final long MAX_RING = 8_388_608;

    private ExportEnvoy() {
    }

    static String write(ExportPlan plan) {
        FulcrumConfig c = plan.config();
        Lines out = new Lines("  ");
        out.comment("Envoy configuration exported by Fulcrum: each pool is a cluster, each route a route.");
        out.comment("Check it with: envoy --mode validate -c envoy.yaml");
        out.comment("Comments starting with \"no equivalent\" name Fulcrum features Envoy does not have.");
        if (c.circuitBreaker().enabled()) {
            out.comment("no equivalent: Fulcrum's circuit breaker (" + ExportText.number(c.circuitBreaker().failureRateThreshold())
                    + "% failures or slow calls over " + c.circuitBreaker().slowCallMs() + "ms in the last "
                    + c.circuitBreaker().window() + " calls opens it for " + c.circuitBreaker().openMs() + "ms).");
            out.comment("  Envoy's circuit_breakers are concurrency limits (max_connections, max_pending_requests,");
            out.comment("  max_requests), not the same thing; outlier_detection below is the nearest.");
        }
        if (c.stickySession().enabled()) {
            out.comment("no equivalent here: sticky cookie " + c.stickySession().cookie() + " (ttl "
                    + c.stickySession().ttlSeconds() + "s); the nearest is the envoy.filters.http.stateful_session");
            out.comment("  filter with a cookie-based session state, or on hashing clusters a cookie hash_policy with a ttl.");
        }
        out.comment("drainTimeoutMs " + c.proxy().drainTimeoutMs() + ": envoy --drain-time-s "
                + Math.max(1, c.proxy().drainTimeoutMs() / 1000));
        if (c.proxy().ioThreads() > 0) {
            out.comment("ioThreads " + c.proxy().ioThreads() + ": envoy --concurrency " + c.proxy().ioThreads());
        }
        out.line("static_resources:");
        out.in();
        listener(out, plan);
        out.line("clusters:");
        if (plan.pools().isEmpty()) {
            out.line("[]");
        }
        for (ExportPool p : plan.pools()) {
            cluster(out, c, p);
        }
        if (!plan.plainRoutes()) {
            for (ExportPool p : plan.routePools()) {
                out.comment("a route's own copy of pool " + p.name() + " (its strategy counts apart from the pool's "
                        + "other traffic)");
                cluster(out, c, p);
            }
        }
        out.out();
        return out.toString();
    }

    // ---------------------------------------------------------------- listener and routes

    private static void listener(Lines out, ExportPlan plan) {
        FulcrumConfig c = plan.config();
        out.line("listeners:");
        out.line("- name: fulcrum");
        out.in();
        int port = c.proxy().port();
        if (port == 0) {
            out.comment("Fulcrum listens on an OS-chosen port (port 0); 8080 is written instead");
            port = 8080;
        }
        out.line("address:");
        out.in().line("socket_address:").in();
        out.line("address: " + yamlString(c.proxy().host()));
        out.line("port_value: " + port);
        out.out().out();
        if (c.proxy().tls().enabled()) {
            out.comment("TLS on port " + c.proxy().tls().port() + ": add a second listener with a "
                    + "transport_socket envoy.transport_sockets.tls (DownstreamTlsContext)"
                    + (c.proxy().tls().http2() ? " and alpn_protocols [h2, http/1.1]" : ""));
        }
        out.line("filter_chains:");
        out.line("- filters:");
        out.in();
        out.line("- name: envoy.filters.network.http_connection_manager");
        out.in();
        out.line("typed_config:");
        out.in();
        out.line("\"@type\": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager");
        out.line("stat_prefix: fulcrum");
        out.comment("appends the client address to X-Forwarded-For and sets X-Forwarded-Proto, as Fulcrum does");
        out.line("use_remote_address: true");
        out.line("request_headers_timeout: " + duration(c.timeouts().requestHeaderMs()));
        out.comment("maxHeaderBytes " + c.proxy().maxHeaderBytes() + ", in KiB: Envoy answers 431 over it, as Fulcrum does");
        out.line("max_request_headers_kb: " + Math.max(1, (c.proxy().maxHeaderBytes() + 1023) / 1024));
        out.line("common_http_protocol_options:");
        out.in().line("idle_timeout: " + duration(c.timeouts().idleMs())).out();
        out.line("upgrade_configs:");
        out.line("- upgrade_type: websocket");
        out.line("route_config:");
        out.in();
        out.line("name: fulcrum");
        out.line("virtual_hosts:");
        out.line("- name: fulcrum");
        out.in();
        out.line("domains: [\"*\"]");
        out.comment("Fulcrum answers X-Fulcrum-Backend: <id>; Envoy knows the address");
        out.line("response_headers_to_add:");
        out.line("- header:");
        out.in().in().line("key: X-Fulcrum-Backend").line("value: \"%UPSTREAM_REMOTE_ADDRESS%\"").out().out();
        if (!c.proxy().preserveHost()) {
            out.comment("no equivalent here: preserveHost off; Envoy forwards the client's Host (auto_host_rewrite "
                    + "needs a DNS cluster)");
        }
        out.comment("X-Forwarded-Host: route action append_x_forwarded_host: true (Envoy 1.26 and later)");
        out.line("routes:");
        boolean rootRouted = false;
        if (!plan.plainRoutes()) {
            rootRouted = ExportEnvoyRoutes.routes(out, plan);
        }
        for (RouteConfig r : plan.plainRoutes() ? plan.routes() : List.<RouteConfig>of()) {
            ExportPool p = plan.pool(r.pool());
            if (p == null) {
                continue;
            }
            out.comment("route " + r.prefix() + " -> pool " + r.pool() + (r.stripPrefix() ? ", prefix stripped" : ""));
            String prefix = r.prefix();
            String rewrite = r.stripPrefix() && !prefix.equals("/") ? "/" : null;
            if (prefix.equals("/")) {
                rootRouted = true;
                route(out, c, "prefix", "/", rewrite, p);
            } else if (prefix.endsWith("/")) {
                route(out, c, "prefix", prefix, rewrite, p);
            } else {
                // Fulcrum matches a prefix at a segment boundary: /api and /api/..., not /apix
                route(out, c, "path", prefix, rewrite, p);
                route(out, c, "prefix", prefix + "/", rewrite, p);
            }
        }
        if (!rootRouted) {
            ExportPool fallback = plan.fallbackPool();
            if (fallback == null) {
                out.comment("no pool: every request gets 503");
                out.line("- match: {prefix: \"/\"}");
                out.in().line("direct_response: {status: 503}").out();
            } else {
                out.comment("everything else -> pool " + fallback.name());
                route(out, c, "prefix", "/", null, fallback);
            }
        }
        out.out(); // virtual host
        out.out(); // route_config
        out.line("http_filters:");
        out.line("- name: envoy.filters.http.router");
        out.in().line("typed_config:").in()
                .line("\"@type\": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router").out().out();
        out.out(); // typed_config
        out.out(); // filter
        out.out(); // filters
        out.out(); // listener
    }

    private static void route(Lines out, FulcrumConfig c, String matchKind, String path, String rewrite, ExportPool p) {
        out.line("- match:");
        out.in().in().line(matchKind + ": " + yamlString(path)).out();
        out.line("route:");
        out.in();
        out.line("cluster: " + yamlString(p.ident()));
        if (rewrite != null) {
            out.line("prefix_rewrite: " + yamlString(rewrite));
        }
        out.comment("readMs " + c.timeouts().readMs() + " as the idle time between upstream reads; no total timeout "
                + "(streams stay open)");
        out.line("timeout: 0s");
        out.line("idle_timeout: " + duration(c.timeouts().readMs()));
        retryPolicy(out, c.retries());
        hashPolicy(out, p);
        out.out();
        out.out();
    }

    static void retryPolicy(Lines out, RetryConfig r) {
        if (r.maxRetries() <= 0) {
            return;
        }
        out.comment("at most " + r.maxRetries() + " retries, each on a host not tried yet");
        out.line("retry_policy:");
        out.in();
        out.line("retry_on: \"connect-failure,refused-stream,reset\"");
        out.line("num_retries: " + r.maxRetries());
        out.line("retry_host_predicate:");
        out.line("- name: envoy.retry_host_predicates.previous_hosts");
        out.in().line("typed_config:").in()
                .line("\"@type\": type.googleapis.com/envoy.extensions.retry.host.previous_hosts.v3.PreviousHostsPredicate")
                .out().out();
        out.line("host_selection_retry_max_attempts: 3");
        if (!r.retryNonIdempotent()) {
            out.comment("only GET, HEAD and OPTIONS are retried, as in Fulcrum");
            out.line("retriable_request_headers:");
            out.line("- name: \":method\"");
            out.in().line("string_match:").in().line("safe_regex:").in().line("regex: \"GET|HEAD|OPTIONS\"")
                    .out().out().out();
        }
        out.out();
    }

    static void hashPolicy(Lines out, ExportPool p) {
        String type = p.strategy().type();
        boolean hashing = StrategySpec.CONSISTENT_HASH.equals(type) || StrategySpec.MAGLEV.equals(type)
                || StrategySpec.IP_HASH.equals(type);
        if (!hashing) {
            return;
        }
        Key key = StrategySpec.IP_HASH.equals(type) ? Key.parse("ip") : Key.parse(p.strategy().key());
        out.comment("hash on " + key + (key.isIp() ? "" : ", or the client address when the request has none"));
        out.line("hash_policy:");
        switch (key.kind()) {
            case "path" -> hashItem(out, "header", "header_name: \":path\"");
            case "header" -> hashItem(out, "header", "header_name: " + yamlString(key.name()));
            case "cookie" -> hashItem(out, "cookie", "name: " + yamlString(key.name()));
            case "query" -> hashItem(out, "query_parameter", "name: " + yamlString(key.name()));
            default -> {
            }
        }
        out.line("- connection_properties:");
        out.in().in().line("source_ip: true").out().out();
    }

    static void hashItem(Lines out, String kind, String field) {
        out.line("- " + kind + ":");
        out.in().in().line(field).out();
        out.line("terminal: true");
        out.out();
    }

    // ---------------------------------------------------------------- clusters

    static void cluster(Lines out, FulcrumConfig c, ExportPool p) {
        StrategySpec s = p.strategy();
        List<ExportServer> live = p.servers();
        out.line("- name: " + yamlString(p.ident()));
        out.in();
        out.comment("pool " + p.name() + ": strategy " + s.type());
        boolean allIps = live.stream().allMatch(ExportServer::hostIsIp);
        out.line("type: " + (allIps ? "STATIC" : "STRICT_DNS"));
        out.line("connect_timeout: " + duration(c.timeouts().connectMs()));
        String slowStart = c.slowStartMs() > 0 ? duration(c.slowStartMs()) : null;
        switch (s.type()) {
            case StrategySpec.ROUND_ROBIN, StrategySpec.SMOOTH_WRR -> {
                if (StrategySpec.ROUND_ROBIN.equals(s.type())) {
                    out.comment("round-robin: Fulcrum's ignores weights, so every endpoint has weight 1");
                } else {
                    out.comment("smooth-weighted-round-robin: Envoy's weighted round robin (earliest deadline first)");
                }
                out.line("lb_policy: ROUND_ROBIN");
                if (slowStart != null) {
                    out.line("round_robin_lb_config:");
                    slowStart(out, slowStart);
                }
            }
            case StrategySpec.RANDOM, StrategySpec.WEIGHTED_RANDOM -> {
                if (StrategySpec.WEIGHTED_RANDOM.equals(s.type())) {
                    out.comment("weighted-random: the weights are load_balancing_weight below");
                } else {
                    out.comment("random: uniform, so every endpoint has weight 1");
                }
                out.line("lb_policy: RANDOM");
                slowStartMissing(out, slowStart, "RANDOM");
            }
            case StrategySpec.LEAST_REQUESTS, StrategySpec.POWER_OF_TWO, StrategySpec.FASTEST_RESPONSE,
                 StrategySpec.ADAPTIVE, StrategySpec.SCORE -> {
                int choices;
                if (StrategySpec.POWER_OF_TWO.equals(s.type())) {
                    choices = s.integer("choices") == null ? 2 : s.integer("choices");
                } else {
                    choices = Math.max(2, live.size());
                    if (StrategySpec.LEAST_REQUESTS.equals(s.type())) {
                        out.comment("least-requests: one draw per endpoint approximates a full scan (newer Envoy: "
                                + "selection_method: FULL_SCAN); with unequal weights Envoy divides by weight, as Fulcrum does");
                    } else if (StrategySpec.FASTEST_RESPONSE.equals(s.type())) {
                        out.comment("no equivalent: fastest-response (peak-EWMA latency x in-flight); LEAST_REQUEST "
                                + "is the nearest");
                    } else if (StrategySpec.SCORE.equals(s.type())) {
                        out.comment("no equivalent: score (a formula over each backend's figures: " + s.option("score")
                                + "); LEAST_REQUEST is the nearest");
                    } else {
                        out.comment("no equivalent: adaptive (score from backend metrics); LEAST_REQUEST is the "
                                + "nearest (CLIENT_SIDE_WEIGHTED_ROUND_ROBIN with ORCA load reports is closer)");
                    }
                }
                out.line("lb_policy: LEAST_REQUEST");
                out.line("least_request_lb_config:");
                out.in().line("choice_count: " + choices).out();
                if (slowStart != null) {
                    slowStart(out, slowStart);
                }
            }
            case StrategySpec.CONSISTENT_HASH, StrategySpec.IP_HASH -> {
                long ring;
                if (StrategySpec.IP_HASH.equals(s.type())) {
                    out.comment("ip-hash: a ring hash on the client address (route hash_policy source_ip)");
                    ring = 1024;
                } else {
                    ring = (long) (s.integer("virtualNodes") == null ? 160 : s.integer("virtualNodes")) * Math.max(1, live.size());
                    out.comment("consistent-hash: " + s.integer("virtualNodes") + " virtual nodes x " + live.size()
                            + " backends" + (ring > MAX_RING ? ", capped at Envoy's largest ring" : ""));
                }
                out.line("lb_policy: RING_HASH");
                out.line("ring_hash_lb_config:");
                out.in().line("minimum_ring_size: " + Math.min(ring, MAX_RING)).out();
                balanceFactor(out, s);
                slowStartMissing(out, slowStart, "RING_HASH");
            }
            case StrategySpec.MAGLEV -> {
                out.line("lb_policy: MAGLEV");
                out.line("maglev_lb_config:");
                out.in().line("table_size: " + (s.integer("tableSize") == null ? 65537 : s.integer("tableSize"))).out();
                slowStartMissing(out, slowStart, "MAGLEV");
            }
            default -> {
                out.comment("no equivalent: strategy " + s.type() + "; ROUND_ROBIN is used");
                out.line("lb_policy: ROUND_ROBIN");
            }
        }
        if (live.stream().anyMatch(m -> m.maxInFlight() != null)) {
            out.comment("no equivalent: per-backend maxInFlight; Envoy's circuit_breakers max_requests caps the "
                    + "whole cluster");
        }
        loadAssignment(out, p);
        HealthCheckConfig h = c.healthCheck();
        if (h.enabled()) {
            out.line("health_checks:");
            out.line("- timeout: " + duration(h.timeoutMs()));
            out.in();
            out.line("interval: " + duration(h.intervalMs()));
            out.line("healthy_threshold: " + h.rise());
            out.line("unhealthy_threshold: " + h.fall());
            out.line("http_health_check:");
            out.in();
            out.line("path: " + yamlString(h.path()));
            out.line("expected_statuses:");
            out.line("- start: " + h.expectedStatus());
            out.in().line("end: " + (h.expectedStatus() + 1)).out();
            out.out();
            out.out();
        }
        OutlierConfig o = c.outlierDetection();
        if (o.enabled()) {
            out.line("outlier_detection:");
            out.in();
            out.line("consecutive_5xx: " + o.consecutiveFailures());
            out.line("base_ejection_time: " + duration(o.baseEjectionMs()));
            out.line("max_ejection_percent: " + o.maxEjectionPercent());
            out.out();
        }
        out.out();
    }

    private static void slowStart(Lines out, String window) {
        out.in().line("slow_start_config:").in().line("slow_start_window: " + window).out().out();
    }

    private static void slowStartMissing(Lines out, String slowStart, String policy) {
        if (slowStart != null) {
            out.comment("no equivalent: slow start (" + slowStart + "); Envoy has it only for ROUND_ROBIN and "
                    + "LEAST_REQUEST, not " + policy);
        }
    }

    private static void balanceFactor(Lines out, StrategySpec s) {
        if (s.number("balanceFactor") != null) {
            out.comment("bounded loads: balanceFactor " + s.number("balanceFactor") + " x 100");
            out.line("common_lb_config:");
            out.in().line("consistent_hashing_lb_config:").in()
                    .line("hash_balance_factor: " + Math.round(s.number("balanceFactor") * 100)).out().out();
        }
    }

    private static void loadAssignment(Lines out, ExportPool p) {
        out.line("load_assignment:");
        out.in();
        out.line("cluster_name: " + yamlString(p.ident()));
        List<ExportServer> primaries = p.primaries();
        List<ExportServer> backups = p.backups();
        if (primaries.isEmpty() && backups.isEmpty()) {
            out.line("endpoints: []");
            out.out();
            return;
        }
        out.line("endpoints:");
        int priority = 0;
        if (!primaries.isEmpty()) {
            locality(out, p, primaries, priority++);
        }
        if (!backups.isEmpty()) {
            out.comment("backups: used as the higher priority loses healthy endpoints");
            locality(out, p, backups, priority);
        }
        out.out();
    }

    private static void locality(Lines out, ExportPool p, List<ExportServer> servers, int priority) {
        out.line("- priority: " + priority);
        out.in();
        out.line("lb_endpoints:");
        for (ExportServer m : servers) {
            out.line("- endpoint:  # backend " + m.id() + note(m));
            out.in().in();
            out.line("address:");
            out.in().line("socket_address:").in();
            out.line("address: " + yamlString(m.host()));
            out.line("port_value: " + m.port());
            out.out().out();
            out.out();
            int w = m.takesNoTraffic() || p.ignoresWeights() ? 1 : m.weight();
            out.line("load_balancing_weight: " + w);
            if (m.takesNoTraffic()) {
                out.line("health_status: DRAINING");
            }
            out.out();
        }
        out.out();
    }

    private static String note(ExportServer m) {
        if (m.state() == BackendState.UP) {
            return m.weight() == 0 ? " (weight 0 in Fulcrum)" : "";
        }
        return " (" + m.state() + " in Fulcrum at export time)";
    }
}
