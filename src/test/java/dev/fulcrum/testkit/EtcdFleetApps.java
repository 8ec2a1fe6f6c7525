package dev.fulcrum.testkit;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.HttpEngineClient;
import dev.fulcrum.app.EtcdConfigSource;
import dev.fulcrum.app.FulcrumApp;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.etcd.EtcdAddress;
import dev.fulcrum.etcd.EtcdClient;
import dev.fulcrum.etcd.KeyValue;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * Fulcrums sharing one config in a real etcd, each started in this process as {@code --config etcd://HOST:PORT/PREFIX
 * --proxy-port 0 --admin-port 0 --instance-id ID} starts it (docs/REFERENCE.md §8): following {@code PREFIX/config}
 * and {@code PREFIX/drained/}, registered at {@code PREFIX/instances/ID} under a lease, every event of its engine
 * collected. The config ({@link #config(int)}) sends to two {@link RecordingBackend}s {@code b1} and {@code b2},
 * round robin, and names fixed ports 18080/18081 that the command line's free ones must win over.
 *
 * <p>Example: {@code EtcdFleetApps.start(etcd, "/fleet-1", 2)} puts the config, starts {@code fleet-1-0} and
 * {@code fleet-1-1}; {@link #kill(String)} stops one, and its key goes with its lease.
 * {@code EtcdFleetApps.owning(EtcdCluster.of(3), "/p", "a", "b")} starts {@code a} and {@code b} and closes the
 * cluster with itself.
 */
public final class EtcdFleetApps implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final EtcdCluster cluster;
    private final boolean ownsCluster;
    private final String prefix;
    private final String token;
    private final EtcdClient etcd;
    private final RecordingBackend b1 = new RecordingBackend("b1");
    private final RecordingBackend b2 = new RecordingBackend("b2");
    private final long configRevision;
    private final Map<String, Instance> instances = new LinkedHashMap<>();
    private int started;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    /** One running Fulcrum following the config, and every event its engine published. */
    public record Instance(String id, FulcrumApp app, List<EngineEvent> events) {
        public String proxy() {
            return app.proxy().url();
        }

        public String admin() {
            return app.admin().url();
        }
    }

    private EtcdFleetApps(EtcdCluster cluster, boolean ownsCluster, String prefix, String token) {
        this.cluster = cluster;
        this.ownsCluster = ownsCluster;
        this.prefix = prefix;
        this.token = token;
        this.etcd = new EtcdClient(cluster.options());
        this.configRevision = putConfig(config(1));
    }

    /** The config at {@code prefix/config}, and {@code n} instances following it. */
    public static EtcdFleetApps start(EtcdCluster cluster, String prefix, int n) {
        return start(cluster, prefix, n, null);
    }

    /** As {@link #start(EtcdCluster, String, int)}, the config's {@code admin.token} {@code token} (null: none). */
    public static EtcdFleetApps start(EtcdCluster cluster, String prefix, int n, String token) {
        EtcdFleetApps f = new EtcdFleetApps(cluster, false, prefix, token);
        try {
            for (int i = 0; i < n; i++) {
                f.add();
            }
            return f;
        } catch (RuntimeException e) {
            f.close();
            throw e;
        }
    }

    /**
     * The config at {@code prefix/config}, and an instance for each of {@code ids}; {@link #close()} closes
     * {@code cluster} too (also when this fails), for a test whose etcd lives exactly as long as its fleet.
     */
    public static EtcdFleetApps owning(EtcdCluster cluster, String prefix, String... ids) {
        EtcdFleetApps f;
        try {
            f = new EtcdFleetApps(cluster, true, prefix, null);
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        try {
            for (String id : ids) {
                f.add(id);
            }
            return f;
        } catch (RuntimeException e) {
            f.close();
            throw e;
        }
    }

    /** The {@code etcd://} address of the prefix, every member then the prefix, as {@code --config} and
     * {@code --attach} take it ({@code etcds://} on a TLS cluster). */
    public String address() {
        String scheme = cluster.endpoints().get(0).getScheme().equals("https") ? "etcds" : "etcd";
        return scheme + "://" + cluster.endpoints().stream().map(u -> u.getHost() + ":" + u.getPort())
                .collect(Collectors.joining(",")) + prefix;
    }

    /** The config's JSON: b1 with {@code weight1}, b2 with weight 1, round robin, no health checks or retries. */
    public String config(int weight1) {
        return """
                {
                  "proxy": {"host": "127.0.0.1", "port": 18080},
                  "admin": {"host": "127.0.0.1", "port": 18081%s},
                  "strategy": {"type": "round-robin"},
                  "backends": [
                    {"id": "b1", "url": "%s", "weight": %d},
                    {"id": "b2", "url": "%s", "weight": 1}
                  ],
                  "healthCheck": {"enabled": false},
                  "retries": {"maxRetries": 0}
                }
                """.formatted(token == null ? "" : ", \"token\": \"" + token + "\"", b1.url(), weight1, b2.url());
    }

    /** Writes {@code json} at {@code PREFIX/config}; returns its mod revision. */
    public long putConfig(String json) {
        return etcd.put(prefix + "/config", json);
    }

    /** One more instance, named after the prefix and a count; returns its id. */
    public synchronized String add() {
        return add(prefix.substring(1).replace('/', '-') + "-" + started++).id();
    }

    /** One more instance {@code id}, following the config and registered. */
    public synchronized Instance add(String id) {
        EtcdConfigSource.Start s = read(id);
        FulcrumApp app = FulcrumApp.start(s.apply(s.config()), null).overriding(s);
        List<EngineEvent> events = new CopyOnWriteArrayList<>();
        app.engine().subscribe(events::add);
        app.follow(s);
        Instance i = new Instance(id, app, events);
        instances.put(id, i);
        return i;
    }

    /** What {@code --config etcd://... --proxy-port 0 --admin-port 0 --instance-id id} reads before starting. */
    private EtcdConfigSource.Start read(String id) {
        return EtcdConfigSource.read(EtcdAddress.parse(address()), new EtcdClient(cluster.options()), id,
                c -> c.withProxyPort(0).withAdminPort(0));
    }

    /** Stops instance {@code id}: its lease ends with it, and so its key. */
    public synchronized void kill(String id) {
        instances.remove(id).app().close();
    }

    public synchronized List<String> ids() {
        return new ArrayList<>(instances.keySet());
    }

    public synchronized Instance instance(String id) {
        return instances.get(id);
    }

    public synchronized FulcrumApp app(int i) {
        return instances.get(ids().get(i)).app();
    }

    /** Instance {@code i}'s proxy URL, as it registers it. */
    public String proxyUrl(int i) {
        return app(i).proxy().url();
    }

    /** Instance {@code i}'s admin API URL, as it registers it. */
    public String adminUrl(int i) {
        return app(i).admin().url();
    }

    /** A GET through instance {@code i}'s proxy: its status, or -1 when it failed without one. */
    public int proxied(int i, String path) {
        return proxied(proxyUrl(i), path);
    }

    /** A GET through {@code i}'s proxy: its status, or -1 when it failed without one. */
    public int proxied(Instance i, String path) {
        return proxied(i.proxy(), path);
    }

    private int proxied(String proxy, String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(proxy + path)).timeout(Duration.ofSeconds(5))
                    .GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** {@code i}'s {@code /api/state}, read through its admin API. */
    public EngineState state(Instance i) {
        try (HttpEngineClient c = new HttpEngineClient(URI.create(i.admin()), token)) {
            return c.state();
        }
    }

    /** Waits until every instance's b1 has {@code weight} in its {@code /api/state}. */
    public void awaitWeight(int weight) {
        await().atMost(Duration.ofSeconds(10)).until(() -> List.copyOf(instances.values()).stream()
                .allMatch(i -> state(i).backend("b1").weight() == weight));
    }

    /** The registrations under {@code PREFIX/instances/}, by id, each as JSON. */
    public Map<String, JsonNode> registrations() {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (KeyValue kv : etcd.getPrefix(prefix + "/instances/").kvs()) {
            try {
                out.put(kv.key().substring((prefix + "/instances/").length()), JSON.readTree(kv.value()));
            } catch (IOException e) {
                throw new AssertionError(kv.key() + " is not JSON: " + kv.value(), e);
            }
        }
        return out;
    }

    /** The config's mod revision as put at the start. */
    public long configRevision() {
        return configRevision;
    }

    /** {@code PREFIX/config} now. */
    public KeyValue configKey() {
        return etcd.get(prefix + "/config").first();
    }

    /** The test's own client, for puts and reads the instances do not make. */
    public EtcdClient etcd() {
        return etcd;
    }

    public EtcdCluster cluster() {
        return cluster;
    }

    public String prefix() {
        return prefix;
    }

    public RecordingBackend b1() {
        return b1;
    }

    @Override
    public synchronized void close() {
        instances.values().forEach(i -> i.app().close());
        instances.clear();
        etcd.close();
        b1.close();
        b2.close();
        if (ownsCluster) {
            cluster.close();
        }
    }
}
