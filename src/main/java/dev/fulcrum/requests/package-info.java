/**
 * The requests the proxy completed, as a lossy sample for the window and the admin API (design rule 8 of
 * docs/ARCHITECTURE.md): {@link dev.fulcrum.requests.RequestStream} keeps them in fixed rings the proxy's I/O threads
 * write without locks or allocation, and readers copy them out as {@link dev.fulcrum.requests.RequestSample}s, which
 * {@code /api/requests}, the Live and Requests views and HAR exports are made of; with {@code proxy.logDecisions} on,
 * each carries its {@link dev.fulcrum.requests.Decision}, how its backend was chosen, which writes its own JSON.
 *
 * <p>May use: {@code java.*}, {@code time} for the system clock the proxy's times are read on, {@code threads} for
 * each writing thread's ring, and {@code rules} for the escaping of a JSON string. Must not use: any other package of
 * Fulcrum or any library; the proxy writes here, and admin and the window read.
 */
package dev.fulcrum.requests;
