/**
 * The Side by side tab: one seeded trace through several strategies at once in the simulator
 * ({@link dev.fulcrum.engine.sim.SideBySide}): load, burstiness, p99 and keys moved, with a CSV export.
 *
 * <p>May use: the workshop package, engine.sim, demo (recordings), JavaFX. Must not use: other views, app, proxy.
 */
package dev.fulcrum.ui.workshop.sidebyside;
