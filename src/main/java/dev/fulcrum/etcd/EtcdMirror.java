package dev.fulcrum.etcd;

import dev.fulcrum.time.SystemClock;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keys under a prefix, kept in step with etcd on a daemon thread of its own ({@code etcd-mirror}) by etcd's
 * rules: read whole, then watched from that read's revision + 1; after the stream ends or an endpoint fails, resumed
 * from the last seen revision + 1 on the next endpoint that answers (with a growing pause, up to a second, while none
 * does); after a compaction ({@code compact_revision} in the watch's answer) read whole again and watched from that
 * read's revision + 1. Nothing written in between is missed.
 *
 * <p>The listener is called on the mirror's thread, one call at a time: {@link Listener#changed} with the whole map
 * after the first read and after every change, {@link Listener#reachability} when the cluster stops or starts
 * answering (with the time it happened and why).
 */
public final class EtcdMirror implements AutoCloseable {
    /** What a mirror tells its owner. */
    public interface Listener {
        /** The keys now (key → key value, in key order), as of {@code revision}. */
        void changed(Map<String, KeyValue> keys, long revision);

        /**
         * The cluster stopped ({@code reachable} false) or started again answering; {@code since} epoch ms;
         * {@code problem} why (null when reachable).
         */
        default void reachability(boolean reachable, long since, String problem) {
        }
    }

    /** The longest pause between attempts while no endpoint answers. */
    static final long MAX_PAUSE_MS = 1000;
    private static final long FIRST_PAUSE_MS = 50;
    private static final Logger LOG = LoggerFactory.getLogger(EtcdMirror.class);

    private final EtcdClient client;
    private final String prefix;
    private final Listener listener;
    private final Thread thread;
    private volatile boolean closed;
    private volatile Map<String, KeyValue> keys = Map.of();
    private volatile long revision;
    private volatile boolean reachable;
    /** Whether a reachability has been told yet: the first outcome is told either way, then only changes. */
    private boolean told;
    /** The mirror's own copy, changed on its thread only. */
    private final TreeMap<String, KeyValue> working = new TreeMap<>();

    private EtcdMirror(EtcdClient client, String prefix, Listener listener) {
        this.client = client;
        this.prefix = prefix;
        this.listener = listener;
        this.thread = new Thread(this::run, "etcd-mirror " + prefix);
        thread.setDaemon(true);
    }

    /**
     * Starts mirroring {@code prefix}; returns at once (the first read happens on the mirror's thread). The first
     * outcome is told to {@link Listener#reachability} whichever it is (reachable after the first read, or not with
     * why), then every change of it. An error of etcd's own (a refused user, a denied key) is told as not reachable
     * with etcd's words, and tried again like an unreachable cluster.
     */
    public static EtcdMirror start(EtcdClient client, String prefix, Listener listener) {
        EtcdMirror m = new EtcdMirror(client, prefix, listener);
        m.thread.start();
        return m;
    }

    /** The keys as of the last change seen (empty before the first read). */
    public Map<String, KeyValue> keys() {
        return keys;
    }

    /** The revision of the last read or change seen (0 before the first read). */
    public long revision() {
        return revision;
    }

    /** Whether the last attempt to read or watch reached the cluster. */
    public boolean reachable() {
        return reachable;
    }

    /** Stops the thread and its stream; waits for it to end (a listener call under way finishes first). */
    @Override
    public void close() {
        closed = true;
        if (Thread.currentThread() != thread) {
            try {
                thread.join(EtcdClient.REQUEST_TIMEOUT.toMillis() * 2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        boolean readWhole = true;
        long pause = FIRST_PAUSE_MS;
        while (!closed) {
            boolean[] opened = {false};
            boolean[] compacted = {false};
            try {
                if (readWhole) {
                    Range r = client.getPrefix(prefix);
                    if (closed) {
                        return;
                    }
                    working.clear();
                    for (KeyValue kv : r.kvs()) {
                        working.put(kv.key(), kv);
                    }
                    readWhole = false;
                    tellReachable(true, null);
                    publish(r.revision());
                }
                client.watch(prefix, revision + 1, new EtcdClient.WatchListener() {
                    @Override
                    public void opened(String endpoint) {
                        opened[0] = true;
                        tellReachable(true, null);
                    }

                    @Override
                    public void events(long at, List<EtcdClient.Event> events) {
                        long last = revision;
                        for (EtcdClient.Event e : events) {
                            if (e.deleted()) {
                                working.remove(e.kv().key());
                            } else {
                                working.put(e.kv().key(), e.kv());
                            }
                            last = Math.max(last, e.kv().modRevision());
                        }
                        // The last event's revision, not the header's: resuming from it + 1 can miss nothing.
                        publish(last);
                    }

                    @Override
                    public void compacted(long compactRevision) {
                        compacted[0] = true;
                    }
                }, () -> closed);
                if (compacted[0]) {
                    readWhole = true;
                    pause = FIRST_PAUSE_MS;
                    continue;
                }
                if (opened[0]) {
                    pause = FIRST_PAUSE_MS;
                    continue;
                }
            } catch (EtcdException e) {
                tellReachable(false, e.getMessage());
            } catch (RuntimeException e) {
                // A listener's fault must not end the mirror: the keys stay mirrored for the next call.
                LOG.warn("etcd mirror of {}: {}", prefix, e.toString(), e);
            }
            if (closed) {
                return;
            }
            sleep(pause);
            pause = Math.min(pause * 2, MAX_PAUSE_MS);
        }
    }

    private void publish(long at) {
        revision = at;
        keys = Collections.unmodifiableMap(new LinkedHashMap<>(working));
        if (!closed) {
            listener.changed(keys, at);
        }
    }

    private void tellReachable(boolean now, String problem) {
        if (told && reachable == now) {
            return;
        }
        told = true;
        reachable = now;
        if (!closed) {
            listener.reachability(now, SystemClock.currentTimeMillis(), problem);
        }
    }

    private void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }
}
