package dev.fulcrum.discovery;

import dev.fulcrum.config.BackendConfig;
import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.ConfigProblem;
import dev.fulcrum.config.DiscoveryConfig;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.etcd.EtcdClient;
import dev.fulcrum.etcd.EtcdMirror;
import dev.fulcrum.etcd.EtcdOptions;
import dev.fulcrum.etcd.KeyValue;
import dev.fulcrum.rules.Limits;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every key under an etcd prefix is a backend: its id is the key after the prefix, its value a JSON object
 * {@code {"url","weight","labels","maxInFlight","backup"}} read by the config's backend-entry rules
 * ({@link ConfigLoader#parseBackend}). The prefix is watched, not polled ({@link EtcdMirror}): a put or a delete (a
 * lease that expired is a delete too) asks discovery for a refresh at once.
 *
 * <p>One bad key does not stop the others: a key whose id is outside the id alphabet, or whose value is not a valid
 * entry, is left out and reported by its key and why ({@link #refused()}); the rest apply. While no endpoint answers,
 * {@link #resolve()} fails with the mirror's reason, so discovery keeps the last good set and says so once; when
 * etcd answers again, the mirror catches up from where it was and the set follows.
 *
 * <p>A first read that finds no key under the prefix is a warning naming the prefix and the endpoints: a mistyped
 * prefix would otherwise be an empty pool and nothing said.
 *
 * <p>The client and the mirror are made on the first refresh, on the discovery thread: a TLS file that cannot be
 * read fails that refresh (and is tried again the next), not the config that names it.
 */
final class EtcdSource implements DiscoverySource {
    private static final Logger LOG = LoggerFactory.getLogger(EtcdSource.class);
    private final DiscoveryConfig config;
    /** Whether a read has been resolved yet: the first one that finds no key says so (a mistyped prefix). */
    private boolean resolvedOnce;
    private Runnable changed = () -> { };
    private EtcdClient client;
    private EtcdMirror mirror;
    private volatile boolean closed;
    /** The keys as of the mirror's last read or change; null before its first. */
    private volatile Map<String, KeyValue> keys;
    /** Why etcd does not answer, while it does not; null while it does. */
    private volatile String unreachable;
    private Map<String, String> refused = Map.of();

    EtcdSource(DiscoveryConfig config) {
        this.config = config;
    }

    @Override
    public String label() {
        return config.label();
    }

    @Override
    public void start(Runnable onChange) {
        this.changed = onChange;
    }

    @Override
    public Map<String, String> refused() {
        return refused;
    }

    @Override
    public List<BackendSpec> resolve() throws IOException {
        connect();
        String down = unreachable;
        if (down != null) {
            throw new IOException(down); // the mirror's words name the endpoint and why: "etcd URL: connection refused"
        }
        Map<String, KeyValue> now = keys;
        if (now == null) {
            return null;
        }
        if (!resolvedOnce && now.isEmpty()) {
            LOG.warn("discovery {}: no key under {} at {}: no backend comes from it until one is put (is the prefix"
                    + " right?)", config.label(), config.prefix(), String.join(",", config.endpoints()));
        }
        resolvedOnce = true;
        List<BackendSpec> out = new ArrayList<>(now.size());
        Map<String, String> bad = new LinkedHashMap<>();
        for (KeyValue kv : now.values()) {
            String id = kv.key().substring(config.prefix().length());
            if (Limits.id(id) != null) {
                bad.put(kv.key(), "key " + kv.key() + " refused: its id after the prefix " + Limits.ID_RULE
                        + " (got: " + id + ")");
                continue;
            }
            try {
                BackendConfig b = ConfigLoader.parseBackend(id, kv.value(), kv.key());
                out.add(b.toSpec());
            } catch (ConfigException e) {
                bad.put(kv.key(), "key " + kv.key() + " refused: " + e.problems().stream()
                        .map(ConfigProblem::describe).collect(Collectors.joining("; ")));
            }
        }
        refused = bad;
        return out;
    }

    /** Starts the client and the mirror once; a setting that cannot be used (a TLS file) fails this refresh. */
    private synchronized void connect() throws IOException {
        if (mirror != null || closed) {
            return;
        }
        try {
            client = new EtcdClient(new EtcdOptions(config.endpoints().stream().map(URI::create).toList(),
                    file(config.tls().ca()), file(config.tls().cert()), file(config.tls().key()), config.user(),
                    config.password()));
        } catch (RuntimeException e) {
            throw new IOException("etcd " + String.join(",", config.endpoints()) + ": " + e.getMessage(), e);
        }
        mirror = EtcdMirror.start(client, config.prefix(), new EtcdMirror.Listener() {
            @Override
            public void changed(Map<String, KeyValue> now, long revision) {
                keys = now;
                unreachable = null;
                changed.run();
            }

            @Override
            public void reachability(boolean reachable, long since, String problem) {
                unreachable = reachable ? null : String.valueOf(problem);
                changed.run();
            }
        });
    }

    private static Path file(String path) {
        return path == null ? null : Path.of(path);
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (mirror != null) {
            mirror.close();
        }
        if (client != null) {
            client.close();
        }
    }
}
