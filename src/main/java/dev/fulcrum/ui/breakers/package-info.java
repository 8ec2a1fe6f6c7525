/**
 * The Breakers view: one card per backend with its circuit breaker's state machine, the window's recent calls,
 * the rates against their thresholds and the countdown to HALF_OPEN.
 *
 * <p>Its texts come from the i18n bundles ({@code breakers.*} keys), the engine's values behind them unchanged.
 *
 * <p>May use: the ui root, i18n, admin values, engine values, JavaFX. Must not use: other views' packages, app, proxy.
 */
package dev.fulcrum.ui.breakers;
