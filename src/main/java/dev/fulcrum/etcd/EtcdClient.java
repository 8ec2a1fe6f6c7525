package dev.fulcrum.etcd;

import java.time.Duration;

/**
 * etcd v3 through its JSON gateway over {@code java.net.http}. Every call blocks on the network (never on the JavaFX
 * thread) and is tried on each endpoint in turn until one answers: a refused connection, a reset or a timeout moves
 * to the next; an answer of etcd's (an error too) is final. When none answers, {@link EtcdException#unreachable()}.
 * With a user, the client authenticates first and again when etcd says its token expired. Thread-safe.
 *
 * <p>Keys and values are text; revisions and lease ids are etcd's 64-bit numbers (strings in the gateway's JSON).
 */
public final class EtcdClient implements AutoCloseable {
    /** How long one request may take on one endpoint before the next is tried. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);

    private final EtcdOptions options;

    /** Builds the HTTP client (TLS from the options' files); a file that cannot be read is an error naming it. */
    public EtcdClient(EtcdOptions options) {
        this.options = options;
        throw new UnsupportedOperationException("not yet");
    }

    public EtcdOptions options() {
        return options;
    }

    /** The key, or an empty range (with the store's revision) when it does not exist. */
    public Range get(String key) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Every key that starts with {@code prefix}, in key order. */
    public Range getPrefix(String prefix) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Writes the key; returns the store's revision after it. */
    public long put(String key, String value) {
        return put(key, value, 0);
    }

    /** Writes the key attached to {@code lease} (0 = none); returns the store's revision after it. */
    public long put(String key, String value, long lease) {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * Writes the key only if its mod revision is still {@code modRevision} (0: only if it does not exist), in one
     * transaction ({@code /v3/kv/txn}).
     */
    public Swap putIf(String key, String value, long modRevision) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Deletes the key only if its mod revision is still {@code modRevision}. */
    public Swap deleteIf(String key, long modRevision) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Deletes the key; returns how many keys were deleted (0 or 1). */
    public long delete(String key) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Deletes every key under {@code prefix}; returns how many. */
    public long deletePrefix(String prefix) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Compacts the history up to {@code revision} (tests; an operator's tool). */
    public void compact(long revision) {
        throw new UnsupportedOperationException("not yet");
    }

    /** A new lease of {@code ttlSeconds}; returns its id. */
    public long grantLease(long ttlSeconds) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Renews the lease once; returns its TTL now, 0 or less when etcd no longer has it. */
    public long keepAlive(long lease) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Ends the lease now; its keys are deleted. */
    public void revoke(long lease) {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * Opens one watch of the keys under {@code prefix} from {@code fromRevision} on the first endpoint that answers,
     * and hands each answer to {@code listener} on the calling thread until the stream ends, {@code cancel} is set or
     * etcd cancels it; it returns then. Reconnecting is {@link EtcdMirror}'s.
     */
    public void watch(String prefix, long fromRevision, WatchListener listener, java.util.function.BooleanSupplier cancel) {
        throw new UnsupportedOperationException("not yet");
    }

    /** What one watch stream says. */
    public interface WatchListener {
        /** The watch is open from this endpoint. */
        default void opened(String endpoint) {
        }

        /** Changes at {@code revision}, in order; {@code kv.createRevision() == 0} and {@code deleted} for a delete. */
        void events(long revision, java.util.List<Event> events);

        /** etcd compacted past the revision asked for: the watch ended; read the prefix whole again. */
        void compacted(long compactRevision);
    }

    /** One change: a put (the key as it is now) or a delete (the key and the revision that deleted it). */
    public record Event(boolean deleted, KeyValue kv) {
    }

    @Override
    public void close() {
    }
}
