/**
 * The Health view: each active probe over time, passive ejections and panic mode, per backend.
 *
 * <p>May use: the ui root, admin values, engine values, JavaFX. Must not use: other views' packages, app, proxy.
 */
package dev.fulcrum.ui.health;
