/**
 * The Ring view: a consistent-hash ring or Maglev table drawn from the engine's own points and shares, a key's
 * owner, and the what-if of a change. {@link dev.fulcrum.ui.ring.RingGeometry} turns the ring into what drawing
 * needs once per change; {@link dev.fulcrum.ui.ring.RingCanvas} draws it. The teaching view draws a pool's ring at
 * another count of virtual nodes ({@link dev.fulcrum.ui.ring.TeachingRing}, the engine's own {@code HashRing}) with
 * each backend's share against its fair share ({@link dev.fulcrum.ui.ring.Spread}); {@link dev.fulcrum.ui.ring.KeyFlow}
 * shows the keys a change or a what-if moves.
 *
 * <p>Its texts come from the i18n bundles ({@code ring.*} keys), the engine's values behind them unchanged.
 *
 * <p>May use: the ui root, i18n, admin values, engine values and the engine's hashing ({@code engine.hash}), JavaFX.
 * Must not use: other views' packages, app, proxy.
 */
package dev.fulcrum.ui.ring;
