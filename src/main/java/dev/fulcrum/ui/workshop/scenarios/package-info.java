/**
 * The Scenarios tab: the sample configs shipped in {@code samples/}, what each shows, and opening one in place.
 *
 * <p>May use: the workshop package, config, i18n (its texts), JavaFX. Must not use: other views, app, proxy.
 */
package dev.fulcrum.ui.workshop.scenarios;
