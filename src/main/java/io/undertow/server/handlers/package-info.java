/**
 * Classes of undertow-core that Fulcrum ships in their place, because Undertow calls them on every request with no
 * option to do otherwise: {@link io.undertow.server.handlers.HostHeaderHandler}, the Host check, with Undertow's rules
 * and answers and none of its per-request regular expressions. The project's classes come first on the class path (the
 * shaded jar and every test run); a test holds each to the original, loaded from the undertow-core jar.
 *
 * <p>May use: Undertow and {@code java.*}. Must not use: any package of Fulcrum (a replacement stays a drop-in that
 * Undertow's own code can load without ours).
 */
package io.undertow.server.handlers;
