/**
 * The Demo faults view: latency, error rate and down for each demo backend Fulcrum runs itself, sent live.
 *
 * <p>May use: the ui root, admin values, JavaFX. Must not use: other views' packages, app, demo internals.
 */
package dev.fulcrum.ui.demo;
