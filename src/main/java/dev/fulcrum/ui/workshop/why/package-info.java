/**
 * The Why this backend tab: one request described in a form, stepped through the live pool's decision
 * ({@link dev.fulcrum.engine.DecisionTrace}) without sending anything.
 *
 * <p>May use: the workshop package, engine, i18n (its texts), JavaFX. Must not use: other views, app, proxy.
 */
package dev.fulcrum.ui.workshop.why;
