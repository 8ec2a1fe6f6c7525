/**
 * The Strategy view: pick a strategy and its options for the selected pool, applied live, with one sentence on
 * how each picks ({@link dev.fulcrum.ui.strategy.StrategyForm}).
 *
 * <p>Its texts come from the i18n bundles ({@code strategy.*} keys; a strategy they do not know, a plugin's, in its
 * descriptor's words), the engine's values behind them unchanged.
 *
 * <p>May use: the ui root, i18n, admin values, engine values, JavaFX. Must not use: other views' packages, app, proxy.
 */
package dev.fulcrum.ui.strategy;
