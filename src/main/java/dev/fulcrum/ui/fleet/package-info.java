/**
 * What a window attached to Fulcrums sharing a config in etcd shows of the fleet itself (docs/REFERENCE.md §8): the
 * Instances tab ({@link dev.fulcrum.ui.fleet.InstancesTab}: each instance up or gone, its URLs, version and the config
 * revision it applied) and the config banner's words ({@link dev.fulcrum.ui.fleet.ConfigSourceText}: etcd does not
 * answer, the latest config was refused), for a fleet and for one instance whose {@code /api/state} has a
 * {@code configSource}.
 *
 * <p>May use: the ui root ({@code UiSession}), admin values ({@code EtcdFleetClient}, {@code FleetInstance},
 * {@code FleetSource}), i18n, JavaFX. Must not use: other views' packages, app, etcd (the client is the window's way
 * to it).
 */
package dev.fulcrum.ui.fleet;
