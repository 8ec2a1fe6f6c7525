/**
 * The window's languages: {@link dev.fulcrum.i18n.Texts} (the bundles under {@code i18n/}) and
 * {@link dev.fulcrum.i18n.LocalText} (a lesson's text in several languages). A leaf: it uses nothing of Fulcrum.
 */
package dev.fulcrum.i18n;
