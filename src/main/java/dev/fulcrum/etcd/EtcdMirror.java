package dev.fulcrum.etcd;

import java.util.Map;

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

    /** Starts mirroring {@code prefix}; returns at once (the first read happens on the mirror's thread). */
    public static EtcdMirror start(EtcdClient client, String prefix, Listener listener) {
        throw new UnsupportedOperationException("not yet");
    }

    /** The keys as of the last change seen (empty before the first read). */
    public Map<String, KeyValue> keys() {
        throw new UnsupportedOperationException("not yet");
    }

    /** The revision of the last read or change seen (0 before the first read). */
    public long revision() {
        throw new UnsupportedOperationException("not yet");
    }

    /** Whether the last attempt to read or watch reached the cluster. */
    public boolean reachable() {
        throw new UnsupportedOperationException("not yet");
    }

    /** Stops the thread and its stream. */
    @Override
    public void close() {
    }
}
