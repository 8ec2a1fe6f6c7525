package dev.fulcrum.testkit;

import dev.fulcrum.app.EtcdConfigSource;
import dev.fulcrum.app.FulcrumApp;
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

/**
 * Fulcrums sharing one config in a real etcd, each started in this process as {@code --config etcd://HOST:PORT/PREFIX
 * --proxy-port 0 --admin-port 0 --instance-id ID} starts it (docs/REFERENCE.md §8): following {@code PREFIX/config}
 * and {@code PREFIX/drained/}, registered at {@code PREFIX/instances/ID} under a lease. The config sends to two
 * {@link RecordingBackend}s {@code a} and {@code b}, round robin: what a fleet window attaches to.
 *
 * <p>Example: {@code EtcdFleetApps.start(etcd, "/fleet-1", 2)} puts the config, starts {@code fleet-1-0} and
 * {@code fleet-1-1}; {@link #kill(String)} stops one, and its key goes with its lease.
 */
public final class EtcdFleetApps implements AutoCloseable {
    private final EtcdCluster cluster;
    private final String prefix;
    private final EtcdClient etcd;
    private final RecordingBackend a = new RecordingBackend("a");
    private final RecordingBackend b = new RecordingBackend("b");
    private final String config;
    private final long configRevision;
    private final Map<String, FulcrumApp> apps = new LinkedHashMap<>();
    private int started;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private EtcdFleetApps(EtcdCluster cluster, String prefix, String token) {
        this.cluster = cluster;
        this.prefix = prefix;
        this.etcd = new EtcdClient(cluster.options());
        this.config = """
                {
                  "proxy": {"host": "127.0.0.1", "port": 0},
                  "admin": {"host": "127.0.0.1", "port": 0%s},
                  "strategy": {"type": "round-robin"},
                  "backends": [
                    {"id": "a", "url": "%s", "weight": 1},
                    {"id": "b", "url": "%s", "weight": 1}
                  ],
                  "retries": {"maxRetries": 0},
                  "healthCheck": {"enabled": false}
                }
                """.formatted(token == null ? "" : ", \"token\": \"" + token + "\"", a.url(), b.url());
        this.configRevision = etcd.put(prefix + "/config", config);
    }

    /** The config at {@code prefix/config}, and {@code n} instances following it. */
    public static EtcdFleetApps start(EtcdCluster cluster, String prefix, int n) {
        return start(cluster, prefix, n, null);
    }

    /** As {@link #start(EtcdCluster, String, int)}, the config's {@code admin.token} {@code token} (null: none). */
    public static EtcdFleetApps start(EtcdCluster cluster, String prefix, int n, String token) {
        EtcdFleetApps f = new EtcdFleetApps(cluster, prefix, token);
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

    /** The {@code etcd://} address of the prefix, as {@code --config} and {@code --attach} take it. */
    public String address() {
        return "etcd://" + cluster.endpoints().get(0).getAuthority() + prefix;
    }

    /** One more instance, following the config and registered; returns its id. */
    public synchronized String add() {
        String id = prefix.substring(1).replace('/', '-') + "-" + started++;
        EtcdConfigSource.Start s = EtcdConfigSource.read(EtcdAddress.parse(address()),
                new EtcdClient(cluster.options()), id, c -> c.withProxyPort(0).withAdminPort(0));
        FulcrumApp app = FulcrumApp.start(s.apply(s.config()), null).overriding(s);
        app.follow(s);
        apps.put(id, app);
        return id;
    }

    /** Stops instance {@code id}: its lease ends with it, and so its key. */
    public synchronized void kill(String id) {
        apps.remove(id).close();
    }

    public synchronized List<String> ids() {
        return new ArrayList<>(apps.keySet());
    }

    public synchronized FulcrumApp app(int i) {
        return apps.get(ids().get(i));
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
        try {
            return http.send(HttpRequest.newBuilder(URI.create(proxyUrl(i) + path)).timeout(Duration.ofSeconds(5))
                    .GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The config's mod revision as put at the start. */
    public long configRevision() {
        return configRevision;
    }

    /** {@code PREFIX/config} now. */
    public KeyValue configKey() {
        return etcd.get(prefix + "/config").first();
    }

    public EtcdClient etcd() {
        return etcd;
    }

    public String prefix() {
        return prefix;
    }

    @Override
    public synchronized void close() {
        apps.values().forEach(FulcrumApp::close);
        apps.clear();
        etcd.close();
        a.close();
        b.close();
    }
}
