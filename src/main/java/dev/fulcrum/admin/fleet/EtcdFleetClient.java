package dev.fulcrum.admin.fleet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.HttpEngineClient;
import dev.fulcrum.admin.Json;
import dev.fulcrum.admin.RequestSource;
import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.ConfigProblem;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.engine.routing.Split;
import dev.fulcrum.etcd.EtcdAddress;
import dev.fulcrum.etcd.EtcdClient;
import dev.fulcrum.etcd.EtcdMirror;
import dev.fulcrum.etcd.EtcdOptions;
import dev.fulcrum.etcd.KeyValue;
import dev.fulcrum.etcd.Range;
import dev.fulcrum.etcd.Swap;
import dev.fulcrum.time.SystemClock;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fleet of Fulcrums sharing one config in etcd, as one {@link EngineClient}: what {@code --attach etcd://...} runs
 * the window on (docs/REFERENCE.md §1, §8).
 *
 * <h2>What it reads</h2>
 * An {@link EtcdMirror} keeps {@code PREFIX/} in step: the config ({@code PREFIX/config}), the drained marks
 * ({@code PREFIX/drained/ID}) and the instances ({@code PREFIX/instances/ID}, each
 * {@code {"id","proxy","admin","version","configRevision","configState","startedAt"}} under a lease). An instance is
 * up while its key is there, and gone once it was seen and its key went (stopped, or its lease expired after a
 * {@code kill -9}); a gone instance stays listed ({@link #fleet()}). Each instance up is read through an
 * {@link HttpEngineClient} on its admin URL with the config's {@code admin.token}.
 *
 * <h2>State</h2>
 * {@link #state()} is the pool as the config says it, with every instance's runtime figures merged
 * ({@code StateMerge}): rates, totals and in-flight summed, health and breakers the worst, DRAINING / DRAINED where a
 * drained mark is. An instance that does not answer within {@value #INSTANCE_WAIT_MS} ms is left out of that view.
 *
 * <h2>Commands</h2>
 * Weight, add, remove, strategy, split, promote, rollback and a whole config edit the JSON of the config <i>as the
 * last {@link #state()} showed it</i>, check the result as a config file is checked (400 with the problems), and write
 * it with a compare-and-swap on that revision. When the key changed since, nothing is written:
 * {@code EngineException(409, "changed by someone else; reloaded")}, and the next {@link #state()} shows the config
 * now in etcd. Drain and enable put and delete {@code PREFIX/drained/ID}. A backend the instances report but the
 * config does not list (from discovery) cannot be changed here: 400 naming it.
 *
 * <h2>Events</h2>
 * Every instance's event stream, and the fleet's own: {@code membership} of {@code instance:ID} ({@code added} when it
 * comes up, {@code present -> removed} when its key goes), {@code config} of {@code instance:ID} when it applies a
 * revision ({@code applied revision N}) or refuses one ({@code refused revision N}), and {@code config} when etcd stops
 * answering ({@code ok -> unreachable: why}) or answers again.
 *
 * <p>Every method may block on the network: not for the JavaFX thread.
 */
public final class EtcdFleetClient implements EngineClient {
    private static final Logger LOG = LoggerFactory.getLogger(EtcdFleetClient.class);
    /** What a command on a view older than the config in etcd answers, with status 409. */
    public static final String CHANGED = "changed by someone else; reloaded";
    /** How long {@link #state()} waits for one instance's answer before showing the fleet without it. */
    static final long INSTANCE_WAIT_MS = 2_000;

    private final EtcdAddress address;
    private final EtcdClient etcd;
    private final String url;
    private EtcdMirror mirror;
    private final ExecutorService io = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "etcd-fleet-io");
        t.setDaemon(true);
        return t;
    });
    private final List<Consumer<EngineEvent>> listeners = new CopyOnWriteArrayList<>();
    private final Map<String, HttpEngineClient> clients = new ConcurrentHashMap<>();
    private final Set<FleetRequests> requestSources = ConcurrentHashMap.newKeySet();
    private volatile boolean subscribed;
    private volatile boolean closed;

    private final Object lock = new Object();
    // guarded by lock
    private KeyValue config;
    private FulcrumConfig valid;
    private List<String> problems = List.of();
    private Shown shown;
    private final Map<String, FleetInstance> instances = new TreeMap<>();
    private Set<String> drained = Set.of();
    private boolean reachable = true;
    private long reachableSince;
    private String unreachableWhy;
    private EngineState lastState;
    /** The admin token the instances' clients were made with: a config with another one makes them anew. */
    private String clientsToken;

    /** The config's revision and JSON that a {@link #state()} showed: what a command edits and compares against. */
    private record Shown(long revision, ObjectNode tree) {
    }

    private EtcdFleetClient(EtcdAddress address, EtcdClient etcd, String url, KeyValue config) {
        this.address = address;
        this.etcd = etcd;
        this.url = url;
        acceptConfig(config);
        clientsToken = valid == null ? null : valid.admin().token();
    }

    /**
     * Reads {@code PREFIX/config} once (so a wrong address, an etcd that does not answer or a prefix without a config
     * fails here, naming it), then mirrors {@code PREFIX/} on a thread of its own.
     *
     * @param url the address as given ({@code etcd://127.0.0.1:2379/fulcrum/prod}), for the title and messages
     */
    public static EtcdFleetClient attach(String url, EtcdAddress address, EtcdOptions options) {
        EtcdClient etcd = new EtcdClient(options);
        try {
            Range r = etcd.get(address.configKey());
            if (r.first() == null) {
                throw new EngineException(404, "config: no key " + address.configKey() + " in etcd at "
                        + options.describe() + " (got: " + url + ")");
            }
            EtcdFleetClient c = new EtcdFleetClient(address, etcd, url, r.first());
            c.mirror = EtcdMirror.start(etcd, address.prefix() + "/", new EtcdMirror.Listener() {
                @Override
                public void changed(Map<String, KeyValue> keys, long revision) {
                    c.changed(keys);
                }

                @Override
                public void reachability(boolean now, long since, String problem) {
                    c.reachability(now, since, problem);
                }
            });
            return c;
        } catch (RuntimeException e) {
            etcd.close();
            throw e;
        }
    }

    /** The breaker thresholds of the config, so the Breakers tab says "opens at 50%" as for one engine. */
    public dev.fulcrum.config.BreakerConfig breakerConfig() {
        synchronized (lock) {
            return valid == null ? null : valid.circuitBreaker();
        }
    }

    /** The address attached to, as given. */
    public String url() {
        return url;
    }

    // ---------------------------------------------------------------- the fleet

    /** Every instance seen since attaching, by id: those up and those gone. */
    public List<FleetInstance> fleet() {
        synchronized (lock) {
            return List.copyOf(instances.values());
        }
    }

    /** The config source now: etcd reachable or since when not, and the config's revision as last read. */
    public FleetSource source() {
        synchronized (lock) {
            return new FleetSource(url, address.configKey(), reachable, reachableSince, unreachableWhy,
                    config.modRevision());
        }
    }

    /** Why the config in etcd now is not a valid config (every instance refuses it); empty when it is. */
    public List<String> configProblems() {
        synchronized (lock) {
            return problems;
        }
    }

    /** The mirror's view of {@code PREFIX/}: called on the mirror's thread, one call at a time. */
    private void changed(Map<String, KeyValue> keys) {
        long now = SystemClock.currentTimeMillis();
        List<EngineEvent> events = new ArrayList<>();
        List<FleetInstance> joined = new ArrayList<>();
        List<String> left = new ArrayList<>();
        synchronized (lock) {
            KeyValue c = keys.get(address.configKey());
            if (c != null && c.modRevision() > config.modRevision()) {
                acceptConfig(c);
            }
            String token = valid == null ? null : valid.admin().token();
            boolean newToken = !java.util.Objects.equals(clientsToken, token);
            clientsToken = token;
            Set<String> marks = new TreeSet<>();
            Map<String, FleetInstance> present = new TreeMap<>();
            keys.forEach((key, kv) -> {
                if (key.startsWith(address.drainedPrefix())) {
                    marks.add(key.substring(address.drainedPrefix().length()));
                } else if (key.startsWith(address.instancesPrefix())) {
                    FleetInstance i = parseInstance(key.substring(address.instancesPrefix().length()), kv.value());
                    if (i != null) {
                        present.put(i.id(), i);
                    }
                }
            });
            drained = Set.copyOf(marks);
            present.forEach((id, i) -> {
                FleetInstance before = instances.get(id);
                boolean comes = before == null || !before.up();
                FleetInstance seen = new FleetInstance(i.id(), i.proxy(), i.admin(), i.version(), i.configRevision(),
                        i.configState(), i.startedAt(), true, comes ? now : before.since());
                instances.put(id, seen);
                String who = "instance:" + id;
                if (comes) {
                    joined.add(seen);
                    events.add(new EngineEvent("membership", null, who, null, "added", now));
                } else if (newToken || before.admin() != null && !before.admin().equals(i.admin())) {
                    joined.add(seen); // a new admin token, or restarted elsewhere under the same id: read it anew
                }
                if (before != null && before.up() && before.configRevision() != i.configRevision()
                        && i.configRevision() > 0) {
                    events.add(new EngineEvent("config", null, who, "revision " + before.configRevision(),
                            "applied revision " + i.configRevision(), now));
                }
                if (i.refused() && (before == null || !before.refused())) {
                    events.add(new EngineEvent("config", null, who, null,
                            "refused revision " + config.modRevision(), now));
                }
            });
            for (FleetInstance i : List.copyOf(instances.values())) {
                if (i.up() && !present.containsKey(i.id())) {
                    instances.put(i.id(), i.gone(now));
                    left.add(i.id());
                    events.add(new EngineEvent("membership", null, "instance:" + i.id(), "present", "removed", now));
                }
            }
        }
        left.forEach(this::forget);
        joined.forEach(this::reach);
        events.forEach(this::deliver);
    }

    private void reachability(boolean now, long since, String problem) {
        synchronized (lock) {
            if (now == reachable) {
                return;
            }
            reachable = now;
            reachableSince = since;
            unreachableWhy = now ? null : problem;
        }
        deliver(new EngineEvent("config", null, null, now ? "unreachable" : "ok",
                now ? "ok" : "unreachable: " + problem, since));
    }

    /** A new newest config: kept, and checked so the view can say why instances refuse it. Under the lock. */
    private void acceptConfig(KeyValue kv) {
        config = kv;
        try {
            valid = ConfigLoader.parse(kv.value());
            problems = List.of();
        } catch (ConfigException e) {
            problems = e.problems().stream().map(ConfigProblem::describe).toList();
        }
    }

    private static FleetInstance parseInstance(String id, String value) {
        try {
            JsonNode n = Json.LENIENT.readTree(value);
            return new FleetInstance(id, text(n, "proxy"), text(n, "admin"), text(n, "version"),
                    n.path("configRevision").asLong(0), text(n, "configState"), n.path("startedAt").asLong(0),
                    true, 0);
        } catch (IOException | RuntimeException e) {
            LOG.warn("instance {}: not an instance's JSON (got: {})", id, abbreviate(value));
            return null;
        }
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** An instance up: its admin API read from now on (events and requests too, when the window asks for them). */
    private void reach(FleetInstance i) {
        if (closed || i.admin() == null) {
            return;
        }
        HttpEngineClient c;
        try {
            c = new HttpEngineClient(URI.create(i.admin()), token());
        } catch (IllegalArgumentException e) {
            LOG.warn("instance {}: {}", i.id(), e.getMessage());
            return;
        }
        HttpEngineClient before = clients.put(i.id(), c);
        if (before != null) {
            before.close();
        }
        io.execute(() -> {
            if (subscribed) {
                c.subscribe(this::deliver);
            }
            for (FleetRequests r : requestSources) {
                openRequests(i.id(), c, r);
            }
        });
    }

    private void forget(String id) {
        HttpEngineClient c = clients.remove(id);
        if (c != null) {
            c.close();
        }
        requestSources.forEach(r -> r.leave(id));
    }

    private String token() {
        synchronized (lock) {
            return valid == null ? null : valid.admin().token();
        }
    }

    // ---------------------------------------------------------------- EngineClient: reading

    @Override
    public String describe() {
        return "Fulcrum fleet " + url;
    }

    /** A fleet has no demo faults to set: each instance starts its own demo backends. */
    @Override
    public Capabilities capabilities() {
        return new Capabilities(true, true, false, true, true);
    }

    @Override
    public EngineState state() {
        KeyValue kv;
        FulcrumConfig cfg;
        Set<String> marks;
        List<FleetInstance> up = new ArrayList<>();
        synchronized (lock) {
            kv = config;
            cfg = valid;
            marks = drained;
            instances.values().stream().filter(FleetInstance::up).forEach(up::add);
        }
        if (cfg == null) {
            throw new EngineException(502, "config: " + address.configKey() + " is not a valid config, and no valid"
                    + " one was read before: " + String.join("; ", configProblems()));
        }
        Map<String, CompletableFuture<EngineState>> asked = new LinkedHashMap<>();
        for (FleetInstance i : up) {
            HttpEngineClient c = clients.get(i.id());
            if (c != null) {
                asked.put(i.id(), CompletableFuture.supplyAsync(c::state, io)
                        .orTimeout(INSTANCE_WAIT_MS, TimeUnit.MILLISECONDS));
            }
        }
        Map<String, EngineState> answered = new LinkedHashMap<>();
        asked.forEach((id, f) -> {
            try {
                answered.put(id, f.join());
            } catch (RuntimeException e) {
                LOG.debug("instance {} did not answer", id, e);
            }
        });
        // one URL the window can send traffic to (any instance serves the same config); the Instances tab lists all
        String proxy = up.stream().map(FleetInstance::proxy).filter(p -> p != null).findFirst().orElse(url);
        EngineState merged = StateMerge.merge(proxy, cfg, answered, marks);
        synchronized (lock) {
            shown = new Shown(kv.modRevision(), tree(kv.value()));
            lastState = merged;
        }
        return merged;
    }

    @Override
    public void subscribe(Consumer<EngineEvent> listener) {
        listeners.add(listener);
        if (subscribed) {
            return;
        }
        subscribed = true;
        // every instance's stream connected before this returns, as one instance's is (HttpEngineClient#subscribe)
        List<CompletableFuture<Void>> all = new ArrayList<>();
        clients.values().forEach(c -> all.add(CompletableFuture.runAsync(() -> c.subscribe(this::deliver), io)));
        all.forEach(CompletableFuture::join);
    }

    private void deliver(EngineEvent e) {
        for (Consumer<EngineEvent> l : listeners) {
            try {
                l.accept(e);
            } catch (RuntimeException ex) {
                LOG.warn("event listener failed on {}", e, ex);
            }
        }
    }

    @Override
    public RequestSource requests() {
        FleetRequests r = new FleetRequests(() -> { });
        requestSources.add(r);
        List<CompletableFuture<Void>> all = new ArrayList<>();
        clients.forEach((id, c) -> all.add(CompletableFuture.runAsync(() -> openRequests(id, c, r), io)));
        all.forEach(CompletableFuture::join);
        return new RequestSource() {
            @Override
            public Batch poll() {
                return r.poll();
            }

            @Override
            public Batch sample(int max) {
                return r.sample(max);
            }

            @Override
            public List<dev.fulcrum.requests.RequestSample> recent(int limit) {
                return r.recent(limit);
            }

            @Override
            public void close() {
                requestSources.remove(r);
                r.close();
            }
        };
    }

    private static void openRequests(String id, HttpEngineClient c, FleetRequests r) {
        try {
            r.join(id, c.requests());
        } catch (RuntimeException e) {
            LOG.debug("instance {}: no request stream", id, e);
        }
    }

    @Override
    public List<dev.fulcrum.requests.RequestSample> openTunnels() {
        List<dev.fulcrum.requests.RequestSample> out = new ArrayList<>();
        clients.values().forEach(c -> {
            try {
                out.addAll(c.openTunnels());
            } catch (RuntimeException gone) {
                // an instance going away: the others' tunnels still show
            }
        });
        return out;
    }

    /** The instances apply one config, so any one of them draws the ring every one uses. */
    @Override
    public Ring ring(String pool) {
        HttpEngineClient c = anyInstance();
        return c == null ? null : c.ring(pool);
    }

    @Override
    public Lookup lookup(String pool, String key) {
        return needInstance().lookup(pool, key);
    }

    @Override
    public Preview preview(String pool, List<String> remove, Map<String, Integer> add, Map<String, Integer> weights) {
        return needInstance().preview(pool, remove, add, weights);
    }

    @Override
    public Map<String, List<Map<String, Object>>> probeHistory() {
        HttpEngineClient c = anyInstance();
        return c == null ? Map.of() : c.probeHistory();
    }

    @Override
    public Map<String, Map<String, Object>> demoState() {
        return Map.of();
    }

    @Override
    public void updateDemo(String id, Double latencyMs, Double errorRate, Boolean down) {
        throw new EngineException(501, "demo faults: each instance of a fleet starts its own demo backends; set them"
                + " on one instance (got: " + id + ")");
    }

    private HttpEngineClient anyInstance() {
        synchronized (lock) {
            for (FleetInstance i : instances.values()) {
                HttpEngineClient c = i.up() ? clients.get(i.id()) : null;
                if (c != null) {
                    return c;
                }
            }
        }
        return null;
    }

    private HttpEngineClient needInstance() {
        HttpEngineClient c = anyInstance();
        if (c == null) {
            throw new EngineException(503, "no instance of the fleet is up to ask (got: " + url + ")");
        }
        return c;
    }

    @Override
    public String configJson() {
        synchronized (lock) {
            return config.value();
        }
    }

    // ---------------------------------------------------------------- EngineClient: commands

    @Override
    public void setWeight(String id, int weight) {
        change(t -> ConfigEdits.setWeight(t, id, weight, notInConfig(id)));
    }

    @Override
    public void addBackend(String pool, String id, String url, int weight) {
        addBackend(pool, id, url, weight, null, false, Map.of());
    }

    @Override
    public void addBackend(String pool, String id, String url, int weight, Integer maxInFlight, boolean backup) {
        addBackend(pool, id, url, weight, maxInFlight, backup, Map.of());
    }

    @Override
    public void addBackend(String pool, String id, String url, int weight, Integer maxInFlight, boolean backup,
                           Map<String, String> labels) {
        change(t -> ConfigEdits.add(t, pool, id, url, weight, maxInFlight, backup, labels));
    }

    /** Out of the config; its drained mark, if any, goes too (a backend added again later starts in rotation). */
    @Override
    public void remove(String id) {
        change(t -> ConfigEdits.remove(t, id, notInConfig(id)));
        etcd.delete(address.drainedPrefix() + id);
    }

    @Override
    public void drain(String id) {
        known(id);
        etcd.put(address.drainedPrefix() + id, "{\"at\":" + SystemClock.currentTimeMillis() + "}");
    }

    @Override
    public void enable(String id) {
        known(id);
        etcd.delete(address.drainedPrefix() + id);
    }

    @Override
    public void setStrategy(String pool, Map<String, Object> strategy) {
        change(t -> ConfigEdits.strategy(t, pool, strategy));
    }

    @Override
    public void setSplit(int route, List<Split.Arm> arms) {
        change(t -> ConfigEdits.split(t, route, arms));
    }

    @Override
    public void promote(int route) {
        change(t -> ConfigEdits.allTo(t, route, -1));
    }

    @Override
    public void rollback(int route) {
        change(t -> ConfigEdits.allTo(t, route, 0));
    }

    /** The whole config, compared against the revision the view showed; its problems returned, nothing written. */
    @Override
    public List<String> applyConfig(String json) {
        try {
            ConfigLoader.parse(json);
        } catch (ConfigException e) {
            return e.problems().stream().map(ConfigProblem::describe).toList();
        }
        write(json, tree(json), shownNow().revision());
        return List.of();
    }

    /** Edits the config as the view last showed it, checks the result and swaps it in. */
    private void change(UnaryOperator<ObjectNode> edit) {
        Shown s = shownNow();
        ObjectNode next = edit.apply(s.tree());
        String json;
        try {
            json = Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(next) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("config: cannot write JSON", e);
        }
        try {
            ConfigLoader.parse(json);
        } catch (ConfigException e) {
            throw new EngineException(400, String.join("; ",
                    e.problems().stream().map(ConfigProblem::describe).toList()));
        }
        write(json, next, s.revision());
    }

    private void write(String json, ObjectNode tree, long revision) {
        Swap swap = etcd.putIf(address.configKey(), json, revision);
        if (!swap.succeeded()) {
            reload();
            throw new EngineException(409, CHANGED);
        }
        synchronized (lock) {
            // what this window wrote on top of what it showed: the next command builds on it, not on the older view
            if (swap.revision() > config.modRevision()) {
                acceptConfig(new KeyValue(address.configKey(), json, config.createRevision(), swap.revision(),
                        config.version() + 1, 0));
            }
            shown = new Shown(swap.revision(), tree);
        }
    }

    /** The config now in etcd, read at once so the next {@link #state()} shows it even before the mirror has it. */
    private void reload() {
        try {
            KeyValue now = etcd.get(address.configKey()).first();
            synchronized (lock) {
                if (now != null && now.modRevision() > config.modRevision()) {
                    acceptConfig(now);
                }
            }
        } catch (RuntimeException e) {
            LOG.debug("config reload after a failed swap", e);
        }
    }

    private Shown shownNow() {
        synchronized (lock) {
            if (shown != null) {
                return shown;
            }
        }
        state(); // a command before any view: the config as it is now is what it acts on
        synchronized (lock) {
            return shown;
        }
    }

    /**
     * Null for a backend the config lists; else why it cannot be changed here: one the instances report came from
     * discovery (or is a demo backend), and the config does not hold it.
     */
    private String notInConfig(String id) {
        EngineState last;
        synchronized (lock) {
            last = lastState;
        }
        if (last != null && last.backend(id) != null) {
            return "backend: " + id + " is not in the shared config (it came from discovery): change it where it"
                    + " comes from (got: " + id + ")";
        }
        return null;
    }

    private void known(String id) {
        Shown s = shownNow();
        if (ConfigEdits.backend(s.tree(), id) != null) {
            return;
        }
        String why = notInConfig(id);
        throw why != null ? new EngineException(400, why) : ConfigEdits.notFound(id);
    }

    private static ObjectNode tree(String json) {
        JsonNode n = ConfigLoader.tree(json.startsWith("\uFEFF") ? json.substring(1) : json);
        if (!(n instanceof ObjectNode o)) {
            throw new EngineException(502, "config: not a JSON object (got: " + abbreviate(json) + ")");
        }
        return o;
    }

    private static String abbreviate(String s) {
        return s == null || s.length() <= 200 ? s : s.substring(0, 200) + "…";
    }

    @Override
    public void close() {
        closed = true;
        if (mirror != null) {
            mirror.close();
        }
        listeners.clear();
        clients.values().forEach(HttpEngineClient::close);
        clients.clear();
        requestSources.forEach(FleetRequests::close);
        io.shutdownNow();
        etcd.close();
    }
}
