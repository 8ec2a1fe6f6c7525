/**
 * Opening what the window manages: the embedded engine (through {@link dev.fulcrum.app.EmbeddedFulcrum}) or a
 * remote Fulcrum or HAProxy fleet over the network. Every call here blocks and runs off the FX thread.
 *
 * <p>May use: admin (the clients), app's {@code EmbeddedFulcrum}, config. Must not use: other views, JavaFX
 * controls.
 */
package dev.fulcrum.ui.connect;
