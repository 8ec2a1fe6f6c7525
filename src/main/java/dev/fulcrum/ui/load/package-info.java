/**
 * The Load view: the last minutes of requests per second, p99 latency, error rate and in-flight requests per
 * backend, pausable; {@link dev.fulcrum.ui.load.LoadViewModel} keeps the series, plain Java.
 *
 * <p>May use: the ui root, admin values, JavaFX. Must not use: other views' packages, app, proxy.
 */
package dev.fulcrum.ui.load;
