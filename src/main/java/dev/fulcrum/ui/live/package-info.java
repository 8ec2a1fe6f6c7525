/**
 * The Live stage: the selected pool as a picture, clients on the left, the proxy in the middle, one card per backend on
 * the right, and every sampled request a dot that travels to the backend that served it and back, coloured by how it
 * ended; a retry bounces off the backend that failed, a refusal stops at the proxy. {@link
 * dev.fulcrum.ui.live.LiveModel} and {@link dev.fulcrum.ui.live.Flight} are plain Java on a clock (tests move the
 * clock); {@link dev.fulcrum.ui.live.LiveCanvas} draws a frame of them, {@link dev.fulcrum.ui.live.LiveCard} is a
 * backend's card with its live weight slider.
 *
 * <p>May use: the ui root (session, commands, palette, weight slider), admin values and its request source, the
 * request samples, time (the session's clock), JavaFX. Must not use: other views' packages, app, proxy, engine
 * internals.
 */
package dev.fulcrum.ui.live;
