/**
 * The Strategy view: pick a strategy and its options for the selected pool, applied live, with one sentence on
 * how each picks ({@link dev.fulcrum.ui.strategy.StrategyForm}).
 *
 * <p>May use: the ui root, admin values, engine values, JavaFX. Must not use: other views' packages, app, proxy.
 */
package dev.fulcrum.ui.strategy;
