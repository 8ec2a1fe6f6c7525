package dev.fulcrum.app;

import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.ConfigProblem;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.BackendState;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.etcd.EtcdAddress;
import dev.fulcrum.etcd.EtcdClient;
import dev.fulcrum.etcd.EtcdException;
import dev.fulcrum.etcd.EtcdMirror;
import dev.fulcrum.etcd.KeyValue;
import dev.fulcrum.rules.JsonText;
import dev.fulcrum.time.Cancellable;
import dev.fulcrum.time.Scheduler;
import dev.fulcrum.time.SystemClock;
import java.net.InetAddress;
import java.net.URI;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A config kept in etcd ({@code --config etcd://HOST:PORT[,...]/PREFIX}, docs/REFERENCE.md §8), followed by one
 * running {@link FulcrumApp}: {@code PREFIX/config} is applied as a saved file is (all of it or none, the running
 * config kept and the refusal logged, published as a {@code config} event and kept as {@code rejected});
 * {@code PREFIX/drained/ID} drains backend ID here and its deletion enables it again; this instance registers itself
 * at {@code PREFIX/instances/ID} under a lease. When etcd stops answering the proxy goes on serving its last good
 * config, and the source says {@code unreachable} (in {@code /api/state} and as an event) until it answers again;
 * the mirror then resumes where it stopped and whatever changed meanwhile is applied, without a restart.
 *
 * <p>Who owns what, on which thread:
 * <ul>
 *   <li>The mirror's thread ({@code etcd-mirror}, {@link EtcdMirror}) calls {@link #changed} and
 *       {@link #reachability} one at a time; it alone applies configs and drains, and it alone writes
 *       {@link #seenConfig}, {@link #drainedHere} and {@link #status}.</li>
 *   <li>The lease thread ({@code fulcrum-etcd-lease}, a {@link Scheduler}) alone talks to etcd about the
 *       registration: it owns {@link #lease} and {@link #registered}, renews the lease every {@link #RENEW_MS},
 *       grants a new one when etcd no longer has it, and puts the registration again when its value changed (the
 *       mirror's thread only asks it to look, with {@link Scheduler#execute}). Its network calls never hold up an
 *       apply.</li>
 *   <li>Any thread (the admin API's) reads {@link #status}: one immutable record behind a volatile field.</li>
 * </ul>
 */
public final class EtcdConfigSource implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EtcdConfigSource.class);
    /** The registration's lease: long enough to ride out a renewal or two lost, short enough to drop a dead one. */
    public static final long LEASE_TTL_SECONDS = 10;
    /** How often the lease is renewed: three chances within a TTL. */
    public static final long RENEW_MS = 3_000;

    /**
     * What {@code --config etcd://...} read before anything started, and what the command line sets over every
     * config applied: handed to {@link FulcrumApp#overriding} and then to {@link FulcrumApp#follow}.
     *
     * @param revision the mod revision of the config read
     */
    public record Start(EtcdAddress address, EtcdClient client, String instanceId, String json, long revision,
                        UnaryOperator<FulcrumConfig> overrides) implements UnaryOperator<FulcrumConfig> {
        @Override
        public FulcrumConfig apply(FulcrumConfig config) {
            return overrides.apply(config);
        }

        /** The config read, parsed and validated as a file's ({@link ConfigException} with its problems). */
        public FulcrumConfig config() {
            return ConfigLoader.parse(json);
        }
    }

    /**
     * Reads {@code PREFIX/config} once, before anything starts.
     *
     * @throws IllegalStateException one line naming the endpoints or the key when etcd cannot be read or the key
     *                               does not exist
     */
    public static Start read(EtcdAddress address, EtcdClient client, String instanceId,
                             UnaryOperator<FulcrumConfig> overrides) {
        KeyValue kv;
        try {
            kv = client.get(address.configKey()).first();
        } catch (EtcdException e) {
            throw new IllegalStateException("--config " + address + ": cannot read " + address.configKey() + ": "
                    + e.getMessage(), e);
        }
        if (kv == null) {
            throw new IllegalStateException("--config " + address + ": no config at key " + address.configKey()
                    + " (put a config file's JSON there, e.g. etcdctl put " + address.configKey()
                    + " \"$(cat fulcrum.json)\")");
        }
        return new Start(address, client, instanceId, kv.value(), kv.modRevision(), overrides);
    }

    /**
     * What {@code /api/state} says of the source ({@code configSource}).
     *
     * @param state    {@code ok} or {@code unreachable}
     * @param since    when that state began, epoch ms
     * @param revision the mod revision of the config applied
     * @param rejected the latest config refused since the last applied one, or null
     */
    record Status(String state, long since, long revision, Rejected rejected) {
        /** The registration's {@code configState}. */
        String configState() {
            return "unreachable".equals(state) ? "unreachable" : rejected != null ? "refused" : "ok";
        }
    }

    /** A config refused: its mod revision (the mirror's revision for a deletion), when, and why. */
    record Rejected(long revision, long at, List<String> problems) {
    }

    private final FulcrumApp app;
    private final Engine engine;
    private final EtcdAddress address;
    private final EtcdClient client;
    private final String instanceId;
    private final long startedAt = SystemClock.currentTimeMillis();
    private final Scheduler leaseThread = Scheduler.daemon("fulcrum-etcd-lease");
    private final Cancellable renewal;
    private final EtcdMirror mirror;

    // the mirror's thread
    private volatile Status status;
    /** The mod revision of the config last applied or refused (-1: the key was deleted), so each is acted on once. */
    private long seenConfig;
    /** Backends this source drained (and so enables again when their key goes). */
    private final Set<String> drainedHere = new HashSet<>();

    // the lease thread
    private long lease;
    private String registered;
    private boolean closed;
    private final AtomicBoolean closing = new AtomicBoolean();

    private EtcdConfigSource(FulcrumApp app, Start start) {
        this.app = app;
        this.engine = app.engine();
        this.address = start.address();
        this.client = start.client();
        this.instanceId = start.instanceId();
        this.seenConfig = start.revision();
        this.status = new Status("ok", startedAt, start.revision(), null);
        this.renewal = leaseThread.scheduleWithFixedDelay(this::renew, 0, RENEW_MS, TimeUnit.MILLISECONDS);
        this.mirror = EtcdMirror.start(client, address.prefix() + "/", new EtcdMirror.Listener() {
            @Override
            public void changed(Map<String, KeyValue> keys, long revision) {
                EtcdConfigSource.this.changed(keys, revision);
            }

            @Override
            public void reachability(boolean reachable, long since, String problem) {
                EtcdConfigSource.this.reachability(reachable, since, problem);
            }
        });
    }

    /** Follows the config {@code start} read, for {@code app}, which was started from it. */
    static EtcdConfigSource start(FulcrumApp app, Start start) {
        return new EtcdConfigSource(app, start);
    }

    public String instanceId() {
        return instanceId;
    }

    // ---------------------------------------------------------------- the mirror's thread

    private void changed(Map<String, KeyValue> keys, long revision) {
        try {
            KeyValue config = keys.get(address.configKey());
            if (config == null) {
                if (seenConfig != -1) {
                    seenConfig = -1;
                    refuse(revision, List.of(address.configKey() + ": no config at this key, the running config stays"
                            + " (got: deleted)"));
                }
            } else if (config.modRevision() != seenConfig) {
                seenConfig = config.modRevision();
                applyConfig(config);
            }
            drain(drainedIds(keys));
        } catch (RuntimeException e) {
            // whatever went wrong, the mirror must go on delivering the next change
            LOG.error("the change at revision {} of {} could not be handled", revision, address, e);
        }
    }

    private void applyConfig(KeyValue kv) {
        long rev = kv.modRevision();
        List<String> problems;
        try {
            problems = app.apply(ConfigLoader.parse(kv.value()), "applied revision " + rev);
        } catch (ConfigException e) {
            problems = e.problems().stream().map(ConfigProblem::describe).toList();
        } catch (RuntimeException e) {
            LOG.error("revision {} of {} could not be applied", rev, kv.key(), e);
            problems = List.of("$: could not be applied: " + e.getMessage() + " (got: revision " + rev + ")");
        }
        if (problems.isEmpty()) {
            LOG.info("applied revision {} of {}", rev, kv.key());
            Status s = status;
            status = new Status(s.state(), s.since(), rev, null);
            leaseThread.execute(this::register);
        } else {
            refuse(rev, problems);
        }
    }

    private void refuse(long revision, List<String> problems) {
        for (String p : problems) {
            LOG.warn("config error: {} (revision {} of {} not applied; the running config stays)", p, revision,
                    address.configKey());
        }
        engine.publish("config", null, null, null, "refused revision " + revision + ": " + String.join("; ", problems));
        Status s = status;
        status = new Status(s.state(), s.since(), s.revision(),
                new Rejected(revision, SystemClock.currentTimeMillis(), List.copyOf(problems)));
        leaseThread.execute(this::register);
    }

    private Set<String> drainedIds(Map<String, KeyValue> keys) {
        String prefix = address.drainedPrefix();
        Set<String> ids = new TreeSet<>();
        for (String key : keys.keySet()) {
            if (key.startsWith(prefix) && key.length() > prefix.length()) {
                ids.add(key.substring(prefix.length()));
            }
        }
        return ids;
    }

    /**
     * Makes the engine's drains agree with {@code PREFIX/drained/}: each listed backend drained (also one a config
     * just added or changed), each this source drained and no longer listed enabled. A backend drained here by the
     * admin API is left as it is; an id this instance does not have is skipped (another instance may have it).
     */
    private void drain(Set<String> drained) {
        for (BackendView b : engine.backends()) {
            boolean draining = b.state() == BackendState.DRAINING || b.state() == BackendState.DRAINED;
            if (drained.contains(b.id()) && !draining) {
                engine.drain(b.id());
                drainedHere.add(b.id());
                LOG.info("drained {}: {}{} says so", b.id(), address.drainedPrefix(), b.id());
            } else if (!drained.contains(b.id()) && drainedHere.remove(b.id()) && draining) {
                engine.enable(b.id());
                LOG.info("enabled {}: {}{} was deleted", b.id(), address.drainedPrefix(), b.id());
            }
        }
        drainedHere.retainAll(drained);
    }

    private void reachability(boolean reachable, long since, String problem) {
        Status s = status;
        String state = reachable ? "ok" : "unreachable";
        if (state.equals(s.state())) {
            return;
        }
        status = new Status(state, since, s.revision(), s.rejected());
        if (reachable) {
            LOG.info("etcd {} answers again; catching up", address);
            engine.publish("config", null, null, "unreachable", "ok");
            leaseThread.execute(this::register);
        } else {
            LOG.warn("etcd {} unreachable: {}; serving the last good config", address, problem);
            engine.publish("config", null, null, "ok", "unreachable: " + problem);
        }
    }

    // ---------------------------------------------------------------- the lease thread

    /** Every {@link #RENEW_MS}: renews the lease (a new one when etcd lost it), then registers. */
    private void renew() {
        if (closed) {
            return;
        }
        try {
            if (lease != 0 && client.keepAlive(lease) <= 0) {
                LOG.info("the lease of {} expired; registering again", registrationKey());
                lease = 0;
            }
        } catch (EtcdException e) {
            LOG.debug("cannot renew the lease of {}: {}", registrationKey(), e.getMessage());
            return; // the mirror reports the outage; the next renewal tries again
        }
        register();
    }

    /** Puts the registration when it is not there yet or its value changed. */
    private void register() {
        if (closed) {
            return;
        }
        try {
            if (lease == 0) {
                lease = client.grantLease(LEASE_TTL_SECONDS);
                registered = null;
            }
            String value = registration();
            if (!value.equals(registered)) {
                client.put(registrationKey(), value, lease);
                registered = value;
            }
        } catch (EtcdException e) {
            LOG.debug("cannot register {}: {}", registrationKey(), e.getMessage());
        }
    }

    String registrationKey() {
        return address.instancesPrefix() + instanceId;
    }

    /** {@code {"id","proxy","admin","version","configRevision","configState","startedAt"}}. */
    String registration() {
        Status s = status;
        return "{\"id\":" + JsonText.quote(instanceId)
                + ",\"proxy\":" + JsonText.quote(advertised(app.proxy().url()))
                + ",\"admin\":" + JsonText.quote(advertised(app.admin().url()))
                + ",\"version\":" + JsonText.quote(FulcrumCommand.VERSION)
                + ",\"configRevision\":" + s.revision()
                + ",\"configState\":" + JsonText.quote(s.configState())
                + ",\"startedAt\":" + startedAt + "}";
    }

    /** A listener on every address is reached, from another host, by this host's name. */
    static String advertised(String url) {
        URI u = URI.create(url);
        String host = u.getHost();
        if (host != null && (host.equals("0.0.0.0") || host.equals("[::]") || host.equals("[0:0:0:0:0:0:0:0]"))) {
            try {
                return u.getScheme() + "://" + InetAddress.getLocalHost().getHostName() + ":" + u.getPort();
            } catch (java.io.IOException e) {
                return url;
            }
        }
        return url;
    }

    // ---------------------------------------------------------------- any thread

    /** {@code /api/state}'s {@code configSource}. */
    public Map<String, Object> describe() {
        Status s = status;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", "etcd");
        out.put("url", address.toString());
        out.put("key", address.configKey());
        out.put("instance", instanceId);
        out.put("state", s.state());
        out.put("since", s.since());
        out.put("revision", s.revision());
        Map<String, Object> rejected = null;
        if (s.rejected() != null) {
            rejected = new LinkedHashMap<>();
            rejected.put("revision", s.rejected().revision());
            rejected.put("at", s.rejected().at());
            rejected.put("problems", s.rejected().problems());
        }
        out.put("rejected", rejected);
        return out;
    }

    /**
     * Stops following, and ends the registration at once (its lease revoked) rather than when the lease expires;
     * waits for the revoke at most {@link EtcdClient#REQUEST_TIMEOUT} per endpoint (etcd may be gone).
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        mirror.close();
        renewal.cancel();
        CountDownLatch revoked = new CountDownLatch(1);
        leaseThread.execute(() -> {
            closed = true;
            try {
                if (lease != 0) {
                    client.revoke(lease);
                }
            } catch (EtcdException e) {
                LOG.debug("cannot revoke the lease of {}: {}", registrationKey(), e.getMessage());
            } finally {
                revoked.countDown();
            }
        });
        try {
            revoked.await(EtcdClient.REQUEST_TIMEOUT.toMillis() * address.endpoints().size(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        leaseThread.shutdown();
        client.close();
    }
}
