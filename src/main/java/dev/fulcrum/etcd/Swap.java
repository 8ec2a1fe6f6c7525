package dev.fulcrum.etcd;

/**
 * The answer of a compare-and-swap: whether the key still had the revision compared against (so the write was
 * made), and the store's revision after it (the new mod revision of the key when it succeeded).
 */
public record Swap(boolean succeeded, long revision) {
}
