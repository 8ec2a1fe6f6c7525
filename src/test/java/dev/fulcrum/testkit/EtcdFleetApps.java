package dev.fulcrum.testkit;

import dev.fulcrum.etcd.EtcdClient;
import dev.fulcrum.etcd.KeyValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Fulcrums registered under a prefix of a real etcd as the shared-config contract says (docs/REFERENCE.md §8): the
 * config at {@code PREFIX/config}, and each instance at {@code PREFIX/instances/ID} under a lease of TTL 10 s renewed
 * every 3 s, its value {@code {"id","proxy","admin","version","configRevision","configState","startedAt"}}. The
 * instances are whole {@link RunningFulcrum} apps in this process started from that config, in front of two
 * {@link RecordingBackend}s {@code a} and {@code b}: what a fleet window attaches to.
 *
 * <p>Example: {@code EtcdFleetApps.start(etcd, "/fleet-1", 2)} puts the config, starts {@code fleet-1-0} and
 * {@code fleet-1-1}; {@link #kill(String)} stops one and ends its lease, as its expiry after a {@code kill -9} does.
 */
public final class EtcdFleetApps implements AutoCloseable {
    private final String prefix;
    private final EtcdClient etcd;
    private final RecordingBackend a = new RecordingBackend("a");
    private final RecordingBackend b = new RecordingBackend("b");
    private final String config;
    private final long configRevision;
    private final Map<String, RunningFulcrum> apps = new LinkedHashMap<>();
    private final Map<String, Long> leases = new LinkedHashMap<>();
    private final ScheduledExecutorService renew = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fleet-apps-lease");
        t.setDaemon(true);
        return t;
    });

    private EtcdFleetApps(EtcdCluster cluster, String prefix, String token) {
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
        renew.scheduleWithFixedDelay(() -> leases.values().forEach(l -> {
            try {
                etcd.keepAlive(l);
            } catch (RuntimeException e) {
                // etcd stopped by the test: the lease expires as it would for a real instance
            }
        }), 3, 3, TimeUnit.SECONDS);
    }

    /** The config at {@code prefix/config}, and {@code n} instances started from it and registered. */
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

    /** One more instance, registered; returns its id. */
    public synchronized String add() {
        String id = prefix.substring(1).replace('/', '-') + "-" + apps.size();
        RunningFulcrum app = RunningFulcrum.wholeApp(config).start();
        apps.put(id, app);
        long lease = etcd.grantLease(10);
        leases.put(id, lease);
        register(id, configRevision, "ok");
        return id;
    }

    /** Puts instance {@code id}'s key again, as an instance does when what it applied changes. */
    public synchronized void register(String id, long revision, String state) {
        RunningFulcrum app = apps.get(id);
        String value = """
                {"id":"%s","proxy":"%s","admin":"%s","version":"0.1.0","configRevision":%d,"configState":"%s",\
                "startedAt":%d}""".formatted(id, app.url(), app.adminUrl(), revision, state,
                System.currentTimeMillis());
        etcd.put(prefix + "/instances/" + id, value, leases.get(id));
    }

    /** Stops instance {@code id} and ends its lease: its key goes, as when its lease expires after a kill. */
    public synchronized void kill(String id) {
        apps.remove(id).close();
        etcd.revoke(leases.remove(id));
    }

    public synchronized List<String> ids() {
        return new ArrayList<>(apps.keySet());
    }

    public synchronized RunningFulcrum app(int i) {
        return apps.get(ids().get(i));
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
        renew.shutdownNow();
        apps.values().forEach(RunningFulcrum::close);
        for (long l : leases.values()) {
            try {
                etcd.revoke(l);
            } catch (RuntimeException e) {
                // etcd already stopped: nothing left to end
            }
        }
        etcd.close();
        a.close();
        b.close();
    }
}
