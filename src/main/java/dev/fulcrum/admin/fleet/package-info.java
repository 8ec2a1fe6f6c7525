/**
 * A fleet of Fulcrums that share one config in etcd (docs/REFERENCE.md §8), behind the same
 * {@link dev.fulcrum.admin.EngineClient} as one engine, so one window manages all of them:
 * {@code --attach etcd://HOST:PORT[,HOST:PORT...]/PREFIX} (docs/REFERENCE.md §1).
 *
 * <ul>
 *   <li>{@link dev.fulcrum.admin.fleet.EtcdFleetClient}, the {@code EngineClient}: the config, the instances and the
 *       drained marks from an {@link dev.fulcrum.etcd.EtcdMirror} of the prefix; each instance read through its admin
 *       API; every change a compare-and-swap on the config's revision as the view showed it.</li>
 *   <li>{@link dev.fulcrum.admin.fleet.FleetInstance} and {@link dev.fulcrum.admin.fleet.FleetSource}: what the
 *       window's Instances tab and banner show.</li>
 *   <li>{@code StateMerge}: the config and the instances' states merged into one view (pure).</li>
 *   <li>{@code ConfigEdits}: the window's commands as edits of the config's JSON (pure).</li>
 *   <li>{@code FleetRequests}: the instances' request streams as one.</li>
 * </ul>
 *
 * <p>May use: {@code dev.fulcrum.etcd}, the {@code EngineClient} of {@code dev.fulcrum.admin} and its
 * {@code HttpEngineClient}, {@code dev.fulcrum.config} (to check a config before it is written), the engine's values,
 * {@code dev.fulcrum.time}, Jackson. Must not use: {@code dev.fulcrum.ui}, {@code dev.fulcrum.app}, JavaFX; the window
 * reaches it as an {@code EngineClient} (and for the Instances tab, as an {@code EtcdFleetClient}).
 */
package dev.fulcrum.admin.fleet;
