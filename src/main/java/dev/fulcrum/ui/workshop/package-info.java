/**
 * The workshop tabs: Traffic, Side by side, Why this backend and Scenarios, each in its own subpackage, and
 * {@link dev.fulcrum.ui.workshop.WorkshopContext}: what they need beyond the engine client.
 *
 * <p>May use: the ui root, admin, engine values and the simulator, demo (the traffic generator), config, i18n (the
 * tabs' texts), JavaFX, and of the app only {@code EmbeddedFulcrum}. Must not use: the other views' packages, proxy.
 */
package dev.fulcrum.ui.workshop;
