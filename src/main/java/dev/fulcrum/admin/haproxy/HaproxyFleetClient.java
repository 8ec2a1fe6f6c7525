package dev.fulcrum.admin.haproxy;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.time.Scheduler;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Manages a fleet of HAProxy instances through their runtime API, as one {@link EngineClient}: the window
 * attached with {@code --attach haproxy://HOST:PORT[,HOST:PORT...]} shows and changes all of them at once.
 * It sequences the package's parts: reading the address, polling every instance and merging the answers, sending
 * commands to every instance, and deriving events from successive polls.
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
 * HAProxy pushes nothing over its runtime API, so {@link #subscribe} polls once a second on the client's
 * {@link Scheduler} and derives events from the difference between two polls: {@code membership} (added /
 * removed), {@code weight}, {@code drain} and {@code health} (state changes, as the embedded engine names them).
 * A change that is undone within a second is not seen, and {@code at} is the poll's time, not the change's.
 *
 * <h2>Threads</h2>
 * Every method may block on the instances' sockets; the reads of one poll run in parallel on daemon threads, so an
 * instance that does not answer costs one timeout, not one per instance.
 */
public final class HaproxyFleetClient implements EngineClient {
    private final List<HaproxyRuntime> instances;
    private final Scheduler scheduler;
    /** Whether this client made {@link #scheduler} (and so shuts it down). */
    private final boolean ownsScheduler;
    /** Runs the per-instance reads of a poll, and the event polls; daemon threads, idle ones expire after a minute. */
    private final ExecutorService io = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "haproxy-fleet-io");
        t.setDaemon(true);
        return t;
    });
    private final FleetCommands commands;
    private final FleetPoller poller;
    private final ProbeHistory probes = new ProbeHistory();
    private final Object lock = new Object();
    // guarded by lock: what the previous merge left for the next one and for commands
    private final Map<String, FleetMerge.Counters> lastCounters = new HashMap<>();
    private Map<String, ServerKey> ids = Map.of();

    private HaproxyFleetClient(List<HaproxyRuntime> instances, Scheduler scheduler, boolean ownsScheduler) {
        this.instances = List.copyOf(instances);
        this.scheduler = scheduler;
        this.ownsScheduler = ownsScheduler;
        this.commands = new FleetCommands(this.instances, attachUri(), this::resolve, this::fleetState);
        this.poller = new FleetPoller(scheduler, io, this::state, attachUri());
    }

    /**
     * Attaches to the stats sockets at these addresses (each {@code stats socket ipv4@HOST:PORT level admin}),
     * asking each for its version; an instance that does not answer is a 502 naming it. Events are polled on a
     * daemon thread of the client's own, stopped by {@link #close}.
     */
    public static HaproxyFleetClient connect(List<InetSocketAddress> addresses) {
        List<HaproxyRuntime> list = reach(addresses);
        return new HaproxyFleetClient(list, Scheduler.daemon("haproxy-fleet-poller"), true);
    }

    /** As {@link #connect(List)}, polling for events on {@code scheduler}, which the caller shuts down. */
    public static HaproxyFleetClient connect(List<InetSocketAddress> addresses, Scheduler scheduler) {
        return new HaproxyFleetClient(reach(addresses), scheduler, false);
    }

    /** {@code connect(parseAttach(uri))}. */
    public static HaproxyFleetClient attach(String uri) {
        return connect(parseAttach(uri));
    }

    /** {@code connect(parseAttach(uri), scheduler)}. */
    public static HaproxyFleetClient attach(String uri, Scheduler scheduler) {
        return connect(parseAttach(uri), scheduler);
    }

    private static List<HaproxyRuntime> reach(List<InetSocketAddress> addresses) {
        FleetAddresses.checkFleet(addresses);
        List<HaproxyRuntime> list = new ArrayList<>();
        for (InetSocketAddress a : addresses) {
            HaproxyRuntime r = new HaproxyRuntime(a);
            r.version();
            list.add(r);
        }
        return list;
    }

    /**
     * Reads {@code haproxy://HOST:PORT[,HOST:PORT...]} (IPv6 in brackets: {@code haproxy://[::1]:9999}).
     * Example: {@code haproxy://10.0.0.5:9999,10.0.0.6:9999} gives two addresses.
     */
    public static List<InetSocketAddress> parseAttach(String uri) {
        return FleetAddresses.parse(uri);
    }

    public List<HaproxyRuntime> instances() {
        return instances;
    }

    /** {@code haproxy://h1:p1,h2:p2}, the form {@link #parseAttach} reads. */
    public String attachUri() {
        return FleetAddresses.format(instances.stream().map(HaproxyRuntime::name).toList());
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
        if (io.isShutdown()) {
            throw new IllegalStateException("HAProxy fleet client for " + attachUri() + " is closed");
        }
        List<CompletableFuture<FleetMerge.InstancePoll>> polls = new ArrayList<>();
        for (HaproxyRuntime r : instances) {
            polls.add(CompletableFuture.supplyAsync(
                    () -> new FleetMerge.InstancePoll(r.showStat(), r.showServersState()), io));
        }
        Map<String, FleetMerge.InstancePoll> answered = new LinkedHashMap<>();
        Map<String, String> unreachable = new LinkedHashMap<>();
        for (int i = 0; i < instances.size(); i++) {
            String name = instances.get(i).name();
            try {
                answered.put(name, polls.get(i).join());
            } catch (CompletionException e) {
                unreachable.put(name, e.getCause() == null ? e.toString() : e.getCause().getMessage());
            }
        }
        long now = scheduler.ticker().wallMillis();
        synchronized (lock) {
            FleetMerge.Merged m = FleetMerge.merge(attachUri(), answered, unreachable, lastCounters);
            lastCounters.putAll(m.counters());
            ids = m.ids();
            probes.record(m.fleet().servers(), now);
            return m.fleet();
        }
    }

    @Override
    public Map<String, List<Map<String, Object>>> probeHistory() {
        fleetState();
        return probes.snapshot();
    }

    // ---------------------------------------------------------------- EngineClient: commands

    @Override
    public void setWeight(String id, int weight) {
        commands.setWeight(id, weight);
    }

    @Override
    public void drain(String id) {
        commands.drain(id);
    }

    @Override
    public void enable(String id) {
        commands.enable(id);
    }

    /**
     * Maintenance, then {@code del server}, on every instance. HAProxy refuses (409) while the server still has
     * sessions; it stays in maintenance there (DRAINING until they finish), so calling remove again later
     * completes it. An instance that no longer has the server counts as done; 404 only when none has it.
     */
    @Override
    public void remove(String id) {
        commands.remove(id);
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
        commands.add(pool, id, url, weight, maxInFlight, backup);
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

    /** Server name or backend/server to its key; the short form is looked up in the last poll, then a fresh one. */
    ServerKey resolve(String id) {
        if (id == null || id.isEmpty()) {
            throw new EngineException(400, "id: must be SERVER or BACKEND/SERVER (got: " + id + ")");
        }
        int slash = id.indexOf('/');
        if (slash > 0) {
            return new ServerKey(id.substring(0, slash), id.substring(slash + 1)); // explicit: HAProxy says if unknown
        }
        ServerKey k = knownIds().get(id);
        if (k == null) {
            fleetState();
            k = knownIds().get(id);
        }
        if (k == null) {
            List<String> same = knownIds().keySet().stream().filter(i -> i.endsWith("/" + id)).toList();
            if (!same.isEmpty()) {
                throw new EngineException(400, "id: '" + id + "' is in several HAProxy backends; use one of " + same);
            }
            throw new EngineException(404, "id: no HAProxy server '" + id + "' on " + attachUri());
        }
        return k;
    }

    private Map<String, ServerKey> knownIds() {
        synchronized (lock) {
            return ids;
        }
    }

    // ---------------------------------------------------------------- events

    /** Starts polling on the first listener; events are derived from successive polls (see class doc). */
    @Override
    public void subscribe(Consumer<EngineEvent> listener) {
        poller.subscribe(listener);
    }

    @Override
    public void close() {
        poller.close();
        if (ownsScheduler) {
            scheduler.shutdown();
        }
        io.shutdownNow();
    }
}
