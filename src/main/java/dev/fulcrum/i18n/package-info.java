/**
 * The window's languages: {@link dev.fulcrum.i18n.Texts} (the bundles under {@code i18n/}: English, Simplified Chinese
 * and Polish) and {@link dev.fulcrum.i18n.LocalText} (a lesson's text in several languages).
 *
 * <p>May use: {@code java.*}. Must not use: any other package of Fulcrum (the window and the lessons build on it),
 * and no library: the bundles are plain {@code java.util.ResourceBundle}s.
 */
package dev.fulcrum.i18n;
