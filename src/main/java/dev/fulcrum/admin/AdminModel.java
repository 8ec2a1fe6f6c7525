package dev.fulcrum.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.config.ConfigWriter;
import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.engine.hash.KeySpace;
import dev.fulcrum.engine.KeySpacePreview;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.PoolSnapshot;
import dev.fulcrum.engine.Router;
import dev.fulcrum.engine.routing.ArmStats;
import dev.fulcrum.engine.routing.CanaryGuard;
import dev.fulcrum.engine.routing.Mirror;
import dev.fulcrum.engine.routing.RouteMatch;
import dev.fulcrum.engine.routing.Split;
import dev.fulcrum.engine.routing.ValueMatcher;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.time.SystemClock;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The admin API's answers as plain maps, shared by the HTTP handlers and the in-process
 * {@link EngineClient}, so the window sees exactly what {@code GET /api/state} and {@code /api/ring} say.
 */
public final class AdminModel {
    private AdminModel() {
    }

    private static final long PROCESS_STARTED = ProcessHandle.current().info().startInstant()
            .map(java.time.Instant::toEpochMilli).orElse(SystemClock.currentTimeMillis());

    /**
     * Which engine answers: the process and the engine in it, so a window that sees it change knows the engine was
     * restarted (its counters, backends and history are new) and not only unreachable for a while. Example:
     * {@code "4711-1764632400000-1b6d3586"}: pid, process start (epoch ms), engine.
     */
    static String instance(Engine engine) {
        return ProcessHandle.current().pid() + "-" + PROCESS_STARTED + "-" + Integer.toHexString(System.identityHashCode(engine));
    }

    /** {@code GET /api/state} of the running application: the engine's state and where its config comes from. */
    public static Map<String, Object> state(AdminRuntime runtime) {
        Map<String, Object> out = state(runtime.engine(), runtime.proxyUrl());
        Map<String, Object> source = runtime.configSource();
        if (source != null) {
            out.put("configSource", source);
        }
        return out;
    }

