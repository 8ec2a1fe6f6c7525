/**
 * Per-thread state for the request path: {@link dev.fulcrum.threads.PerThread}, one value per thread that the threads
 * which ask most (Undertow's I/O threads) find without a {@code ThreadLocal}.
 *
 * <p>May use: {@code java.*}. Must not use: any other package of Fulcrum.
 */
package dev.fulcrum.threads;
