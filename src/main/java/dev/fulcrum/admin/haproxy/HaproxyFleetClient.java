package dev.fulcrum.admin.haproxy;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.admin.EngineState.PoolInfo;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.EngineException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Manages a fleet of HAProxy instances through their runtime API, as one {@link EngineClient}: the window
 * attached with {@code --attach haproxy://HOST:PORT[,HOST:PORT...]} shows and changes all of them at once.
 *
 * <h2>The merged state</h2>
 * Each poll runs {@code show stat} and {@code show servers state} on every instance and merges them:
 * <ul>
 *   <li>one {@link BackendInfo} per HAProxy server; its {@code pool} is the HAProxy backend name; its id is the
 *       server name when no other backend has a server of that name, else {@code backend/server}. Commands
 *       accept either form. Example: backends {@code app {s1, s2}} and {@code api {s1}} give ids
 *       {@code s2}, {@code app/s1} and {@code api/s1}. (Adding a server whose name exists in another backend
 *       therefore turns both ids into the long form: ids are derived, not stored.)</li>
 *   <li>{@code state}: DRAINING / DRAINED when in maintenance, in drain or at user weight 0, with / without
 *       sessions left (summed over instances); otherwise DOWN when any instance's checks say the
 *       server is down (a server one instance cannot reach is not fully up); otherwise UP.</li>
 *   <li>{@code health}: UNKNOWN when no instance checks the server, DOWN when any checking instance sees it
 *       down, else UP.</li>
 *   <li>{@code weight} is the user weight ({@code uweight}), {@code effectiveWeight} the weight HAProxy
 *       balances with (0 while draining), both from the first instance that has the server: when instances
 *       disagree, {@link #divergence()} says so instead of averaging.</li>
 *   <li>{@code activeRequests} ({@code scur}), {@code rps} ({@code rate}, sessions per second over the last
 *       second), {@code totalRequests} ({@code stot}) and {@code failures} ({@code econ + eresp + hrsp_5xx}) are
 *       summed over instances; {@code errorRate} is failures / requests between this poll and the previous
 *       one (0 on the first).</li>
 *   <li>Not available from HAProxy, so not invented: {@code breaker} is null (HAProxy has no circuit breaker;
 *       {@link Capabilities#breakerWindow()} is false), latency percentiles are {@code NaN} (HAProxy only keeps
 *       an average, {@code rtime}, visible per instance in {@link #fleetState()}), and there is no ring
 *       (its consistent-hash tree is not exposed): {@link #ring} answers null, {@link #lookup} and
 *       {@link #preview} 501.</li>
 * </ul>
 *
 * <h2>Commands</h2>
 * Every change goes to every instance, in attach order; a refusal on one does not stop the others, and after
 * trying all the client throws one {@link EngineException} naming each instance that refused and those that
 * applied it. Weights are 0-256 (HAProxy's range). {@code addBackend} / {@code remove} use dynamic servers,
 * HAProxy 2.5 or newer on every instance ({@link Capabilities#addRemove()}); otherwise 501 naming the version.
 *
 * <h2>Events</h2>
 * HAProxy pushes nothing over its runtime API, so {@link #subscribe} polls once a second and derives events
 * from the difference between two polls: {@code membership} (added / removed), {@code weight},
 * {@code drain} and {@code health} (state changes, as the embedded engine names them). A change that is
 * undone within a second is not seen, and {@code at} is the poll's time, not the change's.
 */
public final class HaproxyFleetClient implements EngineClient {
    private static final Logger log = LoggerFactory.getLogger(HaproxyFleetClient.class);
    static final String SCHEME = "haproxy://";
    /** Poll period of {@link #subscribe}: fast enough for a window, negligible load on HAProxy. */
    static final long POLL_MS = 1000;
    private static final int PROBE_HISTORY = 20;

    private final List<HaproxyRuntime> instances;
    private final List<Consumer<EngineEvent>> listeners = new CopyOnWriteArrayList<>();
    private final Object lock = new Object();
    /** Runs the per-instance reads of a poll in parallel; daemon threads, idle ones expire after a minute. */
    private final ExecutorService io = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "haproxy-fleet-io");
        t.setDaemon(true);
        return t;
    });
    // guarded by lock
    private final Map<String, long[]> lastCounters = new HashMap<>();
    private final Map<String, Deque<Map<String, Object>>> probes = new TreeMap<>();
    private final Map<String, String> lastProbeKey = new HashMap<>();
    private Map<String, ServerKey> ids = Map.of();
    private ScheduledExecutorService poller;
    private EngineState lastPolled;
    private boolean closed;

    private HaproxyFleetClient(List<HaproxyRuntime> instances) {
        this.instances = List.copyOf(instances);
    }

    /**
     * Attaches to the stats sockets at these addresses (each {@code stats socket ipv4@HOST:PORT level admin}),
     * asking each for its version; an instance that does not answer is a 502 naming it.
     */
    public static HaproxyFleetClient connect(List<InetSocketAddress> addresses) {
        if (addresses == null || addresses.isEmpty()) {
            throw new IllegalArgumentException("attach: at least one HAProxy HOST:PORT is needed (got: none)");
        }
        if (new HashSet<>(addresses).size() != addresses.size()) {
            throw new IllegalArgumentException("attach: an instance is listed twice (got: " + addresses + ")");
        }
        List<HaproxyRuntime> list = new ArrayList<>();
        for (InetSocketAddress a : addresses) {
            HaproxyRuntime r = new HaproxyRuntime(a);
            r.version();
            list.add(r);
        }
        return new HaproxyFleetClient(list);
    }

    /** {@code connect(parseAttach(uri))}. */
    public static HaproxyFleetClient attach(String uri) {
        return connect(parseAttach(uri));
    }

    /**
     * Reads {@code haproxy://HOST:PORT[,HOST:PORT...]} (IPv6 in brackets: {@code haproxy://[::1]:9999}).
     * Example: {@code haproxy://10.0.0.5:9999,10.0.0.6:9999} gives two addresses.
     */
    public static List<InetSocketAddress> parseAttach(String uri) {
        String usage = "attach: expected haproxy://HOST:PORT[,HOST:PORT...] (got: " + uri + ")";
        if (uri == null || !uri.toLowerCase(Locale.ROOT).startsWith(SCHEME)) {
            throw new IllegalArgumentException(usage);
        }
        String rest = uri.substring(SCHEME.length());
        if (rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        List<InetSocketAddress> out = new ArrayList<>();
        for (String part : rest.split(",", -1)) {
            String p = part.trim();
            try {
                URI u = new URI("tcp://" + p);
                if (u.getHost() == null || u.getPort() < 1 || u.getPort() > 65535 || u.getRawPath() != null
                        && !u.getRawPath().isEmpty() || u.getUserInfo() != null || u.getQuery() != null) {
                    throw new IllegalArgumentException(usage + ": '" + p + "' is not HOST:PORT");
                }
                String host = u.getHost();
                if (host.startsWith("[")) {
                    host = host.substring(1, host.length() - 1);
                }
                out.add(new InetSocketAddress(host, u.getPort()));
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException(usage + ": '" + p + "' is not HOST:PORT");
            }
        }
        return out;
    }

    public List<HaproxyRuntime> instances() {
        return instances;
    }

    /** {@code haproxy://h1:p1,h2:p2}, the form {@link #parseAttach} reads. */
    public String attachUri() {
        return SCHEME + instances.stream().map(HaproxyRuntime::name).collect(Collectors.joining(","));
    }

    // ---------------------------------------------------------------- EngineClient: reading

    @Override
    public String describe() {
        Set<String> versions = new LinkedHashSet<>();
        for (HaproxyRuntime r : instances) {
            versions.add(r.version().text());
        }
        String names = instances.stream().map(HaproxyRuntime::name).collect(Collectors.joining(", "));
        String v = versions.size() == 1 ? "HAProxy " + versions.iterator().next()
                : instances.stream().map(r -> r.name() + " HAProxy " + r.version().text()).collect(Collectors.joining(", "));
        return "HAProxy fleet: " + names + " (" + v + ")";
    }

    @Override
    public Capabilities capabilities() {
        boolean dynamic = instances.stream().allMatch(r -> r.version().supportsDynamicServers());
        return new Capabilities(false, false, false, false, dynamic);
    }

    @Override
    public EngineState state() {
        return fleetState().state();
    }

    /** Servers on which the instances disagree (weight, admin state, presence); empty when they converge. */
    public List<Divergence> divergence() {
        return fleetState().divergence();
    }

    /**
     * What the window's status bar says about the fleet: instances that did not answer (the merged state is then
     * of the others only) and fields the instances disagree on. Empty when all answer and agree.
     */
    public String problems() {
        FleetState fs = fleetState();
        List<String> out = new ArrayList<>();
        fs.unreachable().forEach((instance, why) -> out.add(instance + " not answering: " + why));
        fs.divergence().forEach(d -> out.add(d.describe()));
        return String.join("; ", out);
    }

    /** One poll of every instance, merged. Throws 502 only when no instance answers at all. */
    public FleetState fleetState() {
        List<InstanceServer> servers = new ArrayList<>();
        Map<String, String> unreachable = new LinkedHashMap<>();
        Map<String, List<BackendStat>> backendRows = new LinkedHashMap<>();
        List<String> answered = new ArrayList<>();
        // raw per instance, keyed backend/server, before ids are assigned
        Map<ServerKey, Map<String, ServerStat>> stats = new TreeMap<>();
        Map<ServerKey, Map<String, AdminState>> admins = new HashMap<>();
        Map<ServerKey, Map<String, Integer>> userWeights = new HashMap<>();
        // ask all instances at once: one that does not answer costs one timeout, not one per instance
        if (io.isShutdown()) {
            throw new IllegalStateException("HAProxy fleet client for " + attachUri() + " is closed");
        }
        List<CompletableFuture<InstancePoll>> polls = new ArrayList<>();
        for (HaproxyRuntime r : instances) {
            polls.add(CompletableFuture.supplyAsync(() -> new InstancePoll(r.showStat(), r.showServersState()), io));
        }
        for (int i = 0; i < instances.size(); i++) {
            HaproxyRuntime r = instances.get(i);
            HaproxyRuntime.Stats st;
            List<ServerState> ss;
            try {
                InstancePoll poll = polls.get(i).join();
                st = poll.stats();
                ss = poll.states();
            } catch (CompletionException e) {
                unreachable.put(r.name(), e.getCause() == null ? e.toString() : e.getCause().getMessage());
                continue;
            }
            answered.add(r.name());
            for (BackendStat b : st.backends()) {
                backendRows.computeIfAbsent(b.name(), k -> new ArrayList<>()).add(b);
            }
            for (ServerStat s : st.servers()) {
                stats.computeIfAbsent(new ServerKey(s.backend(), s.server()), k -> new LinkedHashMap<>()).put(r.name(), s);
            }
            for (ServerState s : ss) {
                ServerKey k = new ServerKey(s.backend(), s.server());
                admins.computeIfAbsent(k, x -> new LinkedHashMap<>()).put(r.name(), s.admin());
                userWeights.computeIfAbsent(k, x -> new LinkedHashMap<>()).put(r.name(), s.userWeight());
            }
        }
        if (answered.isEmpty()) {
            throw new EngineException(502, "no HAProxy instance answered: " + String.join("; ", unreachable.values()));
        }
        Map<String, ServerKey> idMap = assignIds(stats.keySet());
        Map<ServerKey, String> idOf = new HashMap<>();
        idMap.forEach((id, k) -> idOf.put(k, id));

        List<BackendInfo> backends = new ArrayList<>();
        List<Divergence> divergence = new ArrayList<>();
        long now = System.currentTimeMillis();
        synchronized (lock) {
            for (Map.Entry<ServerKey, Map<String, ServerStat>> e : stats.entrySet()) {
                ServerKey k = e.getKey();
                String id = idOf.get(k);
                Map<String, ServerStat> per = e.getValue();
                Map<String, AdminState> adm = admins.getOrDefault(k, Map.of());
                Map<String, Integer> uw = userWeights.getOrDefault(k, Map.of());
                for (Map.Entry<String, ServerStat> pe : per.entrySet()) {
                    servers.add(new InstanceServer(pe.getKey(), id, pe.getValue(),
                            adm.getOrDefault(pe.getKey(), AdminState.READY)));
                }
                divergence.addAll(divergenceOf(id, answered, per, adm, uw));
                backends.add(merge(id, k, answered, per, adm, uw));
                recordProbes(id, per, now);
            }
            ids = Map.copyOf(idMap);
        }
        Map<String, PoolInfo> pools = new LinkedHashMap<>();
        Map<String, Object> firstStrategy = null;
        for (Map.Entry<String, List<BackendStat>> e : backendRows.entrySet()) {
            Map<String, Object> strategy = Map.of("type", "haproxy:" + e.getValue().get(0).algorithm());
            int inFlight = e.getValue().stream().mapToInt(BackendStat::currentSessions).sum();
            pools.put(e.getKey(), new PoolInfo(strategy, false, inFlight));
            if (firstStrategy == null && stats.keySet().stream().anyMatch(k -> k.backend().equals(e.getKey()))) {
                firstStrategy = strategy;
            }
        }
        EngineState state = new EngineState(attachUri(), firstStrategy, pools, List.of(), List.copyOf(backends));
        return new FleetState(state, List.copyOf(servers), List.copyOf(divergence), Map.copyOf(unreachable));
    }

    /** Short ids where the server name is unique across backends, {@code backend/server} otherwise. */
    static Map<String, ServerKey> assignIds(Set<ServerKey> keys) {
        Map<String, Integer> count = new HashMap<>();
        for (ServerKey k : keys) {
            count.merge(k.server(), 1, Integer::sum);
        }
        Map<String, ServerKey> out = new TreeMap<>();
        for (ServerKey k : keys) {
            out.put(count.get(k.server()) == 1 ? k.server() : k.backend() + "/" + k.server(), k);
        }
        return out;
    }

    private List<Divergence> divergenceOf(String id, List<String> answered, Map<String, ServerStat> per,
                                          Map<String, AdminState> adm, Map<String, Integer> uw) {
        List<Divergence> out = new ArrayList<>();
        if (per.size() < answered.size()) {
            Map<String, String> presence = new LinkedHashMap<>();
            for (String inst : answered) {
                presence.put(inst, per.containsKey(inst) ? "present" : "absent");
            }
            out.add(new Divergence(id, "presence", presence));
        }
        if (new HashSet<>(uw.values()).size() > 1) {
            Map<String, String> m = new LinkedHashMap<>();
            uw.forEach((i, w) -> m.put(i, Integer.toString(w)));
            out.add(new Divergence(id, "weight", m));
        }
        if (new HashSet<>(adm.values()).size() > 1) {
            Map<String, String> m = new LinkedHashMap<>();
            adm.forEach((i, a) -> m.put(i, a.cliName()));
            out.add(new Divergence(id, "admin", m));
        }
        return out;
    }

    private BackendInfo merge(String id, ServerKey k, List<String> answered, Map<String, ServerStat> per,
                              Map<String, AdminState> adm, Map<String, Integer> uw) {
        String first = answered.stream().filter(per::containsKey).findFirst().orElseThrow();
        ServerStat f = per.get(first);
        AdminState admin = adm.getOrDefault(first, AdminState.READY);
        int userWeight = uw.getOrDefault(first, f.userWeight());
        int sessions = 0;
        double rate = 0;
        long total = 0;
        long failures = 0;
        boolean anyChecked = false;
        boolean anyDown = false;
        for (ServerStat s : per.values()) {
            sessions += s.currentSessions();
            rate += s.rate();
            total += s.totalSessions();
            failures += s.connectErrors() + s.responseErrors() + s.http5xx();
            anyChecked |= s.checked();
            // HAProxy's own verdict, checks of its own or not: a server that tracks another ("track app/s1") or
            // has only an agent check is DOWN when HAProxy says so, and takes no traffic
            anyDown |= s.operationallyDown();
        }
        String health = anyDown ? "DOWN" : !anyChecked ? "UNKNOWN" : "UP";
        String state;
        if (admin == AdminState.DRAIN || admin == AdminState.MAINT || userWeight == 0 || f.status().startsWith("NOLB")) {
            // maintenance takes no new requests but, unlike "shutdown sessions", lets running ones finish
            state = sessions > 0 ? "DRAINING" : "DRAINED";
        } else if (anyDown) {
            state = "DOWN";
        } else {
            state = "UP";
        }
        long[] prev = lastCounters.put(id, new long[]{total, failures});
        double errorRate = 0;
        if (prev != null && total > prev[0] && failures >= prev[1]) {
            errorRate = (double) (failures - prev[1]) / (total - prev[0]);
        }
        String url = f.address().isEmpty() ? null : "http://" + f.address();
        return new BackendInfo(id, k.backend(), url, userWeight, f.weight(), state, health, null, sessions, total,
                failures, rate, Math.min(1, errorRate), Double.NaN, Double.NaN, f.backup(), f.maxConn(), 0, 0);
    }

    /** Appends a probe result when an instance's last check changed (status, code or last transition). */
    private void recordProbes(String id, Map<String, ServerStat> per, long now) {
        for (Map.Entry<String, ServerStat> e : per.entrySet()) {
            ServerStat s = e.getValue();
            if (!s.checked() || s.checkRunning()) {
                continue; // a check under way is no new result (its code reads 0 until it ends)
            }
            String key = id + "@" + e.getKey();
            String value = s.checkStatus() + "|" + s.checkCode() + "|" + s.status();
            if (value.equals(lastProbeKey.put(key, value))) {
                continue;
            }
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("at", now);
            p.put("instance", e.getKey());
            p.put("ok", !s.operationallyDown());
            p.put("checkStatus", s.checkStatus());
            p.put("code", s.checkCode());
            p.put("durationMs", s.checkDurationMs());
            p.put("status", s.status());
            Deque<Map<String, Object>> d = probes.computeIfAbsent(id, x -> new ArrayDeque<>());
            d.addLast(p);
            while (d.size() > PROBE_HISTORY) {
                d.removeFirst();
            }
        }
    }

    @Override
    public Map<String, List<Map<String, Object>>> probeHistory() {
        fleetState();
        synchronized (lock) {
            Map<String, List<Map<String, Object>>> out = new TreeMap<>();
            probes.forEach((id, d) -> out.put(id, List.copyOf(d)));
            return out;
        }
    }

    // ---------------------------------------------------------------- EngineClient: commands

    @Override
    public void setWeight(String id, int weight) {
        HaproxyRuntime.checkWeight(weight);
        ServerKey k = resolve(id);
        onAll("set weight of " + id + " to " + weight, r -> r.setWeight(k.backend(), k.server(), weight));
    }

    @Override
    public void drain(String id) {
        ServerKey k = resolve(id);
        onAll("drain " + id, r -> r.setState(k.backend(), k.server(), AdminState.DRAIN));
    }

    @Override
    public void enable(String id) {
        ServerKey k = resolve(id);
        onAll("enable " + id, r -> r.setState(k.backend(), k.server(), AdminState.READY));
    }

    /**
     * Maintenance, then {@code del server}, on every instance. HAProxy refuses (409) while the server still has
     * sessions; it stays in maintenance there (DRAINING until they finish), so calling remove again later
     * completes it. An instance that no longer has the server counts as done; 404 only when none has it.
     */
    @Override
    public void remove(String id) {
        requireDynamic("del server");
        ServerKey k = resolve(id);
        List<String> absent = new CopyOnWriteArrayList<>();
        onAll("remove " + id, r -> {
            try {
                r.deleteServer(k.backend(), k.server());
            } catch (EngineException e) {
                if (e.status() != 404) {
                    throw e;
                }
                absent.add(r.name());
            }
        });
        if (absent.size() == instances.size()) {
            throw new EngineException(404, "id: no HAProxy server '" + id + "' on " + attachUri());
        }
    }

    /**
     * Adds server {@code id} (or {@code backend/server}) to HAProxy backend {@code pool} on every instance.
     * The url must be {@code http://HOST:PORT}. The server is health-checked with the backend's check settings
     * when the backend's other servers are checked, so it joins the way its siblings did.
     */
    @Override
    public void addBackend(String pool, String id, String url, int weight) {
        addBackend(pool, id, url, weight, null, false);
    }

    /** With HAProxy's {@code maxconn} and {@code backup} (an undone removal brings a server back as it was). */
    @Override
    public void addBackend(String pool, String id, String url, int weight, Integer maxInFlight, boolean backup) {
        requireDynamic("add server");
        HaproxyRuntime.checkWeight(weight);
        String server = id;
        String backend = pool;
        if (id != null && id.contains("/")) {
            backend = id.substring(0, id.indexOf('/'));
            server = id.substring(id.indexOf('/') + 1);
            if (pool != null && !pool.equals(backend) && !pool.equals("default")) {
                throw new EngineException(400, "pool: '" + pool + "' differs from the backend in id '" + id + "'");
            }
        }
        FleetState fs = fleetState();
        if (backend == null || backend.equals("default") && !fs.state().pools().containsKey("default")) {
            Set<String> withServers = fs.servers().stream().map(s -> s.stat().backend()).collect(Collectors.toCollection(LinkedHashSet::new));
            if (withServers.size() != 1) {
                throw new EngineException(400, "pool: name the HAProxy backend to add to (one of: "
                        + String.join(", ", fs.state().pools().keySet()) + ")");
            }
            backend = withServers.iterator().next();
        }
        if (!fs.state().pools().containsKey(backend)) {
            throw new EngineException(404, "pool: no HAProxy backend named '" + backend + "' (have: "
                    + String.join(", ", fs.state().pools().keySet()) + ")");
        }
        HaproxyRuntime.checkName("id", server);
        String hostPort = hostPort(url);
        String b = backend;
        boolean check = fs.servers().stream().anyMatch(s -> s.stat().backend().equals(b) && s.stat().checked());
        String srv = server;
        onAll("add " + b + "/" + srv, r -> r.addServer(b, srv, hostPort, weight, check, maxInFlight, backup));
    }

    static String hostPort(String url) {
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException | NullPointerException e) {
            throw new EngineException(400, "url: must be http://HOST:PORT (got: " + url + ")");
        }
        if (!"http".equalsIgnoreCase(u.getScheme()) || u.getHost() == null
                || u.getRawPath() != null && !u.getRawPath().isEmpty() && !u.getRawPath().equals("/")) {
            throw new EngineException(400, "url: must be http://HOST:PORT; HAProxy servers are added as plain "
                    + "http without a path (got: " + url + ")");
        }
        // HAProxy registers a dynamic server named by host without resolving it: no address, and every request
        // it would take gets 503. The name is resolved here and the server added by its address.
        String host = u.getHost();
        if (!host.startsWith("[") && !host.matches("[0-9.]+")) {
            try {
                java.net.InetAddress a = java.net.InetAddress.getByName(host);
                host = a instanceof java.net.Inet6Address ? "[" + a.getHostAddress() + "]" : a.getHostAddress();
            } catch (java.net.UnknownHostException e) {
                throw new EngineException(400, "url: the host does not resolve (HAProxy needs an address for a server "
                        + "added at run time) (got: " + url + ")");
            }
        }
        return host + ":" + (u.getPort() < 0 ? 80 : u.getPort());
    }

    @Override
    public void setStrategy(String pool, Map<String, Object> strategy) {
        throw new EngineException(501, "HAProxy's balance algorithm cannot be changed through the runtime API "
                + "(it needs a config change and a reload)");
    }

    /** HAProxy does not expose its hash tree, so there is no ring to draw. */
    @Override
    public Ring ring(String pool) {
        return null;
    }

    @Override
    public Lookup lookup(String pool, String key) {
        throw new EngineException(501, "HAProxy does not expose its consistent-hash tree through the runtime API");
    }

    @Override
    public Preview preview(String pool, List<String> remove, Map<String, Integer> add, Map<String, Integer> weights) {
        throw new EngineException(501, "HAProxy does not expose its consistent-hash tree through the runtime API");
    }

    @Override
    public Map<String, Map<String, Object>> demoState() {
        return Map.of();
    }

    @Override
    public void updateDemo(String id, Double latencyMs, Double errorRate, Boolean down) {
        throw new EngineException(501, "an HAProxy fleet has no demo backends");
    }

    private void requireDynamic(String command) {
        for (HaproxyRuntime r : instances) {
            HaproxyVersion v = r.version();
            if (!v.supportsDynamicServers()) {
                throw new EngineException(501, "HAProxy " + r.name() + ": '" + command + "' is not supported by HAProxy "
                        + v.shortName() + " (dynamic servers need HAProxy 2.5 or newer; this instance runs " + v.text() + ")");
            }
        }
    }

    /** Server name or backend/server to its key; the short form is looked up in the last poll, then a fresh one. */
    ServerKey resolve(String id) {
        if (id == null || id.isEmpty()) {
            throw new EngineException(400, "id: must be SERVER or BACKEND/SERVER (got: " + id + ")");
        }
        int slash = id.indexOf('/');
        if (slash > 0) {
            return new ServerKey(id.substring(0, slash), id.substring(slash + 1)); // explicit: HAProxy says if unknown
        }
        ServerKey k;
        synchronized (lock) {
            k = ids.get(id);
        }
        if (k == null) {
            fleetState();
            synchronized (lock) {
                k = ids.get(id);
            }
        }
        if (k == null) {
            List<String> same;
            synchronized (lock) {
                same = ids.keySet().stream().filter(i -> i.endsWith("/" + id)).toList();
            }
            if (!same.isEmpty()) {
                throw new EngineException(400, "id: '" + id + "' is in several HAProxy backends; use one of " + same);
            }
            throw new EngineException(404, "id: no HAProxy server '" + id + "' on " + attachUri());
        }
        return k;
    }

    /**
     * Runs a change on every instance, then reports every refusal at once. The status is the first refusal's,
     * e.g. {@code set weight of s1 to 3 failed on 127.0.0.1:9002 (HAProxy 127.0.0.1:9002: ... No such server.);
     * applied on 127.0.0.1:9001}.
     */
    private void onAll(String what, Consumer<HaproxyRuntime> change) {
        List<String> applied = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        Integer status = null;
        for (HaproxyRuntime r : instances) {
            try {
                change.accept(r);
                applied.add(r.name());
            } catch (EngineException e) {
                failed.add(r.name() + " (" + e.getMessage() + ")");
                status = status == null ? e.status() : status;
            }
        }
        if (status != null) {
            throw new EngineException(status, what + " failed on " + String.join(", ", failed)
                    + (applied.isEmpty() ? "" : "; applied on " + String.join(", ", applied)));
        }
    }

    // ---------------------------------------------------------------- events

    /** Starts the 1 Hz poller on the first listener; events are derived from successive polls (see class doc). */
    @Override
    public void subscribe(Consumer<EngineEvent> listener) {
        listeners.add(listener);
        java.util.concurrent.Future<?> baseline;
        synchronized (lock) {
            if (poller != null || closed) {
                return;
            }
            poller = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "haproxy-fleet-poller");
                t.setDaemon(true);
                return t;
            });
            baseline = poller.submit(this::pollForEvents);
            poller.scheduleWithFixedDelay(this::pollForEvents, POLL_MS, POLL_MS, TimeUnit.MILLISECONDS);
        }
        // events are differences between polls: take the first picture before returning, so a change made
        // right after subscribing is reported rather than absorbed into the baseline
        try {
            baseline.get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // the periodic polls take the baseline instead
        }
    }

    private void pollForEvents() {
        try {
            EngineState now = state();
            EngineState before;
            synchronized (lock) {
                before = lastPolled;
                lastPolled = now;
            }
            if (before == null) {
                return;
            }
            for (EngineEvent e : diff(before, now, System.currentTimeMillis())) {
                for (Consumer<EngineEvent> l : listeners) {
                    try {
                        l.accept(e);
                    } catch (RuntimeException ex) {
                        log.warn("event listener failed on {}", e, ex);
                    }
                }
            }
        } catch (RuntimeException e) {
            log.warn("polling the HAProxy fleet {} failed: {}", attachUri(), e.getMessage());
        }
    }

    /**
     * The events that explain going from {@code before} to {@code after}: membership for servers that appeared
     * or vanished, weight for a changed user weight, drain for a state change into or out of DRAINING/DRAINED,
     * health for other state changes (UP/DOWN) and for a health change that left the state alone.
     */
    static List<EngineEvent> diff(EngineState before, EngineState after, long at) {
        Map<String, BackendInfo> old = new LinkedHashMap<>();
        before.backends().forEach(b -> old.put(b.id(), b));
        List<EngineEvent> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (BackendInfo b : after.backends()) {
            seen.add(b.id());
            BackendInfo o = old.get(b.id());
            if (o == null) {
                out.add(new EngineEvent("membership", b.pool(), b.id(), null, "added", at));
                continue;
            }
            if (o.weight() != b.weight()) {
                out.add(new EngineEvent("weight", b.pool(), b.id(), Integer.toString(o.weight()),
                        Integer.toString(b.weight()), at));
            }
            if (!o.state().equals(b.state())) {
                boolean drain = isDrain(o.state()) || isDrain(b.state());
                out.add(new EngineEvent(drain ? "drain" : "health", b.pool(), b.id(), o.state(), b.state(), at));
            } else if (!Objects.equals(o.health(), b.health())) {
                out.add(new EngineEvent("health", b.pool(), b.id(), o.health(), b.health(), at));
            }
        }
        for (BackendInfo o : before.backends()) {
            if (!seen.contains(o.id())) {
                out.add(new EngineEvent("membership", o.pool(), o.id(), "present", "removed", at));
            }
        }
        return out;
    }

    private static boolean isDrain(String state) {
        return state.equals("DRAINING") || state.equals("DRAINED");
    }

    @Override
    public void close() {
        ScheduledExecutorService p;
        synchronized (lock) {
            closed = true;
            p = poller;
            poller = null;
        }
        if (p != null) {
            p.shutdownNow();
        }
        io.shutdownNow();
        listeners.clear();
    }

    private record InstancePoll(HaproxyRuntime.Stats stats, List<ServerState> states) {
    }

    /** An HAProxy server: its backend and its name. */
    record ServerKey(String backend, String server) implements Comparable<ServerKey> {
        @Override
        public int compareTo(ServerKey o) {
            int c = backend.compareTo(o.backend);
            return c != 0 ? c : server.compareTo(o.server);
        }
    }
}
