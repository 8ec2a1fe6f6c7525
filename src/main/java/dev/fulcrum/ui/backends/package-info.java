/**
 * The Backends view: one table row per backend of the selected pool (state, health, breaker, in-flight, rate,
 * latency), a weight slider per row, drain, enable, remove and add (checked as it is typed by
 * {@link dev.fulcrum.ui.backends.BackendForm} against {@link dev.fulcrum.rules.Limits}).
 *
 * <p>Its texts come from the i18n bundles ({@code backends.*} keys), the engine's values behind them unchanged.
 *
 * <p>May use: the ui root (session, commands), i18n, admin values, engine values, rules, time (the session's clock),
 * JavaFX. Must not use: other views' packages, app, proxy.
 */
package dev.fulcrum.ui.backends;
