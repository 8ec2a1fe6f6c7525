/**
 * A client of etcd v3 through its JSON gateway ({@code /v3/kv/range}, {@code /v3/kv/put}, {@code /v3/kv/txn},
 * {@code /v3/watch}, {@code /v3/lease/*}, {@code /v3/auth/authenticate}) over {@code java.net.http}: what discovery
 * (an {@code etcd} source), a config kept in etcd ({@code --config etcd://...}) and the window attached to a fleet
 * ({@code --attach etcd://...}) share (docs/REFERENCE.md §1, §2.5, §8).
 *
 * <ul>
 *   <li>{@link dev.fulcrum.etcd.EtcdClient}: each call a blocking request tried on each endpoint in turn (the one
 *       that answered last first); keys and values are UTF-8 text, base64 on the wire; TLS with a CA, a client
 *       certificate and key; user/password auth, the token renewed once when etcd no longer knows it.</li>
 *   <li>{@link dev.fulcrum.etcd.EtcdMirror}: a prefix kept in step on a thread of its own, by etcd's rules: read
 *       whole, then watched from that read's revision + 1; after a reconnect resumed from the last seen revision + 1;
 *       after a compaction read whole again; while no endpoint answers, tried again after a pause growing to 1 s,
 *       its owner told when the cluster stops and starts answering.</li>
 *   <li>{@link dev.fulcrum.etcd.EtcdAddress}: the {@code etcd://HOST:PORT[,HOST:PORT...]/PREFIX} form.</li>
 * </ul>
 *
 * <p>May use: {@code dev.fulcrum.time}, {@code dev.fulcrum.trust} (PEM files), Jackson. Must not use any other layer:
 * it knows nothing of configs, engines or windows. Used by discovery, admin and app.
 */
package dev.fulcrum.etcd;
