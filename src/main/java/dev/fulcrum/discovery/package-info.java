/**
 * Backends that come from somewhere else than the config's static list: DNS names (A/AAAA and SRV records), watched
 * files and etcd prefixes (docs/REFERENCE.md §2.5), asked again every {@code refreshMs} (an etcd prefix is watched
 * besides, and asks for a refresh as soon as it changes) and applied to the engine.
 *
 * <ul>
 *   <li>{@link dev.fulcrum.discovery.Discovery} runs every source of every pool and keeps the pools in step with
 *       them: joins with slow start, drains what vanished, keeps the last good set while a source fails.</li>
 *   <li>{@code DiscoverySource} with {@code DnsSource} (A and AAAA records, dnsjava), {@code DnsSrvSource} (SRV
 *       records: target, port, weight, priority as backup), {@code FileSource} (a JSON list read by the config's own
 *       rules) and {@code EtcdSource} (every key under a prefix, kept in step by an {@code EtcdMirror}; each value read
 *       by the config's backend-entry rules, a bad key left out and named).</li>
 * </ul>
 *
 * <p>Time: refreshes run on the {@link dev.fulcrum.time.Scheduler} given (tests give a
 * {@link dev.fulcrum.time.ManualClock}); {@code new Discovery(engine)} makes a daemon scheduler of its own and shuts
 * it down at {@code close()}. A DNS lookup's own timeout is real network time; an etcd source's changes arrive on
 * its mirror's thread, which only asks for a refresh on the scheduler.
 *
 * <p>May use: {@code dev.fulcrum.engine}, {@code dev.fulcrum.time}, the config records that describe a source and
 * a backend entry ({@code DiscoveryConfig}, {@code BackendConfig}, {@code ConfigLoader.parseBackends} and
 * {@code parseBackend} and their problems), {@code dev.fulcrum.rules}, {@code dev.fulcrum.etcd} (the client and its
 * mirror), dnsjava. Must not use: {@code admin}, {@code ui}, {@code app}, {@code proxy}, {@code health}, {@code demo}.
 */
package dev.fulcrum.discovery;
