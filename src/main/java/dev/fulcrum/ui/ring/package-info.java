/**
 * The Ring view: a consistent-hash ring or Maglev table drawn from the engine's own points and shares, a key's
 * owner, and the what-if of a change. {@link dev.fulcrum.ui.ring.RingGeometry} turns the ring into what drawing
 * needs once per change; {@link dev.fulcrum.ui.ring.RingCanvas} draws it.
 *
 * <p>May use: the ui root, admin values, engine values, JavaFX. Must not use: other views' packages, app, proxy.
 */
package dev.fulcrum.ui.ring;
