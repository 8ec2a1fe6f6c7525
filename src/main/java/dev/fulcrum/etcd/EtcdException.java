package dev.fulcrum.etcd;

/**
 * An etcd request that failed, its message naming the endpoint (or every endpoint tried) and why, e.g.
 * {@code etcd http://127.0.0.1:2379: connection refused}, or etcd's own error
 * ({@code etcd http://127.0.0.1:2379: etcdserver: user name or password is invalid}).
 */
public class EtcdException extends RuntimeException {
    /** True when no endpoint could be reached (refused, reset, timed out): the cluster is unreachable, not refusing. */
    private final boolean unreachable;

    public EtcdException(String message, boolean unreachable, Throwable cause) {
        super(message, cause);
        this.unreachable = unreachable;
    }

    public boolean unreachable() {
        return unreachable;
    }
}
