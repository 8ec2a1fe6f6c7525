/**
 * The proxy listener: an embedded Undertow server that takes client requests (HTTP/1.1, HTTP/2, TLS), asks the
 * engine for a backend, and carries each request there and its answer back over the proxy's own HTTP/1.1 client
 * (docs/REFERENCE.md §3: forwarded headers, hop-by-hop removal, retries, timeouts, sticky sessions, WebSocket).
 * Everything on the request path runs on the I/O thread of the client's connection: nothing blocks, nothing takes a
 * lock, and the hot path allocates as little as it can.
 *
 * <h2>The parts</h2>
 * <ul>
 *   <li>{@link dev.fulcrum.proxy.ProxyServer} (public): starts and stops the listener, graceful drain included.
 *       {@link dev.fulcrum.proxy.ProxySettings} is what it needs from the config; {@link
 *       dev.fulcrum.proxy.RequestListener} hears of every completed request (metrics, the live views).</li>
 *   <li>{@code BalancingHandler}: refuses ambiguous or oversized requests, routes, honours the sticky cookie
 *       ({@code StickyCookies}), and starts one {@code ProxyExchange} per request.</li>
 *   <li>{@code ProxyExchange}: the sequencer of one exchange. Where it is, is one {@code ExchangePhase}; whether a
 *       failed attempt may go elsewhere, the {@code RetryPolicy}. Its steps: {@code RequestHead} (the head the
 *       backend gets), {@code RequestUpload} (the body), {@code ResponseRelay} (the answer back),
 *       {@code UpgradeTunnel} (a WebSocket spliced through, listed in {@code Tunnels}). It alone releases the
 *       engine's lease, once per exchange (docs/ARCHITECTURE.md: in-flight counting cannot leak).</li>
 *   <li>{@code BackendConnections} pools {@code BackendConnection}s per backend and I/O thread. A connection
 *       writes the request and reads the answer: {@code ResponseHeadParser} parses its head, {@code
 *       ResponseFraming} says how its body ends; {@code Tokens} knows the header names and list syntax both
 *       need.</li>
 *   <li>Around them: {@code HeadGuard} (beneath Undertow's parser on every client connection: a folded field or an
 *       HTTP major version other than 1 in a request head, empty lines before a request line), {@code ChunkGrammar}
 *       (a client's chunked body held to RFC 9112), {@code ClientWatch} (a
 *       client hanging up while its request waits), {@code ReadDeadlines} (one timer per I/O thread for every
 *       read timeout), {@code ErrorResponses} (the proxy's own JSON answers), {@code AccessLog}, {@code
 *       TlsContexts}, {@code ThreadCachedBufferPool}.</li>
 * </ul>
 *
 * <h2>What it may use, and what not</h2>
 * It builds on {@code dev.fulcrum.engine} (pools, leases, routing), {@code dev.fulcrum.time} (tickers),
 * {@code dev.fulcrum.trust} (PEM files and the local certificate {@code TlsContexts} serves), Undertow and XNIO (the
 * server, its channels and conduits) and SLF4J. It must not use {@code dev.fulcrum.admin}, {@code ui}, {@code app},
 * {@code config}, {@code demo}, {@code health} or {@code discovery}, nor JavaFX: those sit above it (ui → admin/app
 * → proxy/health/demo → engine) and wire it up; the proxy gets its settings as a {@link
 * dev.fulcrum.proxy.ProxySettings} and its backends from the engine, never from the config or the admin API.
 */
package dev.fulcrum.proxy;