    /** {@code GET /api/state} of an engine alone. */
    public static Map<String, Object> state(Engine engine, String proxyUrl) {
        Map<String, Object> out = new LinkedHashMap<>();
        Pool def = engine.pool(Engine.DEFAULT_POOL);
        out.put("proxy", proxyUrl);
        out.put("instance", instance(engine));
        out.put("requests", requestsJson(engine.answers()));
        out.put("strategy", def == null ? null : strategyJson(def.snapshot().spec()));
        Map<String, Object> pools = new LinkedHashMap<>();
        for (Pool p : engine.pools()) {
            PoolSnapshot s = p.snapshot();
            Map<String, Object> pj = new LinkedHashMap<>();
            pj.put("strategy", strategyJson(s.spec()));
            pj.put("panic", s.panic());
            pj.put("inFlight", p.inFlight());
            // the guard of a plugin strategy (docs/PLUGINS.md): what takes over, and whether it has
            pj.put("fallback", strategyJson(p.fallback()));
            pj.put("pluginBudgetMs", p.pluginBudgetMs());
            pj.put("pluginFailure", p.pluginFailure());
            pj.put("pluginFailures", p.pluginFailures().values().stream().mapToLong(Long::longValue).sum());
            pools.put(p.name(), pj);
        }
        Router router = engine.router();
        mirrorCounts(router).forEach((pool, c) -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> pj = (Map<String, Object>) pools.get(pool);
            if (pj != null) {
                pj.put("mirror", countsJson(c));
            }
        });
        out.put("pools", pools);
        // in the order they are tried, as before; each names its place as written
        List<Map<String, Object>> routes = new ArrayList<>();
        for (Router.Route r : router.routes()) {
            routes.add(route(r));
        }
        out.put("routes", routes);
        Map<String, Backend> live = new LinkedHashMap<>();
        for (Backend b : engine.allBackends()) {
            live.put(b.id(), b);
        }
        Map<String, Map<String, dev.fulcrum.engine.strategy.CandidateScore>> scores = scores(engine);
        List<Map<String, Object>> backends = new ArrayList<>();
        for (BackendView v : engine.backends()) {
            Map<String, Object> b = backendJson(v, live.get(v.id()));
            Map<String, dev.fulcrum.engine.strategy.CandidateScore> ofPool = scores.get(v.pool());
            if (ofPool != null) { // only a pool whose strategy scores: "score" and "scoreFallback"
                dev.fulcrum.engine.strategy.CandidateScore cs = ofPool.get(v.id());
                b.put("score", cs == null || cs.score() == null ? null : round(cs.score()));
                b.put("scoreFallback", cs == null ? null : cs.fallback());
            }
            backends.add(b);
        }
        out.put("backends", backends);
        return out;
    }

    /**
     * Per pool whose strategy scores its candidates (docs/REFERENCE.md §2.2.1), each candidate's score by backend id,
     * primaries and backups alike; pools whose strategy does not score are absent.
     */
    private static Map<String, Map<String, dev.fulcrum.engine.strategy.CandidateScore>> scores(Engine engine) {
        Map<String, Map<String, dev.fulcrum.engine.strategy.CandidateScore>> out = new LinkedHashMap<>();
        for (Pool p : engine.pools()) {
            PoolSnapshot s = p.snapshot();
            for (dev.fulcrum.engine.strategy.Strategy st : new dev.fulcrum.engine.strategy.Strategy[] {s.primary(),
                    s.backup()}) {
                List<dev.fulcrum.engine.strategy.CandidateScore> cs = st == null ? null : st.candidateScores();
                if (cs != null) {
                    Map<String, dev.fulcrum.engine.strategy.CandidateScore> m = out.computeIfAbsent(p.name(),
                            k -> new LinkedHashMap<>());
                    cs.forEach(c -> m.put(c.id(), c));
                }
            }
        }
        return out;
    }

    /**
     * One route as {@code GET /api/state} lists it and the split endpoints answer ({@link EngineState.RouteInfo}):
     * what it matches and sends to, its class, strategy and ceiling, each arm of its split now with its figures over
     * the last minute, its mirror with the copies' counts, its guard with its state, and the requests it shed.
     */
    public static Map<String, Object> route(Router.Route r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("index", r.index());
        m.put("pathPrefix", r.pathPrefix());
        m.put("pool", r.pool());
        m.put("stripPrefix", r.stripPrefix());
        m.put("match", matchJson(r.match()));
        m.put("class", r.routeClass());
        m.put("strategy", r.strategy() == null ? null : strategyJson(r.strategy().spec()));
        m.put("maxInFlightPerBackend", r.ceiling() == null ? null : r.ceiling().max());
        Router.Route.Arms arms = r.arms();
        m.put("split", arms == null ? null : armsJson(arms));
        m.put("stickyBy", arms == null ? null : arms.split().stickyBy().toString());
        Mirror mirror = r.mirror();
        if (mirror == null) {
            m.put("mirror", null);
        } else {
            Map<String, Object> mj = new LinkedHashMap<>();
            mj.put("pool", mirror.pool());
            mj.put("percent", mirror.percent());
            mj.put("maxBodyBytes", mirror.maxBodyBytes());
            mj.putAll(countsJson(mirror.counts()));
            m.put("mirror", mj);
        }
        CanaryGuard guard = r.guard();
        if (guard == null) {
            m.put("guard", null);
        } else {
            CanaryGuard.Status st = guard.status();
            Map<String, Object> gj = new LinkedHashMap<>();
            gj.put("arm", guard.arm());
            gj.put("errorRateAbove", guard.errorRateAbove());
            gj.put("p99AboveBaselineBy", guard.p99AboveBaselineBy());
            gj.put("minRequests", guard.minRequests());
            gj.put("forMs", guard.forMs());
            gj.put("state", st.state());
            gj.put("since", st.sinceMillis());
            gj.put("reason", st.reason());
            m.put("guard", gj);
        }
        m.put("shed", r.ceiling() == null ? 0L : r.ceiling().shedCount());
        return m;
    }

    /**
     * Each arm: its weight and configured share now, and over the last minute its share of the route's requests
     * measured (0 while the route had none), its requests, errors, rate, error rate, p50 and p99.
     */
    private static List<Map<String, Object>> armsJson(Router.Route.Arms arms) {
        Split split = arms.split();
        ArmStats.Figures[] figures = new ArmStats.Figures[split.arms().size()];
        long all = 0;
        for (int i = 0; i < figures.length; i++) {
            figures[i] = arms.stats()[i].figures();
            all += figures[i].requests();
        }
        List<Map<String, Object>> out = new ArrayList<>(figures.length);
        for (int i = 0; i < figures.length; i++) {
            ArmStats.Figures f = figures[i];
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("pool", split.arms().get(i).pool());
            a.put("weight", split.arms().get(i).weight());
            a.put("share", round(split.share(i)));
            a.put("measuredShare", all == 0 ? 0.0 : round((double) f.requests() / all));
            a.put("requests", f.requests());
            a.put("errors", f.errors());
            a.put("rps", round(f.rps()));
            a.put("errorRate", round(f.errorRate()));
            a.put("p50Ms", round(f.p50Ms()));
            a.put("p99Ms", round(f.p99Ms()));
            out.add(a);
        }
        return out;
    }

    /**
     * A route's {@code match} in the config's words (docs/REFERENCE.md §2.1), from the engine's matcher: host, method,
     * headers, cookies and query, each value an exact text or {@code {"prefix"|"regex"|"present"|"absent"}}; the path
     * prefix is the route's own {@code pathPrefix}. Null for a route that matches on its path prefix alone.
     */
    static Map<String, Object> matchJson(RouteMatch match) {
        if (match.prefixOnly()) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        if (match.host() != null) {
            m.put("host", valueJson(match.host(), true));
        }
        if (!match.methods().isEmpty()) {
            m.put("method", List.copyOf(new java.util.TreeSet<>(match.methods())));
        }
        putNamed(m, "headers", match.headers());
        putNamed(m, "cookies", match.cookies());
        putNamed(m, "query", match.query());
        return m;
    }

    private static void putNamed(Map<String, Object> m, String field, List<RouteMatch.Named> named) {
        if (named.isEmpty()) {
            return;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (RouteMatch.Named n : named) {
            out.put(n.name(), valueJson(n.matcher(), false));
        }
        m.put(field, out);
    }

    /** An exact value as its text, another condition as a one-field object; a host's regex without its (?i). */
    private static Object valueJson(ValueMatcher v, boolean host) {
        return switch (v.kind()) {
            case EXACT -> v.text();
            case PREFIX -> Map.of("prefix", v.text());
            case REGEX -> Map.of("regex", host && v.text().startsWith("(?i)") ? v.text().substring(4) : v.text());
            case PRESENT -> Map.of("present", true);
            case ABSENT -> Map.of("absent", true);
        };
    }

    /** The copies each mirror pool received, summed over the routes mirroring to it; pools mirrored to by none absent. */
    static Map<String, Mirror.Counts> mirrorCounts(Router router) {
        Map<String, Mirror.Counts> out = new LinkedHashMap<>();
        for (Router.Route r : router.written()) {
            Mirror mirror = r.mirror();
            if (mirror != null) {
                out.merge(mirror.pool(), mirror.counts(), Mirror.Counts::plus);
            }
        }
        return out;
    }

    private static Map<String, Object> countsJson(Mirror.Counts c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sent", c.sent());
        m.put("errors", c.errors());
        m.put("failed", c.failed());
        m.put("tooLarge", c.tooLarge());
        m.put("dropped", c.dropped());
        return m;
    }

    /** The requests answered since the engine started, each once whatever its attempts, and the errors among them. */
    private static Map<String, Object> requestsJson(dev.fulcrum.engine.Answers a) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("total", a.total());
        r.put("errors", a.errors());
        r.put("rps", round(a.rps()));
        r.put("errorRps", round(a.errorRps()));
        return r;
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> strategyJson(StrategySpec s) {
        JsonNode tree = ConfigWriter.toTree(s);
        return Json.MAPPER.convertValue(tree, Map.class);
    }

    private static Map<String, Object> backendJson(BackendView v, Backend live) {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("id", v.id());
        b.put("pool", v.pool());
        b.put("url", v.url());
        b.put("weight", v.weight());
        b.put("effectiveWeight", Math.round(v.effectiveWeight() * 100) / 100.0);
        b.put("state", v.state().name());
        b.put("health", v.health().name());
        Map<String, Object> br = new LinkedHashMap<>();
        br.put("state", v.breaker().name());
        if (live != null) {
            CircuitBreaker.Snapshot s = live.breaker().snapshot();
            br.put("failureRate", round(s.failureRate()));
            br.put("slowCallRate", round(s.slowCallRate()));
            br.put("msUntilHalfOpen", s.msUntilHalfOpen());
            List<String> recent = new ArrayList<>(s.recent().length);
            for (CircuitBreaker.Call c : s.recent()) {
                recent.add(c.name());
            }
            br.put("recent", recent);
            br.put("lastTransitionAt", s.lastTransitionMillis());
            CircuitBreaker.Snapshot t = live.breaker().tripped();
            br.put("trippedFailureRate", t == null ? null : round(t.failureRate()));
            br.put("trippedSlowCallRate", t == null ? null : round(t.slowCallRate()));
            CircuitBreaker.Probes probes = live.breaker().probes();
            br.put("probes", probes.of());
            br.put("probesAdmitted", probes.admitted());
            br.put("probesSucceeded", probes.succeeded());
        }
        b.put("breaker", br);
        b.put("activeRequests", v.activeRequests());
        b.put("totalRequests", v.totalRequests());
        b.put("failures", v.failures());
        b.put("rps", round(v.rps()));
        b.put("errorRate", round(v.errorRate()));
        b.put("latencyP50Ms", round(v.latencyP50Ms()));
        b.put("latencyP99Ms", round(v.latencyP99Ms()));
        b.put("backup", v.backup());
        b.put("maxInFlight", v.maxInFlight());
        b.put("timesEjected", v.timesEjected());
        b.put("ejectedForMs", v.ejectedForMs());
        b.put("unverified", v.unverified());
        b.put("labels", v.labels());
        return b;
    }

    private static double round(double d) {
        return Math.round(d * 1000) / 1000.0;
    }

    public static KeySpace keySpace(Pool p) {
        PoolSnapshot snap = p.snapshot();
        // while only backups can serve, the proxy hashes onto theirs: the lookup and ring say what it does
        KeySpace ks = snap.primaryCandidates().isEmpty() && snap.backup() != null
                ? snap.backup().keySpace() : snap.primary().keySpace();
        if (ks == null) {
            throw new EngineException(409, "strategy: pool " + p.name() + " uses no ring or table (got: "
                    + p.snapshot().spec().type() + ")");
        }
        return ks;
    }

    /** {@code GET /api/ring}. */
    public static Map<String, Object> ring(Pool pool) {
        KeySpace ks = keySpace(pool);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", ks.type());
        out.put("points", points(ks.points()));
        out.put("share", ks.share());
        return out;
    }

    /** Points as {@code /api/ring} and the preview give them: the hash unsigned, and its owner. */
    private static List<Map<String, Object>> points(List<KeySpace.Point> pts) {
        List<Map<String, Object>> points = new ArrayList<>(pts.size());
        for (KeySpace.Point pt : pts) {
            Map<String, Object> m = new LinkedHashMap<>(2);
            m.put("hash", unsigned(pt.hash()));
            m.put("backend", pt.backend());
            points.add(m);
        }
        return points;
    }

    /** {@code GET /api/ring/lookup}. */
    public static Map<String, Object> lookup(Pool pool, String key) {
        KeySpace ks = keySpace(pool);
        if ("ip".equals(pool.snapshot().spec().key())) {
            key = dev.fulcrum.net.IpText.canonical(key); // as the proxy reads a client's address (RFC 5952)
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("key", key);
        out.put("hash", unsigned(ks.hash(key)));
        out.put("backend", ks.owner(key));
        return out;
    }

    /** {@code POST /api/ring/preview}. */
    public static Map<String, Object> preview(Pool pool, List<String> remove, Map<String, Integer> add,
                                              Map<String, Integer> weights) {
        keySpace(pool);
        KeySpace.Preview pv = KeySpacePreview.preview(pool, remove, add, weights);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("movedFraction", pv.movedFraction());
        out.put("share", pv.share());
        out.put("points", points(pv.points()));
        return out;
    }

    static BigInteger unsigned(long h) {
        return new BigInteger(Long.toUnsignedString(h));
    }
}
