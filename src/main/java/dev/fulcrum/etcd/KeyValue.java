package dev.fulcrum.etcd;

/**
 * One key as etcd holds it (its key and value decoded from base64 as UTF-8).
 *
 * @param createRevision the revision that created it (0 = it does not exist, in a compare)
 * @param modRevision    the revision of its last change: what a compare-and-swap names
 * @param version        how many times it was written since created
 * @param lease          the lease it is attached to, 0 = none
 */
public record KeyValue(String key, String value, long createRevision, long modRevision, long version, long lease) {
}
