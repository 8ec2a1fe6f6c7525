/**
 * Backend addresses as text: {@code BackendAddresses} (a backend URL's host and port, resolved) and {@code IpText}
 * (one address in one canonical form). Used by the proxy, health checks, the admin API and the window; the engine
 * never looks at an address.
 *
 * <p>Dependencies. It may use {@code java.*} only; it must not use any other package of Fulcrum.
 */
package dev.fulcrum.net;
