package dev.fulcrum.discovery;

import dev.fulcrum.config.DiscoveryConfig;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps each pool's discovered backends in step with their sources: every {@code refreshMs} a source is
 * asked again; new backends join with slow start, vanished ones drain and are then removed, changed weights
 * are applied. A source that fails keeps its last good set (a DNS outage must not empty a pool) and says so
 * once per failure streak in the log and as a {@code discovery} event.
 *
 * <p>Threading: one scheduler thread runs every refresh, so a source's owned set needs no locking; the
 * engine's own control thread applies the changes.
 */
public final class Discovery implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Discovery.class);

    private final Engine engine;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fulcrum-discovery");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Running> running = new LinkedHashMap<>();

    private static final class Running {
        final String pool;
        final DiscoverySource source;
        final Map<String, BackendSpec> owned = new java.util.concurrent.ConcurrentHashMap<>();
        ScheduledFuture<?> task;
        boolean failing;

        Running(String pool, DiscoverySource source) {
            this.pool = pool;
            this.source = source;
        }
    }

    public Discovery(Engine engine) {
        this.engine = engine;
    }

    /** Replaces the sources of every pool (on start and on a config change). */
    public synchronized void configure(Map<String, List<DiscoveryConfig>> byPool) {
        Map<String, DiscoveryConfig> wanted = new LinkedHashMap<>();
        byPool.forEach((pool, list) -> list.forEach(d -> wanted.put(pool + "|" + d, d)));
        for (var it = running.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (!wanted.containsKey(e.getKey())) {
                e.getValue().task.cancel(false);
                Running r = e.getValue();
                scheduler.execute(() -> retire(r));
                it.remove();
            }
        }
        wanted.forEach((key, d) -> {
            if (!running.containsKey(key)) {
                String pool = key.substring(0, key.indexOf('|'));
                DiscoverySource src = DiscoveryConfig.DNS.equals(d.type()) ? new DnsSource(d) : new FileSource(d);
                Running r = new Running(pool, src);
                r.task = scheduler.scheduleWithFixedDelay(() -> refresh(r), 0, d.refreshMs(), TimeUnit.MILLISECONDS);
                running.put(key, r);
            }
        });
    }

    /** Runs one refresh of every source now and waits for it (tests, and the window's "refresh"). */
    public void refreshNow() {
        List<Running> all;
        synchronized (this) {
            all = new ArrayList<>(running.values());
        }
        try {
            scheduler.submit(() -> all.forEach(this::refresh)).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("discovery refresh failed", e);
        }
    }

    private void refresh(Running r) {
        List<BackendSpec> now;
        try {
            now = r.source.resolve();
        } catch (IOException | RuntimeException e) {
            if (!r.failing) {
                r.failing = true;
                LOG.warn("discovery {} failed, keeping its {} backend(s): {}", r.source.label(), r.owned.size(), e.getMessage());
                engine.publish("discovery", r.pool, null, null, "failed: " + r.source.label() + ": " + e.getMessage());
            }
            return;
        }
        if (r.failing) {
            r.failing = false;
            engine.publish("discovery", r.pool, null, "failed", "ok: " + r.source.label());
        }
        Map<String, BackendSpec> next = new LinkedHashMap<>();
        for (BackendSpec s : now) {
            next.put(s.id(), s);
        }
        Map<String, String> live = new HashMap<>();
        for (BackendView v : engine.backends()) {
            live.put(v.id(), v.state().name());
        }
        for (BackendSpec gone : new ArrayList<>(r.owned.values())) {
            if (!next.containsKey(gone.id())) {
                r.owned.remove(gone.id());
                if (live.containsKey(gone.id())) {
                    engine.remove(gone.id());
                }
            }
        }
        for (BackendSpec s : next.values()) {
            BackendSpec had = r.owned.get(s.id());
            try {
                if (had == null || !live.containsKey(s.id())) {
                    if (live.containsKey(s.id())) {
                        LOG.warn("discovery {}: id {} is already in use by another backend; skipped", r.source.label(), s.id());
                        continue;
                    }
                    engine.addBackend(r.pool, s, true);
                    r.owned.put(s.id(), s);
                } else if (!had.url().equals(s.url())) {
                    engine.remove(s.id()); // the id now means another address: drain the old one, add next round
                    r.owned.remove(s.id());
                } else if (had.weight() != s.weight()) {
                    engine.setWeight(s.id(), s.weight());
                    r.owned.put(s.id(), s);
                }
            } catch (EngineException e) {
                LOG.warn("discovery {}: {}", r.source.label(), e.getMessage());
            }
        }
    }

    private void retire(Running r) {
        for (String id : r.owned.keySet()) {
            try {
                engine.remove(id);
            } catch (EngineException ignored) {
                // already gone
            }
        }
        r.owned.clear();
    }

    /** Every backend id some source currently owns. */
    public synchronized java.util.Set<String> ownedIds() {
        java.util.Set<String> out = new java.util.HashSet<>();
        running.values().forEach(r -> out.addAll(r.owned.keySet()));
        return out;
    }

    /** The ids each source currently owns, by source label (for the window and tests). */
    public synchronized Map<String, List<String>> owned() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        running.values().forEach(r -> out.put(r.pool + ":" + r.source.label(), List.copyOf(r.owned.keySet())));
        return out;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
