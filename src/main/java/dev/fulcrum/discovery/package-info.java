/**
 * Backends that come from somewhere else than the config's static list: DNS names and watched files
 * (docs/REFERENCE.md §2.5), asked again every {@code refreshMs} and applied to the engine.
 *
 * <ul>
 *   <li>{@link dev.fulcrum.discovery.Discovery} runs every source of every pool and keeps the pools in step with
 *       them: joins with slow start, drains what vanished, keeps the last good set while a source fails.</li>
 *   <li>{@code DiscoverySource} with {@code DnsSource} (A and AAAA records, dnsjava) and {@code FileSource} (a JSON
 *       list read by the config's own rules).</li>
 * </ul>
 *
 * <p>Time: refreshes run on the {@link dev.fulcrum.time.Scheduler} given (tests give a
 * {@link dev.fulcrum.time.ManualClock}); {@code new Discovery(engine)} makes a daemon scheduler of its own and shuts
 * it down at {@code close()}. A DNS lookup's own timeout is real network time.
 *
 * <p>May use: {@code dev.fulcrum.engine}, {@code dev.fulcrum.time}, the config records that describe a source and
 * a backend entry ({@code DiscoveryConfig}, {@code BackendConfig}, {@code ConfigLoader.parseBackends} and its
 * problems), dnsjava. Must not use: {@code admin}, {@code ui}, {@code app}, {@code proxy}, {@code health},
 * {@code demo}.
 */
package dev.fulcrum.discovery;
