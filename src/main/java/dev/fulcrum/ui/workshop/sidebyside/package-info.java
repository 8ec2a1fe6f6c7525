/**
 * The Side by side tab: one seeded trace through several strategies at once in the simulator
 * ({@link dev.fulcrum.engine.sim.SideBySide}): load, burstiness, p99 and keys moved, with a CSV export; and a
 * recording (HAR, nginx log, Fulcrum's access log) or a {@code result.json} of {@code --compare} compared side by side
 * ({@link dev.fulcrum.replay.Comparison}).
 *
 * <p>May use: the workshop package, engine.sim, demo (recordings), replay, i18n (its texts), JavaFX. Must not use:
 * other views, app, proxy.
 */
package dev.fulcrum.ui.workshop.sidebyside;
