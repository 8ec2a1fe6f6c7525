/**
 * The Breakers view: one card per backend with its circuit breaker's state machine, the window's recent calls,
 * the rates against their thresholds and the countdown to HALF_OPEN.
 *
 * <p>May use: the ui root, admin values, engine values, JavaFX. Must not use: other views' packages, app, proxy.
 */
package dev.fulcrum.ui.breakers;
