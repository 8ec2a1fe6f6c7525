package dev.fulcrum.config;

import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.routing.StickyKey;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.rules.Limits;
import dev.fulcrum.rules.Violation;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Set;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The meaning checks of a config: ranges, formats, cross references and ids unique across every pool. Every problem
 * is collected, each with its JSON path and value, in the order of the file.
 *
 * <p>Decisions docs/REFERENCE.md leaves open, taken here:
 * <ul>
 *   <li>A config needs at least one backend or demo backend somewhere: in the default pool or in any named pool.
 *       A default pool with none is allowed when a named pool has some (an API-only gateway whose other paths
 *       answer 503), since backends can also be added live through the admin API.</li>
 *   <li>{@code pools} may not define {@code default}: that name is the top-level pool.</li>
 *   <li>A strategy field that its type does not use (e.g. {@code virtualNodes} on {@code round-robin}) is an error,
 *       like an unknown field: it would be silently ignored otherwise.</li>
 *   <li>Two listeners on the same port and overlapping addresses (proxy, TLS, admin, demo backends) are an error,
 *       and so is a backend that points at the proxy's own address (every request would loop).</li>
 *   <li>TLS certificate and key paths are resolved against the working directory and must be given together.</li>
 *   <li>A demo backend may have port 0 (any free port; its real address is known once it listens).</li>
 * </ul>
 */
