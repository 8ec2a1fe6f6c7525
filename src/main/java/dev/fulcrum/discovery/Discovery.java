package dev.fulcrum.discovery;

import dev.fulcrum.config.DiscoveryConfig;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.time.Cancellable;
import dev.fulcrum.time.Scheduler;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps each pool's discovered backends in step with their sources: every {@code refreshMs} a source is
 * asked again, and a watched source (etcd) also asks for a refresh itself as soon as it sees a change; new backends
 * join with slow start, vanished ones drain and are then removed, changed weights and labels are applied in place,
 * and an entry whose address, backup flag or in-flight cap changed replaces the running one in one step (as does an
 * entry that comes back while its old self still drains). A source that fails keeps its last good set (a DNS outage must not empty a
 * pool) and says so in the log and as a {@code discovery} event once per problem: when it starts, and again only if
 * the problem changes or comes back after a good answer. An entry the engine refuses (its id taken by another backend) stays
 * refused every refresh but is logged the same way, once, not every {@code refreshMs}; so is an entry the source itself
 * refuses while applying the rest (an etcd key with a bad id or value).
 *
 * <p>Threading: every refresh runs on the one {@link Scheduler} given (a system scheduler's single thread, or
 * the thread advancing a {@code ManualClock}), so a source's owned set needs no locking; the engine's own
 * control thread applies the changes. A test moves the clock past {@code refreshMs} and sees the refresh happen.
 * A watched source's own asks are queued on the same scheduler; a {@code ManualClock} runs a queued task on the
 * thread that queues it, so an etcd source is tested on a system scheduler.
 */
