package dev.fulcrum.etcd;

import java.util.List;

/** The keys a read found, in key order, and the store's revision when it read them. */
public record Range(long revision, List<KeyValue> kvs) {
    public Range {
        kvs = List.copyOf(kvs);
    }

    /** The first key found, or null. */
    public KeyValue first() {
        return kvs.isEmpty() ? null : kvs.get(0);
    }
}
