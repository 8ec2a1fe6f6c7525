/**
 * The Events view: every engine event since the window opened, filtered by type and text, following the newest.
 *
 * <p>May use: the ui root, engine events, JavaFX. Must not use: other views' packages, app, proxy.
 */
package dev.fulcrum.ui.events;
