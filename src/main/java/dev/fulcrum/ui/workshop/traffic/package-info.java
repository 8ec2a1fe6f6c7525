/**
 * The Traffic tab: real HTTP through the proxy at a set rate with keys from a chosen distribution, what it
 * achieved, recordings and their replay ({@link dev.fulcrum.demo.TrafficGenerator} underneath).
 *
 * <p>May use: the workshop package, demo, engine values, i18n (its texts), JavaFX. Must not use: other views, app,
 * proxy.
 */
package dev.fulcrum.ui.workshop.traffic;