public final class Discovery implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Discovery.class);

    private final Engine engine;
    private final Scheduler scheduler;
    private final boolean ownsScheduler;
    private final Map<SourceKey, Running> running = new LinkedHashMap<>();
    private volatile boolean closed;

    /** One source of one pool: the same settings in the same pool are the same running source across reloads. */
    private record SourceKey(String pool, DiscoveryConfig config) {
    }

    private static final class Running {
        final String pool;
        final DiscoverySource source;
        final Map<String, BackendSpec> owned = new java.util.concurrent.ConcurrentHashMap<>();
        /** Ids this source removed that may still be draining: one coming back replaces its draining self. */
        final java.util.Set<String> retiring = new java.util.HashSet<>();
        /** A refresh the source asked for is queued and has not begun: more asks until it begins are the same one. */
        final java.util.concurrent.atomic.AtomicBoolean asked = new java.util.concurrent.atomic.AtomicBoolean();
        Cancellable task;
        volatile boolean stopped;
        /** The problem of the current failure streak, as last reported; null while the source answers. */
        String failing;
        /** Refused entries by id, with the problem last reported for each: logged again only when it changes. */
        Map<String, String> refused = Map.of();

        Running(String pool, DiscoverySource source) {
            this.pool = pool;
            this.source = source;
        }
    }

    /** Discovery with a scheduler of its own (thread {@code fulcrum-discovery}), shut down by {@link #close()}. */
    public Discovery(Engine engine) {
        this(engine, Scheduler.daemon("fulcrum-discovery"), true);
    }

    /** Discovery whose refreshes run on {@code scheduler}; its owner shuts it down, {@link #close()} does not. */
    public Discovery(Engine engine, Scheduler scheduler) {
        this(engine, scheduler, false);
    }

    private Discovery(Engine engine, Scheduler scheduler, boolean ownsScheduler) {
        this.engine = engine;
        this.scheduler = scheduler;
        this.ownsScheduler = ownsScheduler;
    }

    /** Replaces the sources of every pool (on start and on a config change). */
    public synchronized void configure(Map<String, List<DiscoveryConfig>> byPool) {
        java.util.Set<SourceKey> wanted = new java.util.LinkedHashSet<>();
        byPool.forEach((pool, list) -> list.forEach(d -> wanted.add(new SourceKey(pool, d))));
        for (var it = running.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (!wanted.contains(e.getKey())) {
                Running r = e.getValue();
                stop(r);
                scheduler.execute(() -> retire(r));
                it.remove();
            }
        }
        for (SourceKey key : wanted) {
            if (!running.containsKey(key)) {
                Running r = new Running(key.pool(), source(key.config()));
                r.source.start(() -> ask(r));
                r.task = scheduler.scheduleWithFixedDelay(() -> refreshGuarded(r), 0, key.config().refreshMs(),
                        TimeUnit.MILLISECONDS);
                running.put(key, r);
            }
        }
    }

    private static DiscoverySource source(DiscoveryConfig d) {
        return switch (d.type()) {
            case DiscoveryConfig.DNS -> new DnsSource(d);
            case DiscoveryConfig.DNS_SRV -> new DnsSrvSource(d);
            case DiscoveryConfig.ETCD -> new EtcdSource(d);
            default -> new FileSource(d);
        };
    }

    /** A source's own request for a refresh (it saw a change): queued on the scheduler, one at a time. */
    private void ask(Running r) {
        if (r.stopped || closed || !r.asked.compareAndSet(false, true)) {
            return;
        }
        try {
            scheduler.execute(() -> {
                r.asked.set(false);
                if (!r.stopped) {
                    refreshGuarded(r);
                }
            });
        } catch (RuntimeException shutDown) {
            r.asked.set(false); // the scheduler is gone: discovery is closing
        }
    }

    /** No more refreshes of this source, asked or scheduled; what it runs (a watch) ends. */
    private static void stop(Running r) {
        r.stopped = true;
        r.task.cancel();
        try {
            r.source.close();
        } catch (RuntimeException e) {
            LOG.warn("discovery {}: closing it failed: {}", r.source.label(), e.toString());
        }
    }

    /**
     * Runs one refresh of every source now, on the scheduler's thread, and waits for it (tests, and the window's
     * "refresh"); on a manual clock it runs at once on the caller's thread.
     */
    public void refreshNow() {
        if (closed) {
            throw new IllegalStateException("discovery refresh failed: discovery is closed");
        }
        List<Running> all;
        synchronized (this) {
            all = new ArrayList<>(running.values());
        }
        if (scheduler.onSchedulerThread()) {
            all.forEach(this::refresh);
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        scheduler.execute(() -> {
            try {
                all.forEach(this::refresh);
                done.complete(null);
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        try {
            done.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("discovery refresh failed", e);
        }
    }

    /**
     * Whatever goes wrong in one refresh, the source's next refresh still comes, and the thread advancing a manual
     * clock sees no exception from it.
     */
    private void refreshGuarded(Running r) {
        try {
            refresh(r);
        } catch (RuntimeException e) {
            LOG.error("discovery {}: refresh failed, trying again in its next round", r.source.label(), e);
        }
    }

    private void refresh(Running r) {
        List<BackendSpec> now;
        try {
            now = r.source.resolve();
            if (now == null) {
                return; // no answer yet: nothing to change, nothing failed
            }
        } catch (IOException | RuntimeException e) {
            String problem = String.valueOf(e.getMessage());
            if (!problem.equals(r.failing)) {
                r.failing = problem;
                LOG.warn("discovery {} failed, keeping its {} backend(s): {}", r.source.label(), r.owned.size(), problem);
                engine.publish("discovery", r.pool, null, null, "failed: " + r.source.label() + ": " + problem);
            }
            return;
        }
        if (r.failing != null) {
            r.failing = null;
            LOG.info("discovery {} answers again: {} backend(s)", r.source.label(), now.size());
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
        // drained and removed by now, or no longer draining (an operator re-added or enabled it): no longer this source's
        r.retiring.removeIf(id -> !"DRAINING".equals(live.get(id)) && !"DRAINED".equals(live.get(id)));
        for (BackendSpec gone : new ArrayList<>(r.owned.values())) {
            if (!next.containsKey(gone.id())) {
                r.owned.remove(gone.id());
                if (live.containsKey(gone.id())) {
                    try {
                        engine.remove(gone.id());
                        r.retiring.add(gone.id());
                    } catch (EngineException alreadyGone) {
                        // an operator removed it since the engine was looked at: what this refresh wanted anyway
                    }
                }
            }
        }
        Map<String, String> refused = new HashMap<>();
        r.source.refused().forEach((entry, problem) -> refuse(r, refused, "entry:" + entry, problem));
        for (BackendSpec s : next.values()) {
            BackendSpec had = r.owned.get(s.id());
            try {
                if (had == null && r.retiring.contains(s.id()) && live.containsKey(s.id())) {
                    // back while its old self still drains: the new entry takes its place in one step
                    engine.move(s.id(), r.pool, s, true);
                    r.retiring.remove(s.id());
                    r.owned.put(s.id(), s);
                } else if (had == null || !live.containsKey(s.id())) {
                    if (live.containsKey(s.id())) {
                        refuse(r, refused, s.id(), "id " + s.id() + " is already in use by another backend; skipped");
                        continue;
                    }
                    engine.addBackend(r.pool, s, true);
                    r.owned.put(s.id(), s);
                } else if (!had.url().equals(s.url()) || had.backup() != s.backup()
                        || !java.util.Objects.equals(had.maxInFlight(), s.maxInFlight())) {
                    // the id now means another address, or the same one used otherwise: replaced in one step (requests
                    // in flight finish against the old one), joining with slow start if the address is new
                    engine.move(s.id(), r.pool, s, !had.url().equals(s.url()));
                    r.owned.put(s.id(), s);
                } else {
                    if (had.weight() != s.weight()) {
                        engine.setWeight(s.id(), s.weight());
                    }
                    if (!had.labels().equals(s.labels())) {
                        engine.relabel(s.id(), s.labels()); // in place: its breaker and counters stay
                    }
                    r.owned.put(s.id(), s);
                }
            } catch (EngineException e) {
                refuse(r, refused, s.id(), "entry " + s.id() + " refused: " + e.getMessage());
            }
        }
        r.refused = refused; // a problem that went away is forgotten, so its return is logged again
    }

    /** Notes that this refresh refused an entry; logs it only if the last refresh did not refuse it for the same reason. */
    private static void refuse(Running r, Map<String, String> refused, String id, String problem) {
        refused.put(id, problem);
        if (!problem.equals(r.refused.get(id))) {
            LOG.warn("discovery {}: {}", r.source.label(), problem);
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

    /** Stops every source's refreshes; the backends they brought stay. */
    @Override
    public synchronized void close() {
        closed = true;
        running.values().forEach(Discovery::stop);
        if (ownsScheduler) {
            scheduler.shutdown();
        }
    }
}