public final class ConfigValidator {
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9.:\\-\\[\\]%]+");

    private final List<ConfigProblem> problems = new ArrayList<>();

    private ConfigValidator() {
    }

    /** Every problem of a whole config, file checks (TLS files, access log directory) included; empty = valid. */
    public static List<ConfigProblem> validate(FulcrumConfig config) {
        ConfigValidator v = new ConfigValidator();
        v.config(config);
        return List.copyOf(v.problems);
    }

    /** Every problem of one strategy object whose JSON path is {@code path} ({@code ""} for a bare object). */
    public static List<ConfigProblem> validateStrategy(StrategySpec strategy, String path) {
        ConfigValidator v = new ConfigValidator();
        v.strategy(strategy, path);
        return List.copyOf(v.problems);
    }

    /**
     * Every problem of one backend on its own (id, url, weight, maxInFlight, labels); uniqueness needs the whole
     * config.
     */
    public static List<ConfigProblem> validateBackend(BackendConfig backend, String path) {
        ConfigValidator v = new ConfigValidator();
        v.backend(backend, path);
        return List.copyOf(v.problems);
    }

    /**
     * Every problem of a list of backends standing alone (a discovery file): each one's own, and ids unique among
     * them. {@code paths} names each entry, in the same order.
     */
    public static List<ConfigProblem> validateBackends(List<BackendConfig> backends, List<String> paths) {
        ConfigValidator v = new ConfigValidator();
        Map<String, String> firstSeen = new HashMap<>();
        for (int i = 0; i < backends.size(); i++) {
            v.backend(backends.get(i), paths.get(i));
            v.unique(firstSeen, backends.get(i).id(), paths.get(i));
        }
        return List.copyOf(v.problems);
    }

    /** Every problem of one demo backend on its own. */
    public static List<ConfigProblem> validateDemoBackend(DemoBackendConfig demo, String path) {
        ConfigValidator v = new ConfigValidator();
        v.demoBackend(demo, path);
        return List.copyOf(v.problems);
    }

    /** True for {@code localhost}, {@code 127.0.0.0/8} and {@code ::1} written literally (no name lookup). */
    public static boolean isLoopback(String host) {
        if (host == null) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.equals("localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1")
                || h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }

    // ------------------------------------------------------------------------------------------------ sections

    private void config(FulcrumConfig c) {
        proxy(c.proxy());
        admin(c.admin(), c.proxy());
        pool(c.defaultPool(), "");
        healthCheck(c.healthCheck());
        outlier(c.outlierDetection());
        breaker(c.circuitBreaker());
        atLeast(c.retries().maxRetries(), 0, "retries.maxRetries");
        positive(c.timeouts().connectMs(), "timeouts.connectMs");
        positive(c.timeouts().readMs(), "timeouts.readMs");
        positive(c.timeouts().idleMs(), "timeouts.idleMs");
        positive(c.timeouts().requestHeaderMs(), "timeouts.requestHeaderMs");
        atLeast(c.slowStartMs(), 0, "slowStartMs");
        sticky(c.stickySession());
        c.pools().forEach((name, pool) -> {
            String path = ConfigPaths.child("pools", name);
            if (Engine.DEFAULT_POOL.equals(name)) {
                add(path, "is reserved: the top-level strategy, backends and demoBackends form the pool named default",
                        name);
            } else if (Limits.id(name) != null) {
                add(path, "pool name " + Limits.ID_RULE, name);
            }
            pool(pool, path);
        });
        routes(c);
        uniqueIds(c);
        listeners(c);
        selfLoops(c);
        if (c.allPools().values().stream().mapToInt(PoolConfig::size).sum() == 0) {
            add("backends", "at least one backend or demo backend is required (in backends, demoBackends or a pool)",
                    "[]");
        }
    }

    private void proxy(ProxyConfig p) {
        host(p.host(), "proxy.host");
        port(p.port(), "proxy.port");
        atLeast(p.maxHeaderBytes(), 1, "proxy.maxHeaderBytes");
        atLeast(p.drainTimeoutMs(), 0, "proxy.drainTimeoutMs");
        between(p.ioThreads(), 0, 256, "proxy.ioThreads");
        rule(Limits.RECENT_REQUESTS.problem(p.recentRequests()), "proxy.recentRequests", p.recentRequests());
        if (!ProxyConfig.UNDERTOW.equals(p.http1Server()) && !ProxyConfig.FULCRUM.equals(p.http1Server())) {
            add("proxy.http1Server", "must be \"undertow\" or \"fulcrum\"", p.http1Server());
        }
        if (p.accessLog() != null) {
            writableFile(p.accessLog(), "proxy.accessLog");
        }
        TlsConfig t = p.tls();
        port(t.port(), "proxy.tls.port");
        if (t.certificate() != null && t.privateKey() == null) {
            add("proxy.tls.privateKey", "required when proxy.tls.certificate is set", null);
        }
        if (t.privateKey() != null && t.certificate() == null) {
            add("proxy.tls.certificate", "required when proxy.tls.privateKey is set", null);
        }
        if (t.certificate() != null) {
            readableFile(t.certificate(), "proxy.tls.certificate");
        }
        if (t.privateKey() != null) {
            readableFile(t.privateKey(), "proxy.tls.privateKey");
        }
        for (int i = 0; i < t.names().size(); i++) {
            String n = t.names().get(i);
            rule(Limits.certificateName(n), ConfigPaths.index("proxy.tls.names", i), n);
        }
        if (!t.names().isEmpty() && t.certificate() != null) {
            add("proxy.tls.names", "not used with proxy.tls.certificate: names are for the generated certificate",
                    t.names());
        }
    }

    private void admin(AdminConfig a, ProxyConfig p) {
        host(a.host(), "admin.host");
        port(a.port(), "admin.port");
        if (a.token() != null && a.token().isBlank()) {
            add("admin.token", "must not be empty (use null for no token)", '"' + a.token() + '"');
        }
        if (a.token() == null && a.host() != null && !isLoopback(a.host())) {
            add("admin.token", "required when admin.host is not loopback", null);
        }
    }

    private void pool(PoolConfig pool, String prefix) {
        strategy(pool.strategy(), ConfigPaths.child(prefix, "strategy"));
        fallback(pool, prefix);
        for (int i = 0; i < pool.backends().size(); i++) {
            backend(pool.backends().get(i), ConfigPaths.index(ConfigPaths.child(prefix, "backends"), i));
        }
        for (int i = 0; i < pool.demoBackends().size(); i++) {
            demoBackend(pool.demoBackends().get(i), ConfigPaths.index(ConfigPaths.child(prefix, "demoBackends"), i));
        }
        for (int i = 0; i < pool.discovery().size(); i++) {
            discovery(pool.discovery().get(i), ConfigPaths.index(ConfigPaths.child(prefix, "discovery"), i));
        }
    }

    /** A pool's fallback is a built-in strategy, checked as a strategy is; the plugin budget is 1-1000 ms. */
    private void fallback(PoolConfig pool, String prefix) {
        String path = ConfigPaths.child(prefix, "fallback");
        String problem = dev.fulcrum.engine.strategy.Strategies.fallbackProblem(pool.fallback());
        if (problem != null) {
            add(ConfigPaths.child(path, "type"), problem, pool.fallback().type());
        } else {
            strategy(pool.fallback(), path);
        }
        String budget = Limits.pluginBudgetMs(pool.pluginBudgetMs());
        if (budget != null) {
            add(ConfigPaths.child(prefix, "pluginBudgetMs"), budget, pool.pluginBudgetMs());
        }
    }

    private void discovery(DiscoveryConfig d, String path) {
        String type = d.type();
        if (!DiscoveryConfig.TYPES.contains(type)) {
            add(ConfigPaths.child(path, "type"), "unknown discovery type, one of "
                    + String.join(", ", DiscoveryConfig.TYPES), type);
            return;
        }
        if (DiscoveryConfig.DNS.equals(type) || DiscoveryConfig.DNS_SRV.equals(type)) {
            if (d.name() == null || d.name().isBlank() || !d.name().matches("[A-Za-z0-9._-]{1,253}")) {
                add(ConfigPaths.child(path, "name"), "must be a DNS name", d.name());
            }
            if (d.server() != null && !d.server().matches("[A-Za-z0-9.:\\[\\]-]+:\\d{1,5}")) {
                add(ConfigPaths.child(path, "server"), "must be host:port", d.server());
            }
        }
        if (DiscoveryConfig.DNS.equals(type)) {
            if (d.port() < 1 || d.port() > Limits.PORT.max()) {
                add(ConfigPaths.child(path, "port"), "must be between 1 and " + Limits.PORT.max(), d.port());
            }
        } else if (DiscoveryConfig.FILE.equals(type)) {
            if (d.path() == null || d.path().isBlank()) {
                add(ConfigPaths.child(path, "path"), "required for discovery type file", d.path());
            } else {
                java.nio.file.Path parent = java.nio.file.Path.of(d.path()).toAbsolutePath().getParent();
                if (parent == null || !java.nio.file.Files.isDirectory(parent)) {
                    add(ConfigPaths.child(path, "path"), "its folder does not exist", d.path());
                }
            }
        } else if (DiscoveryConfig.ETCD.equals(type)) {
            etcdDiscovery(d, path);
        }
        if (DiscoveryConfig.DNS.equals(type) || DiscoveryConfig.FILE.equals(type)) {
            rule(Limits.weight(d.weight()), ConfigPaths.child(path, "weight"), d.weight());
        }
        notUsed(d, path);
        rule(Limits.DISCOVERY_REFRESH_MS.problem(d.refreshMs()), ConfigPaths.child(path, "refreshMs"), d.refreshMs());
    }

    /** An etcd source: its endpoints, its prefix, TLS files given together and only for https, a user with a password. */
    private void etcdDiscovery(DiscoveryConfig d, String path) {
        String endpoints = ConfigPaths.child(path, "endpoints");
        if (d.endpoints().isEmpty()) {
            add(endpoints, "at least one etcd endpoint is required, e.g. [\"http://127.0.0.1:2379\"]", "[]");
        }
        boolean https = false;
        for (int i = 0; i < d.endpoints().size(); i++) {
            String e = d.endpoints().get(i);
            String problem = etcdEndpoint(e);
            if (problem != null) {
                add(ConfigPaths.index(endpoints, i), problem, e);
            } else {
                https |= e.regionMatches(true, 0, "https:", 0, 6);
            }
        }
        String prefix = ConfigPaths.child(path, "prefix");
        if (d.prefix() == null || d.prefix().isEmpty()) {
            add(prefix, "required for discovery type etcd, e.g. /services/api/", d.prefix());
        } else if (!d.prefix().startsWith("/")) {
            add(prefix, "must start with /", d.prefix());
        } else if (!d.prefix().endsWith("/")) {
            add(prefix, "must end with / (each key under it is a backend, its id the rest of the key)", d.prefix());
        }
        DiscoveryTlsConfig t = d.tls();
        String tls = ConfigPaths.child(path, "tls");
        if (t.cert() != null && t.key() == null) {
            add(ConfigPaths.child(tls, "key"), "required when " + ConfigPaths.child(tls, "cert") + " is set", null);
        }
        if (t.key() != null && t.cert() == null) {
            add(ConfigPaths.child(tls, "cert"), "required when " + ConfigPaths.child(tls, "key") + " is set", null);
        }
        for (String[] f : new String[][] {{"ca", t.ca()}, {"cert", t.cert()}, {"key", t.key()}}) {
            if (f[1] != null) {
                readableFile(f[1], ConfigPaths.child(tls, f[0]));
            }
        }
        if (t.anySet() && !https && !d.endpoints().isEmpty()) {
            add(tls, "needs https:// endpoints (TLS is not used over http://)", d.endpoints().get(0));
        }
        if (d.user() != null && (d.user().isEmpty() || d.user().chars().anyMatch(Character::isISOControl))) {
            add(ConfigPaths.child(path, "user"), "must be an etcd user name", d.user());
        }
        if (d.user() != null && d.password() == null) {
            add(ConfigPaths.child(path, "password"), "required when " + ConfigPaths.child(path, "user") + " is set",
                    null);
        }
        if (d.password() != null && d.user() == null) {
            add(ConfigPaths.child(path, "password"), "not used without " + ConfigPaths.child(path, "user"), "(set)");
        }
    }

    /** An etcd client endpoint, {@code http://HOST:PORT} or {@code https://HOST:PORT}: why it is not, or null. */
    private static String etcdEndpoint(String e) {
        String rule = "must be http://HOST:PORT or https://HOST:PORT";
        if (e == null) {
            return rule;
        }
        URI u;
        try {
            u = new URI(e);
        } catch (java.net.URISyntaxException x) {
            return rule;
        }
        if (!"http".equalsIgnoreCase(u.getScheme()) && !"https".equalsIgnoreCase(u.getScheme())) {
            return rule + " (scheme http or https)";
        }
        if (u.getHost() == null || u.getRawUserInfo() != null) {
            return rule + " with a host";
        }
        if (u.getPort() < 1 || u.getPort() > Limits.PORT.max()) {
            return rule + " with a port between 1 and " + Limits.PORT.max();
        }
        if (!u.getRawPath().isEmpty() || u.getRawQuery() != null || u.getRawFragment() != null) {
            return rule + " with no path, query or fragment (not even a trailing /)";
        }
        return null;
    }

    /**
     * A field that the source's type does not read is an error, not silently ignored: set where it means nothing, it
     * is a typo or a source of another type half-edited.
     */
    private void notUsed(DiscoveryConfig d, String path) {
        String type = d.type();
        boolean dns = DiscoveryConfig.DNS.equals(type);
        boolean srv = DiscoveryConfig.DNS_SRV.equals(type);
        boolean etcd = DiscoveryConfig.ETCD.equals(type);
        String why = "not used by discovery type " + type;
        // dns and file entries are checked as they always were (a stray port or weight on a file entry was never
        // refused, and configs that have one keep loading); the types added beside them are strict
        if ((DiscoveryConfig.FILE.equals(type) || etcd) && d.name() != null) {
            add(ConfigPaths.child(path, "name"), why, d.name());
        }
        if (etcd && d.server() != null) {
            add(ConfigPaths.child(path, "server"), why, d.server());
        }
        if ((srv || etcd) && d.port() != DiscoveryConfig.DEFAULTS.port()) {
            add(ConfigPaths.child(path, "port"), why + (srv ? " (each SRV record names its port)" : ""), d.port());
        }
        if ((srv || etcd) && d.weight() != DiscoveryConfig.DEFAULTS.weight()) {
            add(ConfigPaths.child(path, "weight"), why + (srv ? " (each SRV record gives its weight)"
                    : " (each key's value gives its weight)"), d.weight());
        }
        if (!DiscoveryConfig.FILE.equals(type) && d.path() != null) {
            add(ConfigPaths.child(path, "path"), why, d.path());
        }
        if (!etcd) {
            if (!d.endpoints().isEmpty()) {
                add(ConfigPaths.child(path, "endpoints"), why, d.endpoints());
            }
            if (d.prefix() != null) {
                add(ConfigPaths.child(path, "prefix"), why, d.prefix());
            }
            if (d.tls().anySet()) {
                add(ConfigPaths.child(path, "tls"), why, d.tls());
            }
            if (d.user() != null) {
                add(ConfigPaths.child(path, "user"), why, d.user());
            }
            if (d.password() != null) {
                add(ConfigPaths.child(path, "password"), why, "(set)");
            }
        }
    }

    private void strategy(StrategySpec s, String path) {
        for (Violation v : Strategies.violations(s)) {
            add(ConfigPaths.child(path, v.field()), v.message(), v.value());
        }
    }

    private void backend(BackendConfig b, String path) {
        rule(Limits.id(b.id()), ConfigPaths.child(path, "id"), b.id());
        rule(Limits.url(b.url()), ConfigPaths.child(path, "url"), b.url());
        rule(Limits.weight(b.weight()), ConfigPaths.child(path, "weight"), b.weight());
        rule(Limits.maxInFlight(b.maxInFlight()), ConfigPaths.child(path, "maxInFlight"), b.maxInFlight());
        labels(b.labels(), path);
    }

    /** A backend's or demo backend's labels, each problem at {@code path.labels} or {@code path.labels.NAME}. */
    private void labels(Map<String, String> labels, String path) {
        for (Violation v : Limits.labels(labels)) {
            add(ConfigPaths.child(path, v.field()), v.message(), v.value());
        }
    }

    private void demoBackend(DemoBackendConfig d, String path) {
        rule(Limits.id(d.id()), ConfigPaths.child(path, "id"), d.id());
        port(d.port(), ConfigPaths.child(path, "port"));
        rule(Limits.weight(d.weight()), ConfigPaths.child(path, "weight"), d.weight());
        rule(Limits.demoLatencyMs(d.latencyMs()), ConfigPaths.child(path, "latencyMs"), d.latencyMs());
        rule(Limits.rate(d.errorRate()), ConfigPaths.child(path, "errorRate"), d.errorRate());
        labels(d.labels(), path);
    }

    private void healthCheck(HealthCheckConfig h) {
        if (h.path() == null) {
            add("healthCheck.path", "required", null);
        } else if (!h.path().startsWith("/") || h.path().chars().anyMatch(ch -> ch <= ' ')) {
            add("healthCheck.path", "must start with / and contain no spaces", h.path());
        }
        rule(Limits.HEALTH_CHECK_MS.problem(h.intervalMs()), "healthCheck.intervalMs", h.intervalMs());
        rule(Limits.HEALTH_CHECK_MS.problem(h.timeoutMs()), "healthCheck.timeoutMs", h.timeoutMs());
        between(h.expectedStatus(), 100, 599, "healthCheck.expectedStatus");
        atLeast(h.rise(), 1, "healthCheck.rise");
        atLeast(h.fall(), 1, "healthCheck.fall");
    }

    private void outlier(OutlierConfig o) {
        atLeast(o.consecutiveFailures(), 1, "outlierDetection.consecutiveFailures");
        positive(o.baseEjectionMs(), "outlierDetection.baseEjectionMs");
        between(o.maxEjectionPercent(), 0, 100, "outlierDetection.maxEjectionPercent");
    }

    private void breaker(BreakerConfig b) {
        atLeast(b.window(), 1, "circuitBreaker.window");
        atLeast(b.minimumCalls(), 1, "circuitBreaker.minimumCalls");
        if (b.window() >= 1 && b.minimumCalls() > b.window()) {
            add("circuitBreaker.minimumCalls", "must not exceed circuitBreaker.window (" + b.window()
                    + "), or the breaker could never decide", b.minimumCalls());
        }
        percentage(b.failureRateThreshold(), "circuitBreaker.failureRateThreshold");
        positive(b.slowCallMs(), "circuitBreaker.slowCallMs");
        percentage(b.slowCallRateThreshold(), "circuitBreaker.slowCallRateThreshold");
        positive(b.openMs(), "circuitBreaker.openMs");
        atLeast(b.halfOpenCalls(), 1, "circuitBreaker.halfOpenCalls");
    }

    private void sticky(StickyConfig s) {
        if (s.cookie() == null) {
            add("stickySession.cookie", "required", null);
        } else if (!Limits.TOKEN.matcher(s.cookie()).matches()) {
            add("stickySession.cookie", "must be a cookie name (letters, digits and !#$%&'*+.^_`|~-)", s.cookie());
        }
        positive(s.ttlSeconds(), "stickySession.ttlSeconds");
        if (s.secret() != null && s.secret().length() < 16) {
            // the value itself stays out of the message, as a password would
            add("stickySession.secret", "must be at least 16 characters", s.secret().length() + " characters");
        }
    }

    private void routes(FulcrumConfig c) {
        Map<String, String> seen = new HashMap<>();
        for (int i = 0; i < c.routes().size(); i++) {
            RouteConfig r = c.routes().get(i);
            String path = ConfigPaths.index("routes", i);
            String pp = ConfigPaths.child(path, "pathPrefix");
            RouteMatchConfig m = r.match();
            if (r.pathPrefix() != null && m != null && m.pathPrefix() != null) {
                add(ConfigPaths.child(ConfigPaths.child(path, "match"), "pathPrefix"),
                        "the route's path prefix is given once, here or as routes[" + i + "].pathPrefix",
                        m.pathPrefix());
            }
            String prefix = r.prefix();
            // where the prefix is written: the route's pathPrefix, or its match's
            String prefixPath = r.pathPrefix() != null || m == null ? pp
                    : ConfigPaths.child(ConfigPaths.child(path, "match"), "pathPrefix");
            if (r.pathPrefix() == null && m == null) {
                problems.add(new ConfigProblem(pp, "required", "missing")); // or match, which says where else
            } else if (prefix != null && (!prefix.startsWith("/") || prefix.chars().anyMatch(ch -> ch <= ' '))) {
                add(prefixPath, "must start with / and contain no spaces", prefix);
            } else if (prefix != null && (m == null || m.pathOnly())) {
                // two routes by the same prefix alone: the first takes every request (split or not), the second none
                if (seen.containsKey(prefix)) {
                    add(prefixPath, "duplicate prefix, already routed by " + seen.get(prefix), prefix);
                } else {
                    seen.put(prefix, prefixPath);
                }
            }
            if (m != null) {
                match(m, ConfigPaths.child(path, "match"));
            }
            String poolPath = ConfigPaths.child(path, "pool");
            if (r.split() != null) {
                if (r.pool() != null) {
                    add(poolPath, "give pool or split, not both", r.pool());
                }
                split(c, r, path);
            } else if (r.pool() == null) {
                problems.add(new ConfigProblem(poolPath, "required", "missing")); // or split
            } else {
                poolName(c, r.pool(), poolPath);
            }
            if (r.stickyBy() != null) {
                String sb = ConfigPaths.child(path, "stickyBy");
                if (r.split() == null) {
                    add(sb, "only with a split", r.stickyBy());
                } else {
                    try {
                        StickyKey.parse(r.stickyBy());
                    } catch (IllegalArgumentException e) {
                        add(sb, e.getMessage(), r.stickyBy());
                    }
                }
            }
            if (r.routeClass() != null && !Limits.ROUTE_CLASS.matcher(r.routeClass()).matches()) {
                add(ConfigPaths.child(path, "class"), Limits.ROUTE_CLASS_RULE, r.routeClass());
            }
            if (r.strategy() != null && r.split() != null) {
                // a route's strategy keeps its state over one pool's backends; shared by the arms' pools it would be
                // rebuilt at every change of arm, and each arm's pool has a strategy of its own
                add(ConfigPaths.child(path, "strategy"), "only with pool, not with a split (each arm's pool picks "
                        + "by its own strategy)", r.strategy().type());
            } else if (r.strategy() != null) {
                strategy(r.strategy().withDefaults(), ConfigPaths.child(path, "strategy"));
            }
            if (r.maxInFlightPerBackend() != null) {
                rule(Limits.CLASS_CEILING.problem(r.maxInFlightPerBackend()),
                        ConfigPaths.child(path, "maxInFlightPerBackend"), r.maxInFlightPerBackend());
            }
            if (r.mirror() != null) {
                mirror(c, r, ConfigPaths.child(path, "mirror"));
            }
            if (r.guard() != null) {
                guard(r, ConfigPaths.child(path, "guard"));
            }
        }
    }

    private void poolName(FulcrumConfig c, String pool, String path) {
        if (pool == null) {
            add(path, "required", null);
        } else if (!Engine.DEFAULT_POOL.equals(pool) && !c.pools().containsKey(pool)) {
            List<String> names = new ArrayList<>(c.allPools().keySet());
            add(path, "no such pool, one of " + String.join(", ", names), pool);
        }
    }

    /** A route's {@code match}: names that can be sent, one condition per value, expressions that compile. */
    private void match(RouteMatchConfig m, String path) {
        if (m.host() != null) {
            matchValue(m.host(), ConfigPaths.child(path, "host"));
        }
        if (m.method() != null) {
            for (int i = 0; i < m.method().size(); i++) {
                String v = m.method().get(i);
                if (!Limits.TOKEN.matcher(v).matches()) {
                    add(ConfigPaths.index(ConfigPaths.child(path, "method"), i), "must be a method name such as GET", v);
                }
            }
        }
        named(m.headers(), ConfigPaths.child(path, "headers"), "header");
        named(m.cookies(), ConfigPaths.child(path, "cookies"), "cookie");
        named(m.query(), ConfigPaths.child(path, "query"), "query parameter");
    }

    private void named(Map<String, MatchValue> values, String path, String what) {
        if (values == null) {
            return;
        }
        values.forEach((name, v) -> {
            String at = ConfigPaths.child(path, name);
            if (!what.startsWith("query") && !Limits.TOKEN.matcher(name).matches()) {
                add(at, "must be a " + what + " name (letters, digits and !#$%&'*+.^_`|~-)", name);
            } else if (name.isEmpty()) {
                add(at, "must be a " + what + " name", name);
            }
            matchValue(v, at);
        });
    }

    private void matchValue(MatchValue v, String path) {
        if (v.conditions() != 1) {
            add(path, MatchValue.RULE, v.conditions() == 0 ? "{}" : String.join(" and ", v.given()));
            return;
        }
        if (v.regex() != null) {
            try {
                java.util.regex.Pattern.compile(v.regex());
            } catch (java.util.regex.PatternSyntaxException e) {
                add(ConfigPaths.child(path, "regex"), "is not a regular expression: " + e.getDescription()
                        + (e.getIndex() >= 0 ? " at position " + e.getIndex() : ""), v.regex());
            }
        }
    }

    private void split(FulcrumConfig c, RouteConfig r, String path) {
        String sp = ConfigPaths.child(path, "split");
        if (r.split().size() < 2) {
            add(sp, "needs at least 2 arms", r.split().size());
        }
        Set<String> pools = new HashSet<>();
        int total = 0;
        for (int a = 0; a < r.split().size(); a++) {
            SplitArmConfig arm = r.split().get(a);
            String at = ConfigPaths.index(sp, a);
            poolName(c, arm.pool(), ConfigPaths.child(at, "pool"));
            if (arm.pool() != null && !pools.add(arm.pool())) {
                add(ConfigPaths.child(at, "pool"), "is already an arm of this split", arm.pool());
            }
            rule(Limits.splitWeightProblem(arm.weight()), ConfigPaths.child(at, "weight"), arm.weight());
            total += Math.max(0, arm.weight());
        }
        if (total == 0 && !r.split().isEmpty()) {
            add(sp, "at least one weight must be above 0", "all 0");
        }
    }

    private void mirror(FulcrumConfig c, RouteConfig r, String path) {
        MirrorConfig m = r.mirror();
        poolName(c, m.pool(), ConfigPaths.child(path, "pool"));
        boolean ownPool = m.pool() != null && (m.pool().equals(r.pool())
                || r.split() != null && r.split().stream().anyMatch(a -> m.pool().equals(a.pool())));
        if (ownPool) {
            add(ConfigPaths.child(path, "pool"), "must be a pool the route does not send to", m.pool());
        }
        percentage(m.percent(), ConfigPaths.child(path, "percent"));
        rule(Limits.MIRROR_BODY_BYTES.problem(m.maxBodyBytes()), ConfigPaths.child(path, "maxBodyBytes"),
                m.maxBodyBytes());
    }

    private void guard(RouteConfig r, String path) {
        GuardConfig g = r.guard();
        String armPath = ConfigPaths.child(path, "arm");
        if (r.split() == null) {
            add(path, "only with a split: it judges a split's canary arm against its first", "no split");
        } else if (g.arm() != null) {
            List<String> arms = r.split().stream().map(SplitArmConfig::pool).toList();
            int at = arms.indexOf(g.arm());
            if (at < 0) {
                add(armPath, "must be one of the split's arms, " + String.join(", ", arms.subList(1, arms.size())),
                        g.arm());
            } else if (at == 0) {
                add(armPath, "is the baseline (the split's first arm) the others are judged against; name the "
                        + "canary", g.arm());
            }
        }
        if (g.errorRateAbove() == null && g.p99AboveBaselineBy() == null) {
            add(path, "needs errorRateAbove or p99AboveBaselineBy (or both)", "neither");
        }
        if (g.errorRateAbove() != null && !(g.errorRateAbove() >= 0 && g.errorRateAbove() <= 1)) {
            add(ConfigPaths.child(path, "errorRateAbove"), "must be a fraction between 0 and 1", g.errorRateAbove());
        }
        if (g.p99AboveBaselineBy() != null && !(g.p99AboveBaselineBy() > 0 && g.p99AboveBaselineBy() <= 100)) {
            add(ConfigPaths.child(path, "p99AboveBaselineBy"), "must be a fraction above 0 (0.5: half as slow again), "
                    + "at most 100", g.p99AboveBaselineBy());
        }
        rule(Limits.GUARD_MIN_REQUESTS.problem(g.minRequests()), ConfigPaths.child(path, "minRequests"),
                g.minRequests());
        rule(Limits.GUARD_FOR_MS.problem(g.forMs()), ConfigPaths.child(path, "forMs"), g.forMs());
    }

    private void uniqueIds(FulcrumConfig c) {
        Map<String, String> firstSeen = new HashMap<>();
        c.allPools().forEach((name, pool) -> {
            String prefix = Engine.DEFAULT_POOL.equals(name) ? "" : ConfigPaths.child("pools", name);
            for (int i = 0; i < pool.backends().size(); i++) {
                unique(firstSeen, pool.backends().get(i).id(), ConfigPaths.index(ConfigPaths.child(prefix, "backends"), i));
            }
            for (int i = 0; i < pool.demoBackends().size(); i++) {
                unique(firstSeen, pool.demoBackends().get(i).id(),
                        ConfigPaths.index(ConfigPaths.child(prefix, "demoBackends"), i));
            }
        });
    }

    private void unique(Map<String, String> firstSeen, String id, String entryPath) {
        if (Limits.id(id) != null) {
            return; // already reported as malformed
        }
        String before = firstSeen.putIfAbsent(id, entryPath);
        if (before != null) {
            add(ConfigPaths.child(entryPath, "id"), "duplicate id, already used by " + before, id);
        }
    }

    /** Two listeners on one port whose addresses overlap cannot both start. */
    private void listeners(FulcrumConfig c) {
        record Listener(String path, String host, int port) {
        }
        List<Listener> ls = new ArrayList<>();
        ls.add(new Listener("proxy.port", c.proxy().host(), c.proxy().port()));
        if (c.proxy().tls().enabled()) {
            ls.add(new Listener("proxy.tls.port", c.proxy().host(), c.proxy().tls().port()));
        }
        ls.add(new Listener("admin.port", c.admin().host(), c.admin().port()));
        c.allPools().forEach((name, pool) -> {
            String prefix = Engine.DEFAULT_POOL.equals(name) ? "" : ConfigPaths.child("pools", name);
            for (int i = 0; i < pool.demoBackends().size(); i++) {
                ls.add(new Listener(ConfigPaths.child(ConfigPaths.index(ConfigPaths.child(prefix, "demoBackends"), i),
                        "port"), "127.0.0.1", pool.demoBackends().get(i).port()));
            }
        });
        for (int i = 0; i < ls.size(); i++) {
            Listener l = ls.get(i);
            if (l.port() <= 0 || l.port() > 65535) {
                continue; // 0 picks a free port; out of range is reported already
            }
            for (int j = 0; j < i; j++) {
                Listener e = ls.get(j);
                if (e.port() == l.port() && overlap(e.host(), l.host())) {
                    add(l.path(), "port already used by " + e.path(), l.port());
                    break;
                }
            }
        }
    }

    /** A backend at the proxy's own address would send every request back into the proxy. */
    private void selfLoops(FulcrumConfig c) {
        int proxyPort = c.proxy().port();
        if (proxyPort <= 0) {
            return;
        }
        c.allPools().forEach((name, pool) -> {
            String prefix = Engine.DEFAULT_POOL.equals(name) ? "" : ConfigPaths.child("pools", name);
            for (int i = 0; i < pool.backends().size(); i++) {
                BackendConfig b = pool.backends().get(i);
                if (Limits.url(b.url()) != null) {
                    continue;
                }
                URI u = URI.create(b.url());
                String host = u.getHost();
                String proxyHost = c.proxy().host();
                boolean loops = proxyHost != null && (sameAddress(host, proxyHost)
                        || isWildcard(proxyHost) && (isLoopback(host) || isWildcard(host))
                        || isLoopback(proxyHost) && isWildcard(host));
                if (u.getPort() == proxyPort && loops) {
                    add(ConfigPaths.child(ConfigPaths.index(ConfigPaths.child(prefix, "backends"), i), "url"),
                            "points at the proxy itself (proxy.port " + proxyPort + "), requests would loop", b.url());
                }
            }
        });
    }

    // ------------------------------------------------------------------------------------------------ field rules

    /** Adds {@code problem} (a {@link Limits} check's answer) at {@code path} unless it is null. */
    private void rule(String problem, String path, Object value) {
        if (problem != null) {
            add(path, problem, value);
        }
    }

    private void host(String host, String path) {
        if (host == null || host.isEmpty()) {
            add(path, "required (an address such as 127.0.0.1 or 0.0.0.0)", host == null ? null : "\"\"");
        } else if (!HOST.matcher(host).matches()) {
            add(path, "must be a host name or IP address", host);
        }
    }

    private void port(int port, String path) {
        rule(Limits.port(port), path, port);
    }

    private void between(long value, long min, long max, String path) {
        if (value < min || value > max) {
            add(path, "must be between " + min + " and " + max, value);
        }
    }

    private void atLeast(long value, long min, String path) {
        if (value < min) {
            add(path, "must be at least " + min, value);
        } else {
            notTooLong(value, path);
        }
    }

    private void positive(long value, String path) {
        if (value <= 0) {
            add(path, "must be greater than 0", value);
        } else {
            notTooLong(value, path);
        }
    }

    /** Every {@code *Ms} field is at most {@link Limits#MAX_MS}. */
    private void notTooLong(long value, String path) {
        if (path.endsWith("Ms") && value > Limits.MAX_MS) {
            add(path, Limits.MAX_MS_RULE, value);
        }
    }

    private void percentage(double value, String path) {
        if (!(value >= 0 && value <= 100)) {
            add(path, "must be a percentage between 0 and 100", value);
        }
    }

    private void readableFile(String file, String path) {
        Path p;
        try {
            p = Path.of(file);
        } catch (InvalidPathException e) {
            add(path, "is not a valid file path", file);
            return;
        }
        if (!Files.exists(p)) {
            add(path, "file does not exist: " + p.toAbsolutePath(), file);
        } else if (!Files.isRegularFile(p)) {
            add(path, "is not a regular file: " + p.toAbsolutePath(), file);
        } else if (!Files.isReadable(p)) {
            add(path, "file is not readable: " + p.toAbsolutePath(), file);
        }
    }

    private void writableFile(String file, String path) {
        Path p;
        try {
            p = Path.of(file);
        } catch (InvalidPathException e) {
            add(path, "is not a valid file path", file);
            return;
        }
        if (file.isBlank()) {
            add(path, "must be a file path, or null for standard error", "\"" + file + "\"");
            return;
        }
        Path dir = p.toAbsolutePath().getParent();
        if (Files.isDirectory(p)) {
            add(path, "is a directory, not a file: " + p.toAbsolutePath(), file);
        } else if (dir != null && !Files.isDirectory(dir)) {
            add(path, "directory does not exist: " + dir, file);
        }
    }

    private void add(String path, String message, Object value) {
        problems.add(new ConfigProblem(path, message, ConfigPaths.plain(value)));
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static boolean isWildcard(String host) {
        return host == null || host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]") || host.isEmpty();
    }

    /** Whether two listen addresses can collide: the same address (localhost = 127.0.0.1) or a wildcard. */
    private static boolean overlap(String a, String b) {
        return isWildcard(a) || isWildcard(b) || sameAddress(a, b);
    }

    private static boolean sameAddress(String a, String b) {
        return normal(a).equals(normal(b));
    }

    private static String normal(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.equals("localhost") ? "127.0.0.1" : h.equals("0:0:0:0:0:0:0:1") ? "::1" : h;
    }
}
